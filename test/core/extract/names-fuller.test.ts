/**
 * The seller's name completed from where it is printed whole (extract/names-fuller.ts): generated invoices whose
 * letterhead OCR read in part (a misread first word, a legal form cut after "UG", a name wrapped over three lines),
 * with the full name in the sender line, the footer or the account holder's line, as OCR lines and as a text layer
 * (the sender line's own candidate names the seller whole already: the case guards that completion keeps it);
 * and what must not complete it: the buyer's block, a sentence ("Verschulden der … AG"), a longer other company.
 */
import { describe, expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { Rng } from "../../../fixtures/varied/generator/random";
import { type Cell, page } from "./page-rows";

const SURNAMES = ["Vogel", "Köhler", "Hartmann", "Meier", "Lorenz", "Brandt"];
const TRADES = ["Bürobedarf", "Steuerberatung", "Haustechnik", "Elektrotechnik", "Metallbau"];
const FORMS = ["UG (haftungsbeschränkt)", "GmbH & Co. KG", "KG", "GbR", "AG"];

/** The full name and how the letterhead was read: its first word lost, or its legal form cut to its first word. */
function seller(seed: number) {
  const r = new Rng(seed);
  const [surname, trade, form] = [r.pick(SURNAMES), r.pick(TRADES), r.pick(FORMS)];
  const full = `${surname} ${trade} ${form}`;
  const cutForm = form.split(" ")[0]!;
  const partial = form.includes(" ") && seed % 2 === 0 ? `${surname} ${trade} ${cutForm}` : `a ${trade} ${form}`;
  return { full, partial, expectedPartial: partial.replace(/^a /, "") };
}

type Where = "sender" | "footer" | "holder" | "label cell" | "label word" | "buyer" | "sentence";

function invoice(seed: number, where: Where, ocr: boolean) {
  const s = seller(seed);
  const rows: Array<[number, Cell[]]> = [[60, [[s.partial, 1100, 34]]]];
  rows.push([110, [["Lindenallee 45 · 12345 Göttingen", 1100, 14]]]);
  // The seller's tax number under the letterhead: the part read there is the best placed candidate.
  rows.push([130, [["USt-IdNr.: DE123456789", 1100, 14]]]);
  if (where === "sender") rows.push([280, [[`${s.full} · Lindenallee 45 · 12345 Göttingen`, 115, 13]]]);
  rows.push([310, [["Gemeindewerke Mannheim", 115]]]);
  rows.push([340, [["Gartenweg 70", 115]]]);
  rows.push([370, [["12345 Mannheim", 115]]]);
  if (where === "buyer") rows.push([400, [[`z. Hd. ${s.full}`, 115]]]);
  rows.push([520, [["Rechnung RE-2024-0815", 115, 28]]]);
  rows.push([
    600,
    [
      ["Gesamtbetrag", 1200],
      ["119,00 EUR", 1700],
    ],
  ]);
  if (where === "sentence") rows.push([700, [[`Bei Verschulden der ${s.full} gilt die Haftung.`, 115]]]);
  if (where === "holder") rows.push([1300, [[`Kontoinhaber: ${s.full}`, 1200]]]);
  // A label cell beside the name, and a label OCR joined to it without its colon.
  if (where === "label cell")
    rows.push([
      1300,
      [
        ["Kontoinhaber", 900],
        [s.full, 1200],
      ],
    ]);
  if (where === "label word") rows.push([1300, [[`Kontoinhaber ${s.full}`, 1200]]]);
  if (where === "footer") rows.push([1300, [[s.full, 115]]]);
  // Away from the footer: the bank line would make the footer's name the best placed candidate on its own.
  rows.push([1500, [["IBAN DE79 0000 0000 1234 5678 90", 1200]]]);
  return { fields: extractFields([page(rows, ocr)], "invoice", defaultProject), s };
}

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

describe("a seller's name read in part is completed from where it is printed whole", () => {
  for (const ocr of [true, false])
    for (const where of ["sender", "footer", "holder", "label cell", "label word"] as const)
      test(`${ocr ? "OCR" : "text"}: whole in the ${where} line`, () => {
        for (const seed of SEEDS) {
          const { fields, s } = invoice(seed, where, ocr);
          expect([seed, fields.vendor_name?.value]).toEqual([seed, s.full]);
        }
      });

  for (const where of ["buyer", "sentence"] as const)
    test(`not from the ${where === "buyer" ? "buyer's block" : "a sentence"}`, () => {
      for (const seed of SEEDS) {
        const { fields, s } = invoice(seed, where, true);
        expect([seed, fields.vendor_name?.value]).not.toEqual([seed, s.full]);
      }
    });
});
