/**
 * The visual e-invoice corpora of the accuracy gate (corpora.ts lists them): the XRechnung test suite's invoices
 * drawn as PDFs without their XML (fixtures/einvoice-visual), a letterhead business invoice and an XRechnung
 * visualisation, each as text PDFs and as 200-DPI scans; the truth is the XML's.
 */
import { symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { type Family, visualInvoices, visualPdf } from "../../fixtures/einvoice-visual";
import type { Corpus } from "./corpora";
import { scanOf, skewOf } from "./scans";

const writeJson = (file: string, v: unknown) => writeFileSync(file, JSON.stringify(v, null, 2) + "\n");

function einvoiceVisual(family: Family, scan: boolean): Corpus {
  const what = family === "letterhead" ? "letterhead business invoices" : "XRechnung visualisations";
  return {
    id: `einvoice-visual/${family}-${scan ? "scan-200" : "text"}`,
    about: scan
      ? `the ${family} PDFs as 200-DPI greyscale scans, skew ±1.5°, JPEG q60`
      : `21 XRechnung test-suite invoices (CII and UBL, ${family === "letterhead" ? "de/en/fr" : "de/en"}) drawn as ${what}, truth from the XML`,
    async build(dir) {
      for (const doc of visualInvoices(family)) {
        const name = `${family}-${doc.id}.pdf`;
        const pdf = await visualPdf(doc);
        const file = scan
          ? await scanOf(pdf, name, { dpi: 200, angle: skewOf(name), quality: 60 })
          : path.join(dir, name);
        if (scan) symlinkSync(file, path.join(dir, name));
        else writeFileSync(file, pdf);
        writeJson(path.join(dir, name.replace(/\.pdf$/, ".json")), { class_id: "invoice", fields: doc.truth });
      }
    },
  };
}

export const einvoiceVisualCorpora: Corpus[] = (["letterhead", "viewer"] as const).flatMap((f) => [
  einvoiceVisual(f, false),
  einvoiceVisual(f, true),
]);
