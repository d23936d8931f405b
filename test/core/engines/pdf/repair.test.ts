/**
 * Damaged PDFs pdf.js refuses are converted from their rebuilt xref and page tree (core/engines/pdf/pdf-repair.ts): the
 * hostile corpus's unreadablemetadata.pdf (its page tree and a page lie in a zero-filled hole; poppler counts 4
 * pages), a file whose page tree was wiped, and hostile object numbers and page counts that must cost nothing.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DocprocError } from "../../../../src/core/errors.ts";
import { repairPdf } from "../../../../src/core/engines/pdf/pdf-repair.ts";
import { fileBackingOf, readSourceFile, sourceFileOpens } from "../../../../src/core/engines/pdf/pdf-bytes.ts";
import type { SourceData } from "../../../../src/core/source-data.ts";
import { convertSource } from "../../../../src/core/stages/convert/index.ts";
import { classicPdf } from "../../../support/hostile.ts";

const UNREADABLE = path.resolve(
  import.meta.dir,
  "../../../../fixtures/corpora/pdf-robustness/py-pdf-sample-files/017-unreadable-meta-data/unreadablemetadata.pdf",
);
setDefaultTimeout(60_000); // rendering a 300 dpi page takes seconds on a loaded machine
const latin1 = (s: string) => new Uint8Array(Buffer.from(s, "latin1"));

async function convert(data: SourceData, filename = "damaged.pdf") {
  return convertSource({ index: 0, filename, data, split_policy: "inherit" }, { firstPageNumber: 1, maxPages: null });
}

/** Three text pages; object 2 is the page tree. */
function threePages(): Uint8Array {
  const page = (content: number) =>
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents ${content} 0 R /Resources << /Font << /F1 3 0 R >> >> >>`;
  const text = (words: string) => {
    const ops = `BT /F1 24 Tf 72 700 Td (${words}) Tj ET`;
    return `<< /Length ${ops.length} >>\nstream\n${ops}\nendstream`;
  };
  return classicPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [4 0 R 6 0 R 8 0 R] /Count 3 >>",
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    page(5),
    text("Alpha invoice number one hundred"),
    page(7),
    text("Bravo delivery note two hundred"),
    page(9),
    text("Charlie credit note three hundred"),
  ]);
}

/** Overwrites object `num`'s bytes with NULs, as an interrupted copy leaves them. */
function wipe(data: Uint8Array, num: number): Uint8Array {
  const text = Buffer.from(data).toString("latin1");
  const start = text.indexOf(`\n${num} 0 obj`) + 1;
  const end = text.indexOf("endobj", start) + "endobj".length;
  const out = data.slice();
  out.fill(0, start, end);
  return out;
}

describe("damaged PDFs", () => {
  test("unreadablemetadata.pdf converts with its 4 pages: the text of page 1, pages 2-3 for OCR, page 4 blank", async () => {
    const data = new Uint8Array(await Bun.file(UNREADABLE).arrayBuffer());
    const result = await convert(data, "unreadablemetadata.pdf");
    try {
      expect(result.page_count).toBe(4);
      expect(result.pages.map((p) => p.source_file_page_number)).toEqual([1, 2, 3, 4]);
      const first = result.pages[0]!;
      expect(first.text_source).toBe("text_layer");
      expect(first.text).toContain("Rotary Potentiometer");
      expect(first.text).toContain("Electrocomponents");
      expect(first.image_transform.source_width).toBeCloseTo(596.276, 2);
      // Their fonts' Unicode maps were in the hole: the text layer is judged unusable, so OCR reads them.
      expect(result.pages.slice(1, 3).map((p) => p.text_source)).toEqual(["none", "none"]);
      expect(result.pages[3]!.words).toHaveLength(0);
      expect(result.warnings[0]).toContain(
        "rebuilt from the 3 page object(s) found; 1 page(s) the file declares are missing and left blank",
      );
      // The rebuilt document also renders (the OCR and image exports go through it).
      const raster = await first.render!();
      expect(raster.data.some((v) => v < 128)).toBe(true);
    } finally {
      await result.close();
    }
  });

  test("a file whose page tree was wiped keeps its pages, in file order, with their text", async () => {
    const intact = threePages();
    const damaged = wipe(intact, 2);
    expect(damaged.length).toBe(intact.length);
    const result = await convert(damaged);
    try {
      expect(result.page_count).toBe(3);
      expect(result.pages.map((p) => p.text.split(" ")[0])).toEqual(["Alpha", "Bravo", "Charlie"]);
      expect(result.warnings[0]).toContain("the file is damaged");
    } finally {
      await result.close();
    }
    // Left in its file (a large PDF, pdf-bytes.ts): its workers read the file, the repair opens it for itself.
    const dir = mkdtempSync(path.join(tmpdir(), "docproc-repair-"));
    try {
      writeFileSync(path.join(dir, "damaged.pdf"), damaged);
      const inFile = await readSourceFile(path.join(dir, "damaged.pdf"), { fileBackedMin: 1 });
      expect(fileBackingOf(inFile)).toBeDefined();
      const opens = sourceFileOpens();
      const fromFile = await convert(inFile);
      expect(sourceFileOpens() - opens).toBe(1);
      expect(fromFile.pages.map((p) => p.text.split(" ")[0])).toEqual(["Alpha", "Bravo", "Charlie"]);
      await fromFile.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("an intact file is not touched by the repair, and one that lost its page tree and every page still fails as corrupt_file", async () => {
    const result = await convert(threePages());
    expect(result.warnings.join(" ")).not.toContain("damaged");
    await result.close();
    const noPages = [2, 4, 6, 8].reduce(wipe, threePages());
    expect(repairPdf(noPages)).toBeNull();
    const err = await convert(noPages).catch((e) => e);
    expect(err).toBeInstanceOf(DocprocError);
    expect((err as DocprocError).code).toBe("corrupt_file");
  });

  test("hostile numbers cost nothing: object 999999999 and a linearization dictionary claiming 99,999,999 pages", () => {
    const body = [
      "%PDF-1.5\n1 0 obj\n<< /Linearized 1 /N 99999999 /L 1 >>\nendobj\n",
      "999999999 0 obj\n<< /Type /Page /MediaBox [0 0 612 792] >>\nendobj\n",
      "7 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n", // a page tree is not a page
      "trailer\n<< /Root 5 0 R >>\n%%EOF\n",
    ].join("");
    const repaired = repairPdf(latin1(body))!;
    expect(repaired).toMatchObject({ found: 1, padded: 0 });
    // Two xref subsections of the objects found, not a billion rows.
    expect(repaired.data.length - body.length).toBeLessThan(1000);
    const tail = Buffer.from(repaired.data).toString("latin1").slice(body.length);
    expect(tail).toContain("999999999 3\n");
    expect(tail).toContain("/Kids[999999999 0 R]/Count 1");
  });
});
