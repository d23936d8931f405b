/**
 * Large PDFs read from their files (issue 34): the main thread maps the file (pdf-bytes.ts) and the pdf.js workers
 * read it through a few cached chunks (pdfjs-file-stream.ts, pdf-file-source.ts) instead of holding its bytes.
 * Checked by what the workers answer (the same pages, words and errors as from the bytes, on every PDF of the
 * robustness corpus: damaged cross-reference tables, fuzzed files, object streams, passwords) and by counters
 * (nothing copied for the workers, one open file per open document), not by RSS.
 */
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHash } from "node:crypto";
import {
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { closeIdlePdfWorkers, PdfWorkerClient } from "../../../../src/core/engines/pdf/pdf-client.ts";
import type { PageResult, WorkerStats } from "../../../../src/core/engines/pdf/pdf-protocol.ts";
import {
  bytesCopiedForWorkers,
  fileBackingOf,
  FILE_BACKED_MIN_BYTES,
  isShared,
  readSourceFile,
  contentSha256,
} from "../../../../src/core/engines/pdf/pdf-bytes.ts";
import { waitFor } from "../../../support/wait";
import { HEAD_BYTES, headBytes, wholeBytes, type SourceData } from "../../../../src/core/source-data";

setDefaultTimeout(240_000);

const ROOT = path.resolve(import.meta.dir, "../../../..");
const ROBUST = path.join(ROOT, "fixtures/corpora/pdf-robustness");
const INVOICE = path.join(ROOT, "fixtures/inbox/born-digital-invoice.pdf");
const PAGE = { op: "page", preferredScale: 300 / 72, maxSidePx: 10_000, maxRasterPixels: 40_000_000 } as const;

const scratch = mkdtempSync(path.join(tmpdir(), "docproc-file-backed-"));
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  closeIdlePdfWorkers();
});

/** Every PDF below `dir`, in a stable order. */
function pdfsUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.toLowerCase().endsWith(".pdf") && statSync(path.join(dir, f)).isFile())
    .sort()
    .map((f) => path.join(dir, f));
}

/** What a client answers for the document: its page count and up to `max` pages (or the error), as comparable text. */
async function readOut(data: SourceData, password: string | undefined, max: number): Promise<string[]> {
  const client = new PdfWorkerClient(data, password, 60_000, undefined, { share: false });
  const out: string[] = [];
  try {
    const pages = (await client.open()).numPages;
    out.push(`pages ${pages}`);
    for (let n = 1; n <= Math.min(pages, max); n++) {
      const page = await client
        .request<PageResult>({ ...PAGE, pageNumber: n }, 60_000, `page ${n}`)
        .catch((e: Error) => ({ error: e.message }));
      out.push(JSON.stringify(page));
    }
  } catch (err) {
    out.push(`error ${(err as Error).message}`);
  } finally {
    await client.close();
  }
  return out;
}

