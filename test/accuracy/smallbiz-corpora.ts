/**
 * The small-business invoice corpora of the accuracy gate (corpora.ts lists them), as text PDFs and as 200-DPI
 * scans: fixtures/smallbiz's 24 invoices of six English-speaking countries in word-processor and spreadsheet
 * templates, and fixtures/smallbiz2's 24 of six others (NZ, SG, ZA, US states, Canadian provinces, the UK) as
 * invoicing apps, accounting packages, a consultant's letter, a handyman's sheet and a two-page invoice draw them.
 * Each family written and first measured before any extraction change for it (docs/accuracy.md has the figures).
 */
import { symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { smallBizInvoices, smallBizPdf } from "../../fixtures/smallbiz";
import { smallBiz2Invoices, smallBiz2Pdf } from "../../fixtures/smallbiz2";
import type { Corpus } from "./corpora";
import { scanOf, skewOf } from "./scans";

const writeJson = (file: string, v: unknown) => writeFileSync(file, JSON.stringify(v, null, 2) + "\n");

function smallBiz(scan: boolean): Corpus {
  return {
    id: `smallbiz/${scan ? "scan-200" : "text"}`,
    about: scan
      ? "the small-business PDFs as 200-DPI greyscale scans, skew ±1.5°, JPEG q60"
      : "24 small-business invoices (US, UK, IE, AU, IN, CA) in word-processor and spreadsheet templates, truth as printed",
    async build(dir) {
      for (const doc of smallBizInvoices()) {
        const name = `smallbiz-${doc.id}.pdf`;
        const pdf = await smallBizPdf(doc);
        if (scan)
          symlinkSync(await scanOf(pdf, name, { dpi: 200, angle: skewOf(name), quality: 60 }), path.join(dir, name));
        else writeFileSync(path.join(dir, name), pdf);
        writeJson(path.join(dir, name.replace(/\.pdf$/, ".json")), { class_id: "invoice", fields: doc.truth });
      }
    },
  };
}

function smallBiz2(scan: boolean): Corpus {
  return {
    id: `smallbiz2/${scan ? "scan-200" : "text"}`,
    about: scan
      ? "the second small-business family as 200-DPI greyscale scans, skew ±1.5°, JPEG q60"
      : "24 small-business invoices (NZ, SG, ZA, US, CA, UK) as invoicing apps, accounting packages, a letter, a handyman's sheet, two pages; truth as printed",
    async build(dir) {
      for (const doc of smallBiz2Invoices()) {
        const name = `smallbiz2-${doc.id}.pdf`;
        const pdf = await smallBiz2Pdf(doc);
        if (scan)
          symlinkSync(await scanOf(pdf, name, { dpi: 200, angle: skewOf(name), quality: 60 }), path.join(dir, name));
        else writeFileSync(path.join(dir, name), pdf);
        writeJson(path.join(dir, name.replace(/\.pdf$/, ".json")), { class_id: "invoice", fields: doc.truth });
      }
    },
  };
}

export const smallBizCorpora: Corpus[] = [smallBiz(false), smallBiz(true), smallBiz2(false), smallBiz2(true)];
