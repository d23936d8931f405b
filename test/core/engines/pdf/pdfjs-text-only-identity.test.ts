/**
 * TEXT_ONLY_IDENTITY (src/core/engines/pdf/pdfjs-font-patches.ts) skips, for a document read for its text, the walk over
 * the 65,536 codes of the Identity CMap of an embedded TrueType CID font. The corpus invoices with such fonts
 * (Type0, /Identity-H, CIDFontType2) give the same text content and operator lists with the speed patches as with
 * stock pdf.js (test/core/engines/pdf/pdfjs-text-dump.ts), all pages.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { PDFArray, PDFDict, PDFDocument, PDFName } from "pdf-lib";

const CORPUS = path.resolve(import.meta.dir, "../../../../fixtures/corpora/invoice2data");
const FILES = ["AzureInterior.pdf", "NetpresseInvoice.pdf", "SammyMaystoneLinesTest.pdf", "oyo.pdf"].map((f) =>
  path.join(CORPUS, f),
);

async function identityTrueTypeFonts(file: string): Promise<number> {
  const pdf = await PDFDocument.load(readFileSync(file), { updateMetadata: false, ignoreEncryption: true });
  let count = 0;
  for (const [, obj] of pdf.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict) || obj.get(PDFName.of("Subtype"))?.toString() !== "/Type0") continue;
    if (obj.get(PDFName.of("Encoding"))?.toString() !== "/Identity-H") continue;
    const descendants = pdf.context.lookup(obj.get(PDFName.of("DescendantFonts"))) as PDFArray;
    const cidFont = pdf.context.lookup(descendants.get(0)) as PDFDict;
    if (cidFont.get(PDFName.of("Subtype"))?.toString() === "/CIDFontType2") count++;
  }
  return count;
}

test("text and operator lists of documents with Identity-H TrueType CID fonts are the same with the speed patches", async () => {
  for (const file of FILES) expect(await identityTrueTypeFonts(file)).toBeGreaterThan(0);
  const dump = async (mode: string) => {
    const args = [path.join(import.meta.dir, "pdfjs-text-dump.ts"), mode, ...FILES, "--pages", "1000", "--ops"];
    const proc = Bun.spawn([process.execPath, ...args], { stdout: "pipe", stderr: "inherit" });
    const [text, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    return JSON.parse(text) as Array<{ content?: { items: Array<{ str?: string }> }; error?: string }>;
  };
  const [stock, speed] = await Promise.all([dump("stock"), dump("speed")]);
  expect(stock.every((page) => !page.error)).toBe(true);
  expect(stock.flatMap((page) => page.content?.items.map((i) => i.str ?? "") ?? []).join("").length).toBeGreaterThan(
    1000,
  );
  expect(speed).toEqual(stock);
}, 120_000);
