/**
 * What a page read with another language's OCR model looks like to extraction (stages/ocr/language-choice.ts reads
 * German and French pages so): the one-line return address over the window is read whole ("Acme GmbH · Str. 1 ·
 * 12345 Ort", its dot maybe read as "." or ":"), the totals labels beside a tax rate sit in a column of their own,
 * and specks from the grain stand before the total. Pages are made word by word, as OCR gives them.
 */
import { describe, expect, test } from "bun:test";
import type { Page, Word } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { a4OcrScan } from "./page-rows";
import { extractFields } from "../../../src/core/stages/extract";
import { findAmounts } from "../../../src/core/extract/values";
import { findDates } from "../../../src/core/extract/normalize";
import { withoutSpecks } from "../../../src/core/extract/specks";

/** An OCR page from rows of [y, [[text, x], ...]]: 10 px per character, 30 px high lines. */
function ocrPage(rows: Array<[number, Array<[string, number]>]>): Page {
  const words: Word[] = [];
  rows.forEach(([y, cells], line) => {
    for (const [text, x] of cells) {
      let offset = 0;
      for (const part of text.split(" ")) {
        if (part)
          words.push({
            text: part,
            confidence: 0.9,
            bounding_box: [x + offset * 10, y, x + (offset + part.length) * 10, y + 30],
            line,
          });
        offset += part.length + 1;
      }
    }
  });
  return a4OcrScan(words, rows.map(([, cells]) => cells.map(([t]) => t).join(" ")).join("\n"));
}

/** A German or French letterhead invoice: return address in the same type as the window address under it. */
function invoice(sender: string, labels: [string, string, string, string]): Page {
  const [title, net, tax, gross] = labels;
  return ocrPage([
    [150, [["Vogel Bürobedarf UG (haftungsbeschränkt)", 1400]]],
    [200, [["Lindenallee 113 - 12345 Göttingen", 1700]]],
    [550, [[sender, 240]]],
    [590, [["Staatliches Bauamt Oldenburg", 240]]],
    [630, [["Gartenweg 70", 240]]],
    [670, [["12345 Oldenburg", 240]]],
    [1050, [[`${title} 12345`, 250]]],
    [1370, [[net, 1500]]],
    [1410, [[tax, 1500]]],
    [1450, [[gross, 1500]]],
    [1370, [["27,72 EUR", 2100]]],
    [1410, [["5,27 EUR", 2100]]],
    [1450, [["..32,99 EUR", 2100]]],
    [3150, [["Vogel Bürobedarf UG (haftungsbeschränkt)", 260]]],
    [3190, [["Lindenallee 113", 260]]],
    [3230, [["12345 Göttingen", 260]]],
  ]);
}

describe("OCR pages read with their own language", () => {
  const de = ["Rechnung", "Summe netto", "USt 19 %", "Gesamtbetrag"] as [string, string, string, string];
  const fr = ["Facture", "Total HT", "TVA 19 %", "Total TTC"] as [string, string, string, string];
  for (const [what, sender, labels] of [
    [
      "a return address read whole, next to the issuer's name",
      "Vogel Bürobedarf UG (haftungsbeschränkt) - Lindenallee 113 . 12345 Göttingen",
      de,
    ],
    [
      "its dot read as a colon, the name read otherwise than the letterhead's",
      "Vögel Burobedarf UG : 12345 Göttingen",
      de,
    ],
    ["French labels", "Vogel Bürobedarf UG - Lindenallee 113 - 12345 Göttingen", fr],
  ] as const) {
    test(`the window address under the return address is the customer, never a totals label (${what})`, () => {
      const f = extractFields([invoice(sender, labels)], "invoice", defaultProject);
      expect(f.customer_name!.value).toBe("Staatliches Bauamt Oldenburg");
    });
  }

  test("specks before a grouped amount are no decimal point, one or several", () => {
    for (const raw of [".1.344,00 HUF", "..1.344,00 HUF", "‘.1.344,00"])
      expect(findAmounts(raw).map((a) => a.value)).toEqual([1344]);
    expect(findAmounts("1.344,00").map((a) => a.value)).toEqual([1344]);
  });

  test("a speck after the day's dot still makes a date; a dot after a legal form never written with one is dropped", () => {
    for (const raw of ["15.:JUN 2022 19:50", "15..JUN 2022", "15.,Jun 2022", "15. JUN 2022"])
      expect(findDates(raw, "dmy").map((d) => d.iso)).toEqual(["2022-06-15"]);
    expect(findDates("15:JUN 2022", "dmy").map((d) => d.iso)).toEqual([]);
    expect(withoutSpecks("BLUE DOOR PHARMACY KG.")).toBe("BLUE DOOR PHARMACY KG");
    expect(withoutSpecks("Schäfer Haustechnik GmbH.")).toBe("Schäfer Haustechnik GmbH");
    for (const kept of ["Acme Co.", "Harbour Supplies Ltd.", "Widgets Inc.", "Schäfer Haustechnik e.K."])
      expect(withoutSpecks(kept)).toBe(kept);
  });
});
