/** pdf.js host workers: prewarming hands its worker to the first PDF; the speed patches leave pdf.js output as is. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import path from "node:path";
import {
  closeIdlePdfWorkers,
  prewarmPdfWorkers,
  spareWorkerCount,
} from "../../../../src/core/engines/pdf/pdf-client.ts";
import type { Page } from "../../../../src/core/model.ts";
import { convertSource, renderPageToRaster } from "../../../../src/core/stages/convert/index.ts";
import { waitFor } from "../../../support/wait";

setDefaultTimeout(60_000);

const CORPORA = path.resolve(import.meta.dir, "../../../../fixtures/corpora");
const INVOICE = path.resolve(import.meta.dir, "../../../../fixtures/inbox/born-digital-invoice.pdf");

/** Counts `new Worker(...)` calls made while `fn` runs. */
async function countingWorkers<T>(fn: () => Promise<T>): Promise<{ result: T; started: number }> {
  const Original = globalThis.Worker;
  let started = 0;
  globalThis.Worker = new Proxy(Original, {
    construct(target, args) {
      started++;
      return Reflect.construct(target, args);
    },
  });
  try {
    return { result: await fn(), started };
  } finally {
    globalThis.Worker = Original;
  }
}

describe("pdf.js workers", () => {
  test("a PDF that arrives while a worker is warming up takes that worker instead of starting a second one", async () => {
    const data = new Uint8Array(await Bun.file(INVOICE).arrayBuffer());
    closeIdlePdfWorkers(); // workers left idle by earlier tests would serve the PDF instead
    expect(spareWorkerCount()).toBe(0);
    const { result, started } = await countingWorkers(async () => {
      const warming = prewarmPdfWorkers(1);
      const converted = await convertSource(
        { index: 0, filename: "invoice.pdf", data, split_policy: "inherit" },
        { firstPageNumber: 1, maxPages: null },
      );
      await converted.close();
      await warming; // settles once its worker was handed over
      return converted;
    });
    expect(started).toBe(1);
    expect(spareWorkerCount()).toBe(1); // back in the pool after close()
    expect(result.pages[0]!.text_source).toBe("text_layer");
    expect(result.pages[0]!.words.length).toBeGreaterThan(20);
  });
});

describe("a helper worker for a long PDF read with a page consumer", () => {
  /** Converts a generated 60-page PDF with two workers available; how many opened the document, and the pages. */
  async function convertWithConsumer(onPage?: (page: Page) => void) {
    const { generatePdf } = await import("../../../../bench/convert.ts");
    closeIdlePdfWorkers();
    await prewarmPdfWorkers(2);
    const data = await generatePdf(60, 7);
    const opens: number[] = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, msg: { op?: string }, ...rest: unknown[]) {
      if (msg?.op === "open") opens.push(1);
      return (post as (...a: unknown[]) => void).call(this, msg, ...rest);
    } as typeof post;
    try {
      const converted = await convertSource(
        { index: 0, filename: "long.pdf", data, split_policy: "inherit" },
        { firstPageNumber: 1, maxPages: null, onPage },
      );
      await converted.close();
      return { opens: opens.length, pages: converted.pages };
    } finally {
      Worker.prototype.postMessage = post;
      closeIdlePdfWorkers();
    }
  }

  test("joins when the converting thread only waits for pdf.js, and the pages come out the same", async () => {
    const seen: number[] = [];
    const alone = await convertWithConsumer();
    const consumed = await convertWithConsumer((page) => seen.push(page.source_file_page_number));
    // A consumer that takes no time leaves the thread waiting for pdf.js: the spare worker helps, as without one.
    expect(alone.opens).toBe(2);
    expect(consumed.opens).toBe(2);
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const textOf = (pages: typeof alone.pages) =>
      pages.map((p) => [p.source_file_page_number, p.text, JSON.stringify(p.words)]);
    expect(textOf(consumed.pages)).toEqual(textOf(alone.pages));
  });
});

