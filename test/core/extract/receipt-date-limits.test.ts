/**
 * A till receipt's date is never a limit printed on it (extract/receipt-date.ts): a return or voucher's validity
 * ("VALID TILL 18/06/2025", "gültig bis", "valable jusqu'au", "berlaku hingga"), an expiry. Generated receipts whose
 * own date OCR lost, or printed without a label or time below such a limit, through the extract stage.
 */
import { expect, test } from "bun:test";
import { Rng } from "../../../fixtures/varied/generator/random";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { photoPage, wordsOfLines } from "./ocr-photo-page";

function read(lines: string[]) {
  const words = wordsOfLines(lines, 30, 32);
  return (
    extractFields([photoPage(words, lines.join("\n"), 80 + 32 * lines.length)], "receipt", defaultProject).invoice_date
      ?.value ?? null
  );
}

const pad = (n: number) => String(n).padStart(2, "0");
const LIMITS = ["VALID TILL", "Valid until", "GÜLTIG BIS", "valable jusqu'au", "BERLAKU HINGGA", "Expires"];

test("a limit is never the receipt's date: the date printed below it is, or none when OCR lost it", () => {
  const r = new Rng(34);
  for (let i = 0; i < 12; i++) {
    const [d, m] = [r.int(1, 15), r.int(1, 12)];
    const limit = `${r.pick(LIMITS)} ${pad(d + r.int(3, 13))}/${pad(m)}/2025`;
    const head = [`${r.pick(["GARDEN FRESH", "KEDAI MAJU", "SUPERETTE DU PORT"])} PTE LTD`, "54 ORCHARD ROAD"];
    const sums = [`TOTAL ${r.int(2, 90)}.${r.digits(2)}`, "CASH 100.00", "THANK YOU"];
    // The voucher line above the sale's own date (no label, no time of day): the date below it.
    expect(read([...head, `VOUCHER ${limit}`, `${pad(d)}/${pad(m)}/2025`, "MILO 1KG 6.30", ...sums])).toBe(
      `2025-${pad(m)}-${pad(d)}`,
    );
    // The sale's date lost: no date rather than the limit.
    expect(read([...head, "MILO 1KG 6.30", ...sums, `GOODS SOLD ARE NOT RETURNABLE. ${limit}`])).toBeNull();
  }
});
