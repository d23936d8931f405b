/**
 * A party name wrapped in its value cell ("Vogel Elektrotechnik UG" over "(haftungsbeschränkt)") on a scan of an
 * XRechnung visualisation: OCR's lines of a skewed page are tall, so the label cell looked for left of the wrapped
 * part reaches the other party's column, whose term reference ("BT-50") and the marks OCR reads from the grain are
 * no label of the wrapped row. Generated cases: names, legal forms, wrap points, skews (line heights), with and
 * without a speck, text layer and OCR.
 */
import { describe, expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import type { Page } from "../../../src/core/model";
import { Rng } from "../../../fixtures/varied/generator/random";
import { type Cell, page } from "./page-rows";

const SURNAMES = ["Vogel", "Krüger", "Hartmann", "Becker", "Schäfer", "Lorenz"];
const TRADES = ["Elektrotechnik", "Bürobedarf", "Haustechnik", "Steuerberatung", "Metallbau"];
const FORMS: Array<[head: string, tail: string]> = [
  ["UG", "(haftungsbeschränkt)"],
  ["GmbH &", "Co. KG"],
  ["GmbH", "& Co. KG"],
];
const BUYERS = ["Kreiskrankenhaus Mannheim", "Landesamt für Statistik", "Gemeindewerke Freiburg"];

/** A visualisation page: buyer and seller sections side by side, the seller's name wrapped after its head. */
function viewerPage(seed: number, ocr: boolean, tall: number, speck: boolean): { page: Page; seller: string } {
  const r = new Rng(seed);
  const [head, tail] = r.pick(FORMS);
  const name = `${r.pick(SURNAMES)} ${r.pick(TRADES)}`;
  const rows: Array<[number, Cell[]]> = [
    [80, [["Rechnung", 90, 32]]],
    [
      160,
      [
        ["Käufer", 90, 24],
        ["Verkäufer", 1050, 24],
      ],
    ],
    [
      200,
      [
        ["Name", 90],
        [r.pick(BUYERS), 400],
        ["BT-44", 880, 12],
        ["Firmenname", 1050],
        [`${name} ${head}`, 1360],
        ["BT-27", 1860, 12],
      ],
    ],
    // The wrapped part beside the buyer's next row, its term reference and (on a grainy scan) a speck.
    [
      226,
      [
        ["Straße", 90],
        ["Bahnhofstraße 116", 400],
        ["BT-50", 880, 12],
        ...(speck ? ([[":", 950, 20]] as Cell[]) : []),
        [tail, 1360],
      ],
    ],
    [
      262,
      [
        ["PLZ", 90],
        ["98765", 400],
        ["BT-53", 880, 12],
        ["Straße", 1050],
        ["Lindenallee 45", 1360],
        ["BT-35", 1860, 12],
      ],
    ],
    [
      420,
      [
        ["Gesamtsumme brutto", 90],
        ["119,00 EUR", 700],
      ],
    ],
  ];
  const p = page(rows, ocr);
  // A skewed scan: OCR's word boxes on the name row reach up over the row above them.
  for (const w of p.words!)
    if (w.line === 2)
      w.bounding_box = [
        ...w.bounding_box.slice(0, 1),
        w.bounding_box[1] - tall,
        ...w.bounding_box.slice(2),
      ] as typeof w.bounding_box;
  return { page: p, seller: `${name} ${head} ${tail}` };
}

describe("a wrapped party name on a skewed scan", () => {
  for (const ocr of [false, true])
    for (const tall of [0, 12, 18])
      for (const speck of [false, true])
        test(`${ocr ? "OCR" : "text"}, name row ${tall} px taller${speck ? ", a speck beside" : ""}`, () => {
          for (const seed of [1, 2, 3, 4, 5, 6]) {
            const { page: p, seller } = viewerPage(seed, ocr, tall, speck);
            const f = extractFields([p], "invoice", defaultProject);
            expect([seed, f.vendor_name?.value]).toEqual([seed, seller]);
          }
        });
});

/** The buyer's name wrapped ("Landesamt für Statistik" over "Osnabrück"), with grain read as a mark before the name
 * ("~") and as letters in the wrapped row's label cell ("SRS", unsure). */
function buyerWrapped(seed: number, grain: boolean): { page: Page; buyer: string } {
  const r = new Rng(seed);
  const [head, tail] = r.pick([
    ["Landesamt für Statistik", "Osnabrück"],
    ["Gemeindewerke Freiburg im", "Breisgau"],
    ["Kreiskrankenhaus", "Mannheim"],
  ]);
  const rows: Array<[number, Cell[]]> = [
    [80, [["Rechnung", 90, 32]]],
    [160, [["Käufer", 90, 24]]],
    [
      200,
      [
        ["Name", 90],
        // A mark OCR read from the grain just before the name.
        ...(grain ? ([["~", 384, 20]] as Cell[]) : []),
        [head!, 400],
        ["BT-44", 880, 12],
      ],
    ],
    // The wrapped part with a mark OCR read from the grain stuck to it ("‚Breisgau").
    [226, [...(grain ? ([["SRS", 190]] as Cell[]) : []), [grain ? `‚${tail}` : tail!, grain ? 396 : 400]]],
    [
      262,
      [
        ["PLZ", 90],
        ["98765", 400],
        ["BT-53", 880, 12],
      ],
    ],
    [
      420,
      [
        ["Gesamtsumme brutto", 90],
        ["119,00 EUR", 700],
      ],
    ],
  ];
  const p = page(rows, true);
  for (const w of p.words!) if (w.text === "SRS") w.confidence = 0.23;
  return { page: p, buyer: `${head} ${tail}` };
}

describe("a wrapped buyer name with grain read as letters beside it", () => {
  for (const grain of [false, true])
    test(`OCR${grain ? ", unsure letters in the label cell" : ""}`, () => {
      for (const seed of [1, 2, 3, 4, 5]) {
        const { page: p, buyer } = buyerWrapped(seed, grain);
        const f = extractFields([p], "invoice", defaultProject);
        expect([seed, f.customer_name?.value]).toEqual([seed, buyer]);
      }
    });
});