describe("pdf.js workers of a long-running process", () => {
  test("the queue's pipeline runner keeps two warm workers, and a long PDF is shared between both", async () => {
    const { corePipelineRunner } = await import("../../../../src/queue/pipeline-runner.ts");
    const { generatePdf } = await import("../../../../bench/convert.ts");
    closeIdlePdfWorkers();
    const runner = corePipelineRunner({ engine: "wasm" });
    try {
      runner.warm();
      await waitFor("two warm workers", () => spareWorkerCount() >= 2, { timeoutMs: 5_000, everyMs: 50 }).catch(
        () => {},
      );
      expect(spareWorkerCount()).toBe(2);
      const data = await generatePdf(60, 7);
      // The second worker opens its own copy of the document: count "open" requests (two: primary + helper).
      const opens: number[] = [];
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (this: Worker, msg: { op?: string }, ...rest: unknown[]) {
        if (msg?.op === "open") opens.push(1);
        return (post as (...a: unknown[]) => void).call(this, msg, ...rest);
      } as typeof post;
      let converted;
      try {
        converted = await convertSource(
          { index: 0, filename: "long.pdf", data, split_policy: "inherit" },
          { firstPageNumber: 1, maxPages: null },
        );
      } finally {
        Worker.prototype.postMessage = post;
      }
      await converted.close();
      expect(opens.length).toBe(2);
      expect(converted.pages.map((p) => p.source_file_page_number)).toEqual(
        Array.from({ length: 60 }, (_, i) => i + 1),
      );
      expect(converted.pages.every((p) => p.text_source === "text_layer" && p.words.length > 100)).toBe(true);
    } finally {
      await runner.close();
    }
    expect(spareWorkerCount()).toBe(0); // close() lets the idle workers go
  });
});

describe("patched pdf.js module file", () => {
  test("writing a new version removes other versions' files and old half-written ones, not fresh partials", async () => {
    const { loadPdfjsWorkerModule, privateDir } = await import(
      "../../../../src/core/engines/pdf/pdfjs-patched-worker.ts"
    );
    const fs = await import("node:fs");
    const dir = privateDir();
    // Without a bytecode copy (pdfjs-bytecode.ts) a start goes through the patched file, and writes it when missing.
    const dropBytecode = () => {
      for (const name of fs.readdirSync(dir))
        if (/\.cjs(\.jsc|\.sha256)?$/.test(name)) fs.rmSync(path.join(dir, name), { force: true });
    };
    dropBytecode();
    await loadPdfjsWorkerModule();
    const current = fs.readdirSync(dir).filter((n) => /^pdf\.worker\.[0-9a-f]{16}\.mjs$/.test(n));
    expect(current.length).toBeGreaterThan(0);
    // Another version's file, a crashed writer's partial from an hour ago, and one being written right now.
    const stale = path.join(dir, "pdf.worker.0123456789abcdef.mjs");
    const oldPartial = path.join(dir, "pdf.worker.0123456789abcdef.mjs.1.x.tmp");
    const freshPartial = path.join(dir, "pdf.worker.fedcba9876543210.mjs.2.y.tmp");
    for (const f of [stale, oldPartial, freshPartial]) fs.writeFileSync(f, "export {};");
    const hourAgo = new Date(Date.now() - 3600_000);
    fs.utimesSync(oldPartial, hourAgo, hourAgo);
    // As after an upgrade: this version's file is new, and so is its bytecode copy.
    for (const name of current) fs.unlinkSync(path.join(dir, name));
    dropBytecode();
    const loaded = await loadPdfjsWorkerModule();
    expect(loaded.glyphOffsets).toBe(true);
    const after = fs.readdirSync(dir);
    expect(after.filter((n) => /^pdf\.worker\.[0-9a-f]{16}\.mjs$/.test(n)).length).toBe(1);
    expect(after).not.toContain(path.basename(stale));
    expect(after).not.toContain(path.basename(oldPartial));
    expect(after).toContain(path.basename(freshPartial));
    fs.unlinkSync(freshPartial);
  });
});

