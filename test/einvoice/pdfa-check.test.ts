/**
 * The PDF/A-3b structure check of Factur-X output (no veraPDF here): a plain PDF fails every check that concerns
 * PDF/A and Factur-X; made Factur-X, it passes them all — its non-embedded Helvetica gets Liberation Sans embedded,
 * every word keeping its place. The facturx profile's output from a born-digital invoice passes every check; a source
 * whose font docproc cannot embed (Times) is still written (its e-invoice is valid), with a manifest warning naming it.
 */
import { describe, expect, test } from "bun:test";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { runExports } from "../../src/core/exporters";
import { checkPdfA3b } from "../../src/core/einvoice/pdfa-check";
import { makeFacturX } from "../../src/core/einvoice/facturx-pdf";
import { sansStyle } from "../../src/core/einvoice/pdfa-font-embed";
import { pipeline } from "./pipeline";
import { wholeBytes } from "../../src/core/source-data";

const CORPUS = path.join(import.meta.dir, "../../fixtures/corpora/invoice2data");
const DEFAULTS = { "BT-55": "NL", "BT-20": "Payable within 14 days" };
const failing = async (pdf: Uint8Array) => (await checkPdfA3b(pdf)).filter((c) => !c.ok).map((c) => c.id);

async function helveticaPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  // Standard fonts: referenced by name, never embedded.
  const fonts = [StandardFonts.Helvetica, StandardFonts.HelveticaBold, StandardFonts.HelveticaOblique];
  for (const [i, name] of fonts.entries()) {
    const font = await pdf.embedFont(name);
    page.drawText(`Invoice 2024-0${i + 1}: Total 1,234.50 € — Müller & Söhne “quoted”`, {
      x: 50,
      y: 780 - 20 * i,
      size: 12,
      font,
    });
  }
  return pdf.save();
}

/** pdftotext's word boxes (text and x positions) of a PDF. */
function words(pdf: Uint8Array): string[] {
  const dir = mkdtempSync(path.join(tmpdir(), "docproc-words-"));
  try {
    writeFileSync(path.join(dir, "a.pdf"), pdf);
    const r = Bun.spawnSync(["pdftotext", "-bbox", path.join(dir, "a.pdf"), "-"], { stdout: "pipe" });
    return [...r.stdout.toString().matchAll(/<word xMin="([\d.]+)" yMin="[\d.]+" xMax="([\d.]+)"[^>]*>([^<]*)</g)].map(
      (m) => `${m[3]} ${Number(m[1]).toFixed(1)}-${Number(m[2]).toFixed(1)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("PDF/A-3b structure", () => {
  test("a plain PDF fails each PDF/A and Factur-X check; made Factur-X it passes all, its Helvetica embedded in place", async () => {
    const plain = await helveticaPdf();
    expect(await failing(plain)).toEqual([
      "file-id",
      "xmp",
      "xmp-pdfaid",
      "xmp-facturx",
      "info-equals-xmp",
      "output-intent",
      "af",
      "af-relationship",
      "embedded-file",
      "fonts-embedded",
    ]);
    const fx = await makeFacturX(plain, "<rsm:CrossIndustryInvoice/>", { title: "Invoice 1", now: new Date(0) });
    const checks = await checkPdfA3b(fx);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.length).toBe(14);
    // Liberation Sans has Helvetica's metrics: every word is where it was, with the same text.
    const before = words(plain);
    expect(before.length).toBeGreaterThan(20);
    expect(words(fx)).toEqual(before);
  });

  test("facturx output from a born-digital invoice passes every check; one with a Times line is written with a warning", async () => {
    const { ctx, sink } = await pipeline(path.join(CORPUS, "coolblue1.pdf"));
    const manifest = await runExports(ctx, [
      { id: "fx", name: "Factur-X", output_format: "facturx", options: { defaults: DEFAULTS } },
    ]);
    expect(manifest.profiles.fx).toMatchObject({ status: "success" });
    const written = [...sink.files.values()][0]!;
    expect(await failing(written)).toEqual([]);

    // The same invoice's pages with a line in a standard font docproc cannot embed (no serif font ships with it).
    const dir = mkdtempSync(path.join(tmpdir(), "docproc-pdfa-"));
    try {
      const source = await PDFDocument.load(wholeBytes(ctx.sources[0]!.data));
      const font = await source.embedFont(StandardFonts.TimesRoman);
      source.getPage(0).drawText("Thank you", { x: 40, y: 20, size: 8, font });
      const file = path.join(dir, "coolblue-times.pdf");
      writeFileSync(file, await source.save());
      const second = await pipeline(file);
      const m = await runExports(second.ctx, [
        { id: "fx", name: "Factur-X", output_format: "facturx", options: { defaults: DEFAULTS } },
      ]);
      expect(m.profiles.fx!.status).toBe("partial");
      expect(m.profiles.fx!.warnings!.join("\n")).toMatch(
        /its Factur-X PDF is not PDF\/A-3b conformant: fonts not embedded: Times-Roman/,
      );
      expect(second.sink.files.size).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  test("which standard fonts get Liberation Sans: Helvetica and Arial in their four styles, no other cut or family", () => {
    expect(
      ["Helvetica", "/Helvetica-BoldOblique", "ArialMT", "Arial,Bold", "Arial-ItalicMT", "Arial-BoldItalicMT"].map(
        sansStyle,
      ),
    ).toEqual(["regular", "boldItalic", "regular", "bold", "italic", "boldItalic"]);
    for (const other of [
      "Helvetica-Narrow",
      "Arial-Black",
      "HelveticaNeue-Light",
      "Times-Roman",
      "Courier",
      "Arial Unicode MS",
    ])
      expect(sansStyle(other)).toBeUndefined();
  });
});
