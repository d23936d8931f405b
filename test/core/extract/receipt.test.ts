/**
 * Till receipts' merchant and total (extract/receipt.ts) through the extract stage, on OCR pages: the merchant at
 * the top (not a title, a street or an item line with a tall junk box), and the total checked by the receipt's
 * arithmetic (a currency sign read as a digit, a lost amount, a right total left alone).
 */
import { describe, expect, test } from "bun:test";
import type { Page, Word } from "../../../src/core/model";
import { photoPage } from "./ocr-photo-page";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";

/** An OCR page of `lines`; a line given as [text, height] is set in type that tall (default 20 px). */
function ocrPage(lines: Array<string | [string, number]>): Page {
  const words: Word[] = [];
  let y = 40;
  lines.forEach((entry, i) => {
    const [text, h] = typeof entry === "string" ? [entry, 20] : entry;
    let x = 30;
    for (const t of text.split(" ")) {
      const height = t === "SE" ? 48 : h; // a junk reading of grain: a tall box
      words.push({ text: t, bounding_box: [x, y, x + (h / 2) * t.length, y + height], confidence: 0.9, line: i + 1 });
      x += (h / 2) * (t.length + 1);
    }
    y += h + 12;
  });
  return photoPage(words, lines.map((l) => (typeof l === "string" ? l : l[0])).join("\n"), y + 40);
}

const read = (lines: Array<string | [string, number]>) => {
  const f = extractFields([ocrPage(lines)], "receipt", defaultProject);
  return { vendor: f.vendor_name?.value, total: f.total_amount?.value, date: f.invoice_date?.value };
};

describe("till receipts: merchant", () => {
  test("the name at the top, past a title; not the street, not an item line with a tall junk box (nor its junk read as a legal form, SE)", () => {
    const r = read([
      "TAX INVOICE",
      ["KINGS CONVENIENCE", 30],
      "428 DORPSSTRAAT",
      "TEL 941 130 4151",
      "02-07-2023 11:32",
      "RICE 5KG 13.31",
      "MILO 1KG SE",
      "SST 6% 0.80",
      "TOTAL 13.31",
      "CASH 20.00",
      "CHANGE 6.69",
    ]);
    expect(r.vendor).toBe("KINGS CONVENIENCE");
  });

  test("marks OCR stuck to the name's words are no part of it", () => {
    expect(read([["RIVERSIDE .BAKERY", 30], "606 MAIN ST", "TOTAL 9.90", "CASH 10.00", "CHANGE 0.10"]).vendor).toBe(
      "RIVERSIDE BAKERY",
    );
  });
});

test("till receipts: a date OCR read with a doubled mark is still the receipt's date", () => {
  const r = read([
    ["BLUE DOOR PHARMACY", 30],
    "684 RUE DE LA GARE",
    "15.. JUN 2022 19:50",
    "BUTTER 9.17",
    "TOTAL 9.17",
  ]);
  expect(r.date).toBe("2022-06-15");
});

describe("till receipts: the total checked by the receipt's arithmetic", () => {
  const head: Array<string | [string, number]> = [["GREEN LEAF", 30], "TEL 676 997 6445", "24/09/2025 10:02"];
  test("a currency sign read as a digit: 868.90 is 68.90 when the items add up to it", () => {
    const r = read([...head, "MILK 24.70", "DISH SOAP 20.46", "4 @ 4.21 16.84", "COFFEE 6.90", "AMOUNT DUE 868.90"]);
    expect(r.total).toBe(68.9);
  });

  test("the rupee sign read as 2: 2120.00 is 120.00 when tendered minus change says so", () => {
    const r = read([...head, "MASALA 70.00", "CHAI 45.00", "TOTAL 2120.00", "CASH 200.00", "CHANGE 80.00"]);
    expect(r.total).toBe(120);
  });

  test("a total read without its amount's decimals gives way to tendered minus change", () => {
    const r = read([...head, "SUGAR 5.11", "RICE 13.31", "GRAND TOTAL 4", "CASH 110.00", "CHANGE 28.30"]);
    expect(r.total).toBe(81.7);
  });

  test("a total the arithmetic confirms stays, cash tendered is never the total", () => {
    const r = read([...head, "KAAS 18.68", "APPELS 13.77", "TOTAAL 32.45", "CONTANT 40.00", "WISSELGELD 7.55"]);
    expect(r.total).toBe(32.45);
  });
});