describe("pdf.js speed patches", () => {
  test("text content (items and styles) and operator lists are identical to stock pdf.js on every corpus and fixture PDF, fonts read for text only", async () => {
    const { readdirSync } = await import("node:fs");
    const pdfsUnder = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true, recursive: true })
        .filter((e) => e.isFile() && /\.pdf$/i.test(e.name))
        .map((e) => path.join(e.parentPath, e.name))
        .sort();
    const files = [...pdfsUnder(path.resolve(import.meta.dir, "../../../../fixtures")), ...pdfsUnder(CORPORA)];
    expect(files.length).toBeGreaterThan(100);
    const dump = async (mode: string) => {
      const args = [path.join(import.meta.dir, "pdfjs-text-dump.ts"), mode, ...files, "--pages", "5", "--ops"];
      const proc = Bun.spawn([process.execPath, ...args], { stdout: "pipe", stderr: "inherit" });
      const [text, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
      expect(code).toBe(0);
      return JSON.parse(text) as Array<{ path: string; content?: { items: Array<{ str: string }> } }>;
    };
    const [stock, speed] = await Promise.all([dump("stock"), dump("speed")]);
    const items = stock.reduce((n, p) => n + (p.content?.items.length ?? 0), 0);
    expect(items).toBeGreaterThan(2000); // the comparison covers real text, not empty pages
    expect(speed).toEqual(stock);
  }, 180_000); // two pdf.js processes over 100+ files: ~20 s idle, over a minute on a loaded machine

  test("a PDF joined from copies of files (each copy keeps its own fonts) reads as stock pdf.js does, the copies' fonts translated once", async () => {
    // What pdfunite, qpdf --pages and mail merges make: every copy of a file brings its own font objects.
    const { PDFDocument } = await import("pdf-lib");
    const { readdirSync, writeFileSync, mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const dir = path.join(CORPORA, "invoice2data");
    const sources = readdirSync(dir)
      .filter((f) => f.endsWith(".pdf"))
      .sort()
      .slice(0, 6);
    const joined = await PDFDocument.create();
    for (let round = 0; round < 3; round++) {
      for (const name of sources) {
        const src = await PDFDocument.load(await Bun.file(path.join(dir, name)).arrayBuffer(), {
          ignoreEncryption: true,
        });
        for (const page of await joined.copyPages(src, src.getPageIndices())) joined.addPage(page); // one copy per call
      }
    }
    const file = path.join(mkdtempSync(path.join(tmpdir(), "docproc-joined-")), "joined.pdf");
    writeFileSync(file, await joined.save());
    const dump = async (mode: string) => {
      const args = [
        path.join(import.meta.dir, "pdfjs-text-dump.ts"),
        mode,
        file,
        "--pages",
        "100",
        "--ops",
        "--count-shared",
      ];
      const proc = Bun.spawn([process.execPath, ...args], { stdout: "pipe", stderr: "inherit" });
      const [text, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
      expect(code).toBe(0);
      const out = JSON.parse(text) as Array<{ sharedFonts?: number; content?: { items: unknown[] } }>;
      return { pages: out.slice(0, -1), shared: out.at(-1)!.sharedFonts! };
    };
    const [stock, speed] = await Promise.all([dump("stock"), dump("speed")]);
    expect(stock.pages.length).toBe(joined.getPageCount());
    expect(stock.pages.reduce((n, p) => n + (p.content?.items.length ?? 0), 0)).toBeGreaterThan(500);
    expect(speed.pages).toEqual(stock.pages); // same items, same font names and styles, same operators
    expect(stock.shared).toBe(0);
    // Rounds two and three reuse every font of round one.
    expect(speed.shared).toBeGreaterThanOrEqual(2 * sources.length);
  }, 180_000);

  test("a document read for its text renders with its embedded fonts (opened again in full before the first render)", async () => {
    // The invoice's three embedded TrueType fonts are translated for text only while its text is read.
    const data = new Uint8Array(await Bun.file(INVOICE).arrayBuffer());
    const converted = await convertSource(
      { index: 0, filename: "invoice.pdf", data, split_policy: "inherit" },
      { firstPageNumber: 1, maxPages: null },
    );
    try {
      const page = converted.pages[0]!;
      const before = await renderPageToRaster(page, { grayscale: true }); // the document is still open for its text
      await converted.suspend!();
      const after = await renderPageToRaster(page, { grayscale: true }); // opened again after a suspend: full fonts
      expect(Bun.hash(before.data)).toBe(Bun.hash(after.data));
      // Ink inside the word boxes: glyphs were drawn, not left out.
      const inked = page.words.filter((w) => {
        const [x1, y1, x2, y2] = w.bounding_box.map(Math.round);
        let dark = 0;
        for (let y = y1; y < y2; y++)
          for (let x = x1; x < x2; x++) if (before.data[y * before.width + x]! < 128) dark++;
        return dark > 0;
      });
      expect(page.words.length).toBeGreaterThan(20);
      expect(inked.length).toBe(page.words.length);
    } finally {
      await converted.close();
    }
  });
});
