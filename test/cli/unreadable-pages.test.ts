/**
 * A page that cannot be read (a damaged or truncated PDF) makes the file `review`, never `success`: the table names
 * the page and the reason, and so does `--json` (`unreadable_pages`). Real damaged files of the pdf-robustness corpus
 * (pdf.js fuzzed files, a cyclic page tree) and a generated PDF cut short inside its last page's content stream.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { removeAll, tempDir } from "../support/temp";
import { REPO, runCli, type CliRun } from "./helpers";
import { convertSource } from "../../src/core/stages/convert";

const ROBUST = path.join(REPO, "fixtures/corpora/pdf-robustness");
const FUZZED = path.join(ROBUST, "pdfjs/poppler-937-0-fuzzed.pdf");
const CYCLIC = path.join(ROBUST, "pdfjs/Pages-tree-refs.pdf");
const temps: string[] = [];
afterAll(() => removeAll(temps));

/** Three pages of text, cut inside the last page's content stream ("Missing endstream"): pages 1-2 read, 3 not. */
async function truncatedPdf(): Promise<Uint8Array> {
  const { full, text } = await threePages();
  // Cut halfway through the last content stream.
  const lastStream = text.lastIndexOf(">>\nstream\n");
  const end = text.indexOf("endstream", lastStream);
  return full.subarray(0, Math.floor((lastStream + end) / 2));
}

async function threePages(): Promise<{ full: Uint8Array; text: string }> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= 3; p++) {
    const page = pdf.addPage([595, 842]);
    page.drawText(p === 1 ? "INVOICE" : `Page ${p}`, { x: 50, y: 800, size: 14, font });
    for (let i = 0; i < 20; i++)
      page.drawText(`Page ${p} line ${i}: Invoice number INV-${p}${i} total 12.50`, {
        x: 50,
        y: 770 - i * 24,
        size: 11,
        font,
      });
  }
  const full = await pdf.save({ useObjectStreams: false });
  return { full, text: new TextDecoder("latin1").decode(full) };
}

interface Outcome {
  file: string;
  status: string;
  unreadable_pages: Array<{ page: number; file_page: number; reason: string }>;
}

describe("unreadable pages", () => {
  let json: CliRun;
  let table: CliRun;
  let truncated: string;

  beforeAll(async () => {
    const dir = tempDir("unreadable", temps);
    truncated = path.join(dir, "truncated.pdf");
    writeFileSync(truncated, await truncatedPdf());
    [json, table] = await Promise.all([
      runCli(["process", FUZZED, CYCLIC, truncated, "--out", path.join(dir, "out-json"), "--json"], {
        timeoutMs: 120_000,
      }),
      runCli(["process", truncated, FUZZED, "--out", path.join(dir, "out-table")], { timeoutMs: 120_000 }),
    ]);
  }, 130_000);

  test("--json: each file is review with the page and the reason; the batch still succeeds (exit 0)", () => {
    expect(json.code).toBe(0);
    const files = (JSON.parse(json.stdout) as { files: Outcome[] }).files;
    const of = (f: string) => files.find((o) => o.file === f)!;
    expect(of(FUZZED).status).toBe("review");
    expect(of(FUZZED).unreadable_pages).toEqual([
      { page: 1, file_page: 1, reason: expect.stringContaining("End of file") },
    ]);
    expect(of(CYCLIC).status).toBe("review");
    expect(of(CYCLIC).unreadable_pages).toEqual([
      { page: 2, file_page: 2, reason: expect.stringContaining("circular reference") },
    ]);
    expect(of(truncated).status).toBe("review");
    expect(of(truncated).unreadable_pages.map((p) => p.page)).toEqual([3]);
    expect(of(truncated).unreadable_pages[0]!.reason).toContain("endstream");
  });

  test("the table says review and names the page and the reason", () => {
    expect(table.code).toBe(0);
    const rows = table.stdout.split("\n");
    expect(rows.find((r) => r.includes("poppler-937-0-fuzzed.pdf") && r.includes("unreadable"))).toMatch(/review\s*$/);
    expect(table.stdout).not.toMatch(/truncated\.pdf.*success/);
    expect(table.stdout).toContain("truncated.pdf: page 3 could not be read (Missing endstream command.)");
    expect(table.stdout).toContain("poppler-937-0-fuzzed.pdf: page 1 could not be read (End of file inside array.)");
  });
});

describe("a PDF cut short anywhere in its last page", () => {
  test("inside the page dictionary, between it and its content, inside the content: page 3 is unreadable, 1-2 read", async () => {
    const { full, text } = await threePages();
    const pageObjects = [...text.matchAll(/(\d+) 0 obj\n<<\n\/Type \/Page\n/g)];
    const lastPage = pageObjects[pageObjects.length - 1]!.index!;
    const dictEnd = text.indexOf("endobj", lastPage);
    const stream = text.indexOf(">>\nstream\n", dictEnd);
    const cuts = {
      "inside the page dictionary": lastPage + 40,
      "after the page, before its content": dictEnd + 8,
      "inside the content stream": stream + 40,
    };
    for (const [where, at] of Object.entries(cuts)) {
      const converted = await convertSource(
        { index: 0, filename: "cut.pdf", data: full.subarray(0, at), split_policy: "inherit" },
        { firstPageNumber: 1, maxPages: null },
      );
      try {
        const got = converted.pages.map((p) => [
          p.source_file_page_number,
          p.text.includes(`Page ${p.source_file_page_number} line 3`),
          p.unreadable !== undefined,
        ]);
        expect({ where, got }).toEqual({
          where,
          got: [
            [1, true, false],
            [2, true, false],
            [3, false, true],
          ],
        });
      } finally {
        await converted.close?.();
      }
    }
  }, 60_000);
});
