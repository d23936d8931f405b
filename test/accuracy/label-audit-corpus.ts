/**
 * The label-audit corpus of the accuracy gate (fixtures/label-audit): supplied-text invoices of 35 vendors in eight
 * languages whose label words, number shapes and date/amount forms follow invoice2data's templates (MIT) and common
 * small-business layouts, each in four layouts (label: value, aligned, value under label, a header row, dot leaders,
 * meta beside the buyer block). Truth comes from the generator. Supplied text, so the whole corpus reads in seconds.
 */
import { symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { labelAuditDocs, VARIANTS } from "../../fixtures/label-audit/render";
import { PROFILES } from "../../fixtures/label-audit/profiles";
import { textToPdf } from "../../fixtures/label-audit/pdf";
import type { Corpus } from "./corpora";
import { scanOf, skewOf } from "./scans";

const DOCS = labelAuditDocs();

export const labelAuditCorpus: Corpus = {
  id: "label-audit/text",
  about: `${DOCS.length} supplied-text invoices: ${PROFILES.length} vendors after invoice2data templates and national conventions, 8 languages, ${VARIANTS} layouts each`,
  async build(dir) {
    for (const doc of DOCS) {
      writeFileSync(path.join(dir, `${doc.id}.txt`), doc.text);
      writeFileSync(
        path.join(dir, `${doc.id}.json`),
        JSON.stringify({ class_id: "invoice", fields: doc.truth }, null, 2) + "\n",
      );
    }
  },
};

/** Every other vendor, each in one of its layouts (turn by turn), for the scans: OCR is the expensive part. */
const SCANNED = PROFILES.filter((_, i) => i % 2 === 0).map((p, i) => `${p.id}-${i % VARIANTS}`);

export const labelAuditScans: Corpus = {
  id: "label-audit/scan-200",
  about: `${SCANNED.length} of them (one layout of every other vendor) printed in Courier as 200-DPI greyscale scans, skew ±1.5°, JPEG q60`,
  async build(dir) {
    for (const doc of DOCS.filter((d) => SCANNED.includes(d.id))) {
      const pdf = await textToPdf(doc.text, doc.id);
      const scan = await scanOf(pdf, `${doc.id}.pdf`, { dpi: 200, angle: skewOf(doc.id), quality: 60 });
      symlinkSync(scan, path.join(dir, `${doc.id}.pdf`));
      writeFileSync(
        path.join(dir, `${doc.id}.json`),
        JSON.stringify({ class_id: "invoice", fields: doc.truth }, null, 2) + "\n",
      );
    }
  },
};