describe("a PDF read from its file", () => {
  test("readSourceFile leaves a large PDF in its file instead of reading it; smaller ones and other files are read", async () => {
    const big = path.join(scratch, "big.pdf");
    writeFileSync(big, "%PDF-1.4\n");
    truncateSync(big, FILE_BACKED_MIN_BYTES + 9); // sparse: no need to write ~100 MB
    const mapped = await readSourceFile(big);
    expect(fileBackingOf(mapped)?.path).toBe(path.resolve(big));
    expect(fileBackingOf(mapped)?.size).toBe(FILE_BACKED_MIN_BYTES + 9);
    expect(mapped).not.toBeInstanceOf(Uint8Array); // a SourceFile: its first bytes only
    expect(Buffer.from(headBytes(mapped).subarray(0, 8)).toString()).toBe("%PDF-1.4");
    expect(headBytes(mapped).byteLength).toBe(HEAD_BYTES);
    expect(mapped.byteLength).toBe(FILE_BACKED_MIN_BYTES + 9);
    const whole = wholeBytes(mapped); // opened for one reader: the whole content
    expect(whole.byteLength).toBe(FILE_BACKED_MIN_BYTES + 9);
    expect(Buffer.from(whole.subarray(0, 8)).toString()).toBe("%PDF-1.4");
    const text = path.join(scratch, "big.txt");
    writeFileSync(text, "AAAA");
    truncateSync(text, FILE_BACKED_MIN_BYTES);
    expect(fileBackingOf(await readSourceFile(text))).toBeUndefined();
    expect(fileBackingOf(await readSourceFile(INVOICE))).toBeUndefined();
  });

  test("the bytes a run holds of its PDF stay under one bound however long the file: N and 2N pages' worth", async () => {
    // A joined file grows with its pages (~50 KB an invoice page when every copy keeps its fonts): the file's
    // bytes held in memory must not grow with them past a twentieth of the 600 MB goal (issue 34); Ghostscript's
    // 2,000 re-distilled pages (36 MiB) are read from the file.
    expect(FILE_BACKED_MIN_BYTES).toBeLessThanOrEqual(32 * 1024 * 1024);
    const heldOf = async (bytes: number) => {
      const file = path.join(scratch, `joined-${bytes}.pdf`);
      writeFileSync(file, "%PDF-1.4\n");
      truncateSync(file, bytes); // sparse
      const data = await readSourceFile(file);
      return fileBackingOf(data) ? 0 : data.byteLength;
    };
    const perPage = 50 * 1024;
    for (const pages of [500, 1000, 2000, 4000]) {
      const [n, twice] = [await heldOf(pages * perPage), await heldOf(2 * pages * perPage)];
      expect(n).toBeLessThan(FILE_BACKED_MIN_BYTES);
      expect(twice).toBeLessThan(FILE_BACKED_MIN_BYTES);
    }
    expect(await heldOf(500 * perPage)).toBe(500 * perPage); // below the bound a file is held
    expect(await heldOf(1000 * perPage)).toBe(0); // 1,000 such pages (~49 MiB) are read from the file
    expect(await heldOf(36 * 1024 * 1024)).toBe(0);
  });

  test("every PDF of the robustness corpus reads the same from its file as from its bytes", async () => {
    const files = pdfsUnder(ROBUST);
    expect(files.length).toBeGreaterThan(40);
    let mappedCount = 0;
    for (const file of files) {
      const password = /password-is-test/.test(file) ? "test" : undefined;
      const fromFile = await readSourceFile(file, { fileBackedMin: 1 });
      if (fileBackingOf(fromFile)) mappedCount++;
      const expected = await readOut(new Uint8Array(await Bun.file(file).bytes()), password, 4);
      expect({ file, pages: await readOut(fromFile, password, 4) }).toEqual({ file, pages: expected });
    }
    expect(mappedCount).toBeGreaterThan(40); // nearly all start with %PDF- and were read from the file
  });

  test("a long joined file: the same words on every page, nothing copied, one open file per document", async () => {
    const bytes = await Bun.file(INVOICE).bytes();
    const joined = await PDFDocument.create();
    for (let i = 0; i < 60; i++) {
      const [page] = await joined.copyPages(await PDFDocument.load(bytes), [0]);
      joined.addPage(page!);
    }
    const data = await joined.save({ useObjectStreams: true });
    const file = path.join(scratch, "joined.pdf");
    writeFileSync(file, data);
    const mapped = await readSourceFile(file, { fileBackedMin: 1 });
    expect(fileBackingOf(mapped)).toBeDefined();
    const before = bytesCopiedForWorkers();
    const primary = new PdfWorkerClient(mapped, undefined, 60_000, undefined, { share: false });
    const helper = new PdfWorkerClient(primary.bytes(), undefined, 60_000, undefined, { share: false });
    const inMemory = new PdfWorkerClient(new Uint8Array(data), undefined, 60_000, undefined, { share: false });
    try {
      expect((await primary.open()).numPages).toBe(60);
      expect((await helper.open()).numPages).toBe(60);
      await inMemory.open();
      for (const n of [1, 2, 30, 59, 60]) {
        const expected = await inMemory.request<PageResult>({ ...PAGE, pageNumber: n }, 60_000, `page ${n}`);
        for (const client of [primary, helper])
          expect(await client.request<PageResult>({ ...PAGE, pageNumber: n }, 60_000, `page ${n}`)).toEqual(expected);
      }
      // Let go and opened again (a render after OCR does that): the old file closed, the new one open.
      await primary.suspend();
      const stats = await primary.request<WorkerStats>({ op: "stats" }, 10_000, "stats");
      expect(stats.fileSources).toBe(1);
      // The bytes held in memory are copied once for their worker (pdf-bytes.ts); the mapped file not at all.
      expect(bytesCopiedForWorkers() - before).toBe(data.byteLength);
    } finally {
      await Promise.all([primary.close(), helper.close(), inMemory.close()]);
    }
  });

  test("a worker terminated mid-request (a timeout) leaves no descriptor of the file open", async () => {
    const file = path.join(scratch, "timed-out.pdf");
    writeFileSync(file, await Bun.file(INVOICE).bytes());
    const openOnFile = () =>
      readdirSync("/proc/self/fd").filter((fd) => {
        try {
          return readlinkSync(`/proc/self/fd/${fd}`) === file;
        } catch {
          return false; // closed between listing and reading
        }
      }).length;
    const client = new PdfWorkerClient(await readSourceFile(file, { fileBackedMin: 1 }), undefined, 60_000, undefined, {
      share: false,
    });
    try {
      await client.open();
      expect(openOnFile()).toBe(1);
      // 1 ms: pdf.js cannot answer in time, so the host terminates the worker while the document is open in it.
      const failed = await client
        .request({ ...PAGE, pageNumber: 1 }, 1, "page 1")
        .catch((e: Error & { code?: string }) => e);
      expect((failed as { code?: string }).code).toBe("timeout");
      await waitFor("the timed-out worker's file closed", () => openOnFile() === 0, { timeoutMs: 10_000, everyMs: 20 });
    } finally {
      await client.close();
    }
  });

  test("a file changed since it was read is refused, not read as something else; its hash is its content's", async () => {
    const file = path.join(scratch, "changed.pdf");
    const bytes = await Bun.file(INVOICE).bytes();
    writeFileSync(file, bytes);
    const mapped = await readSourceFile(file, { fileBackedMin: 1 });
    const expected = createHash("sha256").update(bytes).digest("hex");
    expect(contentSha256(mapped)).toBe(expected); // read from the file
    utimesSync(file, new Date(2001, 1, 1), new Date(2001, 1, 1));
    expect(contentSha256(mapped)).toBe(expected); // the same content, touched
    expect(() => wholeBytes(mapped)).toThrow(/changed while it was being read/); // an export, a repair
    const client = new PdfWorkerClient(mapped, undefined, 60_000, undefined, { share: false });
    try {
      await expect(client.open()).rejects.toThrow(/changed while it was being read/);
    } finally {
      await client.close();
    }
  });
});
