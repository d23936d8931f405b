/**
 * The PDF/A-3b structure check of Factur-X output (no veraPDF here): a plain PDF fails every check that concerns
 * PDF/A and Factur-X; the facturx profile's output from a born-digital invoice with embedded fonts, a scan and an
 * image passes them all; a source PDF whose fonts are not embedded is still written (its e-invoice is valid), with a
 * manifest warning naming the fonts.
 */
import { describe, expect, test } from "bun:test";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { writeFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { runExports } from "../../src/core/exporters";
import { checkPdfA3b } from "../../src/core/einvoice/pdfa-check";
import { makeFacturX } from "../../src/core/einvoice/facturx-pdf";
import { pipeline } from "./pipeline";

const CORPUS = path.join(import.meta.dir, "../../fixtures/corpora/invoice2data");
const DEFAULTS = { "BT-55": "NL", "BT-20": "Payable within 14 days" };
const failing = async (pdf: Uint8Array) => (await checkPdfA3b(pdf)).filter((c) => !c.ok).map((c) => c.id);

async function helveticaPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica); // a standard font: referenced, never embedded
  pdf.addPage([595, 842]).drawText("Invoice 1", { x: 50, y: 780, size: 12, font });
  return pdf.save();
}

describe("PDF/A-3b structure", () => {
  test("a plain PDF with a non-embedded font fails each PDF/A and Factur-X check; made Factur-X, only the font remains", async () => {
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
    expect(checks.filter((c) => !c.ok)).toEqual([
      { id: "fonts-embedded", ok: false, detail: "fonts not embedded: Helvetica" },
    ]);
    expect(checks.length).toBe(14);
  });

  test("facturx output from a born-digital invoice with embedded fonts passes every check; one without is written with a warning", async () => {
    const { ctx, sink } = await pipeline(path.join(CORPUS, "coolblue1.pdf"));
    const manifest = await runExports(ctx, [
      { id: "fx", name: "Factur-X", output_format: "facturx", options: { defaults: DEFAULTS } },
    ]);
    expect(manifest.profiles.fx).toMatchObject({ status: "success" });
    const written = [...sink.files.values()][0]!;
    expect(await failing(written)).toEqual([]);

    // The same invoice's pages, re-made with a standard font that is not embedded (as many generators do).
    const dir = mkdtempSync(path.join(tmpdir(), "docproc-pdfa-"));
    try {
      const source = await PDFDocument.load(ctx.sources[0]!.data);
      const font = await source.embedFont(StandardFonts.Helvetica);
      source.getPage(0).drawText("Thank you", { x: 40, y: 20, size: 8, font });
      const file = path.join(dir, "coolblue-helvetica.pdf");
      writeFileSync(file, await source.save());
      const second = await pipeline(file);
      const m = await runExports(second.ctx, [
        { id: "fx", name: "Factur-X", output_format: "facturx", options: { defaults: DEFAULTS } },
      ]);
      expect(m.profiles.fx!.status).toBe("partial");
      expect(m.profiles.fx!.warnings!.join("\n")).toMatch(
        /its Factur-X PDF is not PDF\/A-3b conformant: fonts not embedded: Helvetica/,
      );
      expect(second.sink.files.size).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
