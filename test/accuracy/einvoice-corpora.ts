/**
 * The visual e-invoice corpora of the accuracy gate (corpora.ts lists them): the XRechnung test suite's invoices
 * drawn as PDFs without their XML (fixtures/einvoice-visual) in nine families (a letterhead business invoice, an
 * XRechnung visualisation, a SaaS-style invoice, a French-style facture, an ERP/accounting-software export, Polish /
 * Dutch / Spanish web-invoicing software, other countries' viewers: Italian FatturaPA stylesheets and Nordic Peppol
 * viewers, ZUGFeRD / Factur-X producers' prints: French, craftsman's, Austrian, Swiss QR-bill, small firms' office templates and online generators), each as text PDFs and
 * as 200-DPI scans; the truth is the XML's (the hybrid family's after re-homing sellers and making credit notes, whose
 * class the eval file gives). Several layouts, so that a mechanism tuned on one does not pass for a general one; the
 * ERP, web-invoicing, abroad, hybrid and office families were written and measured before any extraction change for them.
 */
import { symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { FAMILIES, type Family, visualInvoices, visualPdf } from "../../fixtures/einvoice-visual";
import type { Corpus } from "./corpora";
import { scanOf, skewOf } from "./scans";

const writeJson = (file: string, v: unknown) => writeFileSync(file, JSON.stringify(v, null, 2) + "\n");

const WHAT: Record<Family, string> = {
  letterhead: "letterhead business invoices",
  viewer: "XRechnung visualisations",
  saas: "SaaS-style invoices (From / Bill to columns, seller named in logo and footer only)",
  facture: "French-style factures (seller right, bill-to and ship-to, remittance slip)",
  erp: "ERP/accounting-software exports (DIN 5008 window with return line, boxed or side header, ruled positions, Übertrag, legal footer columns)",
  webapp:
    "Polish, Dutch and Spanish web-invoicing software (Faktura VAT Sprzedawca/Nabywca/NIP, nine-column table, Słownie; Factuur/KvK/BTW, Factura/NIF/IVA, IBAN payment sentence)",
  abroad:
    "other countries' e-invoice viewers (Italian FatturaPA stylesheets: Cedente/Cessionario boxes, riepilogo IVA; Nordic Peppol viewers: buyer first, seller right, Å betale / Att betala)",
  hybrid:
    "ZUGFeRD/Factur-X invoices as producers print them (French FACTURE/AVOIR with SIRET and Net à payer; a craftsman's Rechnung/Gutschrift with Leistungszeitraum, Skonto, Steuernummer and USt-IdNr.; Austrian UID ATU; Swiss QR-bill), sellers re-homed to FR/AT/CH",
  office:
    "small firms' office templates and online invoice generators (INVOICE / RECHNUNG in white on a coloured band, logo image, shaded Invoice To / Rechnungsempfänger boxes, side panel with PO Number and Terms, zebra rows, totals box ending in Total (GBP) / Balance Due / Zu zahlender Betrag, VAT Reg No. / ABN, sort code or BSB beside the IBAN), sellers and buyers re-homed to GB/IE/US/AU",
};
const LANGS: Record<Family, string> = {
  letterhead: "de/en/fr",
  viewer: "de/en",
  saas: "en/de",
  facture: "fr/de/en",
  erp: "de/en/fr",
  webapp: "pl/nl/es",
  abroad: "it/sv/no/da/en",
  hybrid: "fr/de/de-AT/de-CH",
  office: "en-GB/en-IE/en-US/en-AU/de",
};

function einvoiceVisual(family: Family, scan: boolean): Corpus {
  const what = WHAT[family];
  return {
    id: `einvoice-visual/${family}-${scan ? "scan-200" : "text"}`,
    about: scan
      ? `the ${family} PDFs as 200-DPI greyscale scans, skew ±1.5°, JPEG q60`
      : `21 XRechnung test-suite invoices (CII and UBL, ${LANGS[family]}) drawn as ${what}, truth from the XML`,
    async build(dir) {
      for (const doc of visualInvoices(family)) {
        const name = `${family}-${doc.id}.pdf`;
        const pdf = await visualPdf(doc);
        const file = scan
          ? await scanOf(pdf, name, { dpi: 200, angle: skewOf(name), quality: 60 })
          : path.join(dir, name);
        if (scan) symlinkSync(file, path.join(dir, name));
        else writeFileSync(file, pdf);
        writeJson(path.join(dir, name.replace(/\.pdf$/, ".json")), {
          class_id: doc.classId ?? "invoice",
          fields: doc.truth,
        });
      }
    },
  };
}

export const einvoiceVisualCorpora: Corpus[] = FAMILIES.flatMap((f) => [
  einvoiceVisual(f, false),
  einvoiceVisual(f, true),
]);
