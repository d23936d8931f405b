/**
 * The receipts-hard corpora of the accuracy gate: 30 receipts of the harder, independent generator
 * (fixtures/varied/generator/hard-receipts.ts, seed 20241121) as 200-DPI greyscale scans and as phone photos in
 * harsh conditions (faded print, low light, a fold, paper not flat, a stronger angle: photos.ts) and as people
 * really photograph them (photos-real.ts: small in a cluttered frame, turned, crumpled, shadowed, glare). Scored: vendor,
 * date and total (what a receipt is read for) and the class.
 */
import path from "node:path";
import { symlinkSync, writeFileSync } from "node:fs";
import { toPdf } from "../../fixtures/varied/generator";
import { generateHardReceipts } from "../../fixtures/varied/generator/hard-receipts";
import type { Corpus } from "./corpora";
import { photoOf } from "./photos";
import { realPhotoOf } from "./photos-real";
import { scanOf, skewOf } from "./scans";

const SEED = 20241121;
export const HARD_RECEIPTS = 30;

function hardReceiptCorpus(
  id: string,
  about: string,
  picture: (pdf: Uint8Array, name: string) => Promise<string>,
): Corpus {
  return {
    id,
    about,
    async build(dir) {
      for (const doc of generateHardReceipts(SEED, HARD_RECEIPTS)) {
        const file = await picture(await toPdf(doc), doc.id);
        symlinkSync(file, path.join(dir, `${doc.id}${path.extname(file)}`));
        const fields = {
          vendor_name: doc.truth.vendor_name,
          invoice_date: doc.truth.invoice_date,
          total_amount: doc.truth.total_amount,
        };
        writeFileSync(
          path.join(dir, `${doc.id}.json`),
          JSON.stringify({ class_id: doc.class_id, fields }, null, 2) + "\n",
        );
      }
    },
  };
}

export const hardReceiptCorpora: Corpus[] = [
  hardReceiptCorpus(
    "receipts-hard/scan",
    `${HARD_RECEIPTS} harder receipts (GST tax invoices, US grocery, EU supermarkets, restaurants, fuel, Indonesian; seed ${SEED}) as 200-DPI greyscale scans, skew ±1.5°, JPEG q60`,
    (pdf, name) => scanOf(pdf, `${name}.pdf`, { dpi: 200, angle: skewOf(name), quality: 60 }),
  ),
  hardReceiptCorpus(
    "receipts-hard/photo",
    `the same ${HARD_RECEIPTS} receipts as phone photos in harsh conditions (faded thermal print, low light, fold shadow, paper not flat, stronger perspective)`,
    (pdf, name) => photoOf(pdf, name, true),
  ),
  hardReceiptCorpus(
    "receipts-hard/photo-real",
    `the same ${HARD_RECEIPTS} receipts as people photograph them (photos-real.ts): 40-60% of the frame at 120-160 px per inch of paper, on wood or cloth beside another sheet or a thumb, turned 90/180/270°, crumpled and curled, a hard shadow, flash glare, motion blur`,
    realPhotoOf,
  ),
];
