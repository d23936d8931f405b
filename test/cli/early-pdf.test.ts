/** The pdf.js head start of `docproc process` (src/cli/early-pdf.ts): which arguments count as naming a PDF. */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { firstPdfToRead, HEAD_START_MAX_BYTES, namesPdf, singlePdfFile } from "../../src/cli/early-pdf";
import { FILE_BACKED_MIN_BYTES } from "../../src/core/engines/pdf/pdf-bytes";

const dir = mkdtempSync(path.join(tmpdir(), "docproc-early-pdf-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a PDF file, or a folder with a PDF directly in it, names a PDF; images, flags and missing paths do not", () => {
  const pdfs = path.join(dir, "pdfs");
  const scans = path.join(dir, "scans");
  const nested = path.join(dir, "nested");
  mkdirSync(pdfs);
  mkdirSync(scans);
  mkdirSync(path.join(nested, "inner"), { recursive: true });
  mkdirSync(path.join(scans, "folder.pdf")); // a folder named like a PDF is none
  writeFileSync(path.join(pdfs, "Invoice.PDF"), "%PDF-1.7");
  writeFileSync(path.join(scans, "page.png"), "png");
  writeFileSync(path.join(nested, "inner", "deep.pdf"), "%PDF-1.7");
  expect(namesPdf(path.join(pdfs, "Invoice.PDF"))).toBe(true);
  expect(namesPdf(pdfs)).toBe(true);
  expect(namesPdf(scans)).toBe(false);
  expect(namesPdf(path.join(scans, "page.png"))).toBe(false);
  expect(namesPdf(nested)).toBe(false); // only the folder itself is looked at: the head start must stay cheap
  expect(namesPdf("--json")).toBe(false);
  expect(namesPdf(path.join(dir, "missing.pdf"))).toBe(false);
});

test("the worker reads ahead in a file only when the arguments name exactly one PDF file and no folder with PDFs", () => {
  const one = path.join(dir, "single");
  mkdirSync(one);
  const file = path.join(one, "a.pdf");
  const other = path.join(one, "b.pdf");
  const empty = path.join(dir, "empty.pdf");
  writeFileSync(file, "%PDF-1.7");
  writeFileSync(other, "%PDF-1.7");
  writeFileSync(empty, "");
  const out = path.join(dir, "out");
  mkdirSync(out);
  expect(singlePdfFile([file, "--out", out, "--json"])).toBe(file);
  expect(singlePdfFile([file, other])).toBeNull(); // which one the run opens first is the batch's business
  expect(singlePdfFile([one])).toBeNull(); // a folder: as many files as it holds
  expect(singlePdfFile([file, one])).toBeNull();
  expect(singlePdfFile([empty])).toBeNull();
  expect(singlePdfFile(["--json"])).toBeNull();
  // A file the run maps instead of reading (pdf-bytes.ts) is left to it: the head start would hold copies of it.
  const large = path.join(dir, "large.pdf");
  writeFileSync(large, "%PDF-1.7");
  truncateSync(large, HEAD_START_MAX_BYTES);
  expect(singlePdfFile([large])).toBe(large);
  truncateSync(large, HEAD_START_MAX_BYTES + 1);
  expect(singlePdfFile([large])).toBeNull();
  expect(HEAD_START_MAX_BYTES).toBeLessThanOrEqual(FILE_BACKED_MIN_BYTES);
});

test("the head start guesses the first PDF the run reads: the one file named, else the first PDF of the folder's walk", () => {
  const inbox = path.join(dir, "inbox");
  mkdirSync(inbox);
  writeFileSync(path.join(inbox, "c.pdf"), "%PDF-1.7 c");
  writeFileSync(path.join(inbox, "b.pdf"), "%PDF-1.7 b");
  writeFileSync(path.join(inbox, "a.png"), "png");
  writeFileSync(path.join(inbox, ".hidden.pdf"), "%PDF-1.7 hidden"); // the run skips dot-names
  expect(firstPdfToRead([inbox, "--json"])).toBe(path.join(inbox, "b.pdf"));
  expect(firstPdfToRead([path.join(inbox, "c.pdf"), "--json"])).toBe(path.join(inbox, "c.pdf"));
  // A subfolder sorting first is walked first: no guess.
  const nested = path.join(dir, "nested-first");
  mkdirSync(path.join(nested, "0-sub"), { recursive: true });
  writeFileSync(path.join(nested, "z.pdf"), "%PDF-1.7 z");
  expect(firstPdfToRead([nested])).toBeNull();
  expect(firstPdfToRead(["--json"])).toBeNull();
  expect(firstPdfToRead([path.join(dir, "missing")])).toBeNull();
});
