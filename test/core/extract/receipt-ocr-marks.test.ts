/**
 * What OCR does to a till receipt's date and payment rows, through the extract stage on generated receipts:
 * - a date whose digits were read as letters ("O8/O4/17", "2l-O3-2020") is the receipt's date when its line says it
 *   is one (a time of day after it, a date label before it), and no date otherwise (extract/receipt-date.ts);
 * - a payment label read as a line of its own, its amount as the next line ("CASH" / "200.00"), still pays: tendered
 *   − change settles the total when a total line prints it, even glued to letters OCR made of its currency
 *   ("nrM112.40"; extract/tendered.ts, receipt-total.ts).
 */
import { describe, expect, test } from "bun:test";
import { Rng } from "../../../fixtures/varied/generator/random";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { photoPage, wordsOfLines } from "./ocr-photo-page";

function read(lines: string[]) {
  const words = wordsOfLines(lines, 30, 32);
  const f = extractFields([photoPage(words, lines.join("\n"), 80 + 32 * lines.length)], "receipt", defaultProject);
  return { date: f.invoice_date?.value ?? null, total: f.total_amount?.value ?? null };
}

const pad = (n: number) => String(n).padStart(2, "0");
/** Digits as thermal-print OCR reads them as letters. */
const LETTER: Record<string, string[]> = {
  "0": ["O", "Q", "D"],
  "1": ["l", "I", "|"],
  "5": ["S"],
  "8": ["B"],
  "2": ["Z"],
};

/** `text` with one or two of its digits that have a look-alike letter read as that letter. */
function misread(text: string, r: Rng): string {
  const at = [...text].flatMap((c, i) => (LETTER[c] ? [i] : []));
  let out = [...text];
  for (const i of [r.pick(at), r.pick(at)]) out[i] = r.pick(LETTER[out[i]!] ?? [out[i]!]);
  return out.join("");
}

describe("till receipts: a date OCR read with letters for digits", () => {
  test("before a time of day or after a date label it is the receipt's date; elsewhere it is no date", () => {
    const r = new Rng(41);
    let checked = 0;
    for (let i = 0; i < 40; i++) {
      const [d, m, y] = [r.int(1, 28), r.int(1, 12), r.int(16, 25)];
      const printed = r.chance(0.5) ? `${pad(d)}/${pad(m)}/${y}` : `${pad(d)}-${pad(m)}-20${y}`;
      const read_ = misread(printed, r);
      if (read_ === printed) continue;
      checked++;
      const head = [
        `${r.pick(["KEDAI MAJU", "RESTORAN SRI MELAKA", "PASAR MINI SETIA"])} SDN BHD`,
        "JLN SETIA 7, MELAKA",
      ];
      const sums = ["TEH TARIK 3.50", "NASI LEMAK 8.20", "TOTAL 11.70", "CASH 20.00", "CHANGE 8.30"];
      const iso = `20${y}-${pad(m)}-${pad(d)}`;
      expect(
        read([...head, `${read_} ${pad(r.int(7, 22))}:${pad(r.int(0, 59))}:${pad(r.int(0, 59))}`, ...sums]).date,
      ).toBe(iso);
      expect(read([...head, `DATE: ${read_}`, ...sums]).date).toBe(iso);
      // Neither a time nor a label: a reference number shaped like a date is no date.
      expect(read([...head, `REF ${read_} X`, ...sums]).date).toBeNull();
    }
    expect(checked).toBeGreaterThan(20);
  });
});

describe("till receipts: a payment label and its amount read as two lines", () => {
  test("CASH over its amount, and the total line's amount glued to letters: tendered − change is the total", () => {
    const r = new Rng(42);
    for (let i = 0; i < 12; i++) {
      const total = r.int(2000, 40000) / 100;
      const cash = Math.ceil(total / 50) * 50 + (r.chance(0.5) ? 50 : 0);
      const change = (Math.round(cash * 100) - Math.round(total * 100)) / 100;
      const incl = (Math.round(total * 100) + r.int(1, 2000)).toFixed(0);
      const lines = [
        "RESTORAN NASI KANDAR ALI SDN BHD",
        "LOT 657, TAMAN DESA",
        "TELUR GRED A 3.27",
        `PAPER A4 80GSM ${(total / 2).toFixed(2)}`,
        // The sums' first line misread (a digit wrong): the total read, and no sum confirms it.
        `TOTAL (INCL ${incl.slice(0, -2)},${incl.slice(-2)}`,
        `TOTAL ROUNDED ${r.pick(["nrM", "aM", "kM"])}${total.toFixed(2)}`,
        "CASH",
        cash.toFixed(2),
        `CHANGE ${change.toFixed(2)}`,
      ];
      expect(read(lines).total).toBe(total);
      // The amount under CASH is not one alone on its line (an item's row): no payment, the total read stands.
      const item = [...lines.slice(0, 7), `BAG ${cash.toFixed(2)}`, ...lines.slice(8)];
      expect(read(item).total).not.toBe(total);
    }
  });
});
