/**
 * Digits OCR misread in a scan's sums (src/core/extract/ocr-digits.ts, ocr-sums.ts), generated case by case: a group
 * separator read as a digit ("27158,16" for "2 158,16"), a space read as a mark ("4°178,86"), a decimal mark read as
 * a digit ("1112739" for "1.112,39"), two digits of similar shape taken for one another, a decimal mark lost in a
 * term no label reads ("3.74877"), and net and tax whose labels OCR lost under the total they add up to. Each is
 * settled only by the arithmetic, never on a text layer, never where the sums already add up.
 */
import { describe, expect, test } from "bun:test";
import { amountReadings } from "../../../src/core/extract/ocr-digits";
import type { Page } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { Rng } from "../../../fixtures/varied/generator/random";
import { type Cell, page } from "./page-rows";

type Style = "de" | "fr" | "en";
const fmt = (v: number, style: Style) => {
  const [int, dec] = v.toFixed(2).split(".");
  const group = { de: ".", fr: " ", en: "," }[style];
  return `${int!.replace(/\B(?=(\d{3})+(?!\d))/g, group)}${style === "en" ? "." : ","}${dec}`;
};
const LABELS: Record<Style, string[]> = {
  de: ["Nettobetrag", "USt 19 %", "Gesamtbetrag"],
  fr: ["Total HT", "TVA 20 %", "Total TTC"],
  en: ["Subtotal", "VAT 20%", "Total due"],
};
const RATE: Record<Style, number> = { de: 19, fr: 20, en: 20 };

type Slip = "group-digit" | "group-mark" | "mark-digit" | "confused";

/** What OCR makes of `printed` (an amount of four digits or more) by `slip`. */
function slipped(printed: string, slip: Slip, r: Rng): string {
  const group = /\d([ .,])\d{3}(?=[.,]\d{2}$)/.exec(printed);
  if (slip === "group-digit") return printed.replace(group![1]!, String(r.int(0, 9)));
  if (slip === "group-mark") return printed.replace(group![1]!, r.pick(["°", ":", "*"]));
  if (slip === "mark-digit") return printed.replace(/[ .,](?=\d{3})/g, "").replace(/[.,](?=\d{2}$)/, "7");
  const like: Record<string, string> = {
    "0": "8",
    "1": "7",
    "3": "8",
    "4": "1",
    "5": "6",
    "6": "5",
    "7": "1",
    "8": "3",
    "9": "8",
  };
  const i = [...printed].findIndex((c, k) => k > 0 && like[c]);
  return printed.slice(0, i) + like[printed[i]!] + printed.slice(i + 1);
}

/** An invoice's header and its totals block, with one of the three amounts `which` slipped on an OCR page. */
function invoice(seed: number, slip: Slip, which: number, ocr = true) {
  const r = new Rng(seed);
  const style = (["de", "fr", "en"] as const)[seed % 3]!;
  const net = r.int(150_000, 900_000) / 100;
  const tax = Math.round(net * RATE[style]) / 100;
  const total = Math.round((net + tax) * 100) / 100;
  const printed = [net, tax, total].map((v) => fmt(v, style));
  printed[which] = slipped(printed[which]!, slip, r);
  const rows: Array<[number, Cell[]]> = [
    [60, [["Hartmann Metallbau GmbH", 1100, 30]]],
    [300, [[style === "de" ? "Rechnung Nr. 4711" : style === "fr" ? "Facture N° 4711" : "Invoice No. 4711", 100]]],
    ...LABELS[style].map((label, i): [number, Cell[]] => [
      700 + i * 40,
      [
        [label, 1200],
        [`${printed[i]} EUR`, 1600],
      ],
    ]),
  ];
  const p = page(rows, ocr);
  // Tesseract is less sure of the word it misread.
  if (ocr) for (const w of p.words) if (w.text === printed[which]!.split(" ").pop()) w.confidence = 0.45;
  return { page: p, net, tax, total, printed: printed[which]! };
}

const sums = (p: Page) => {
  const f = extractFields([p], "invoice", defaultProject);
  return { f, got: [f.subtotal_amount?.value, f.tax_amount?.value, f.total_amount?.value] };
};

describe("amountReadings: the readings one slip away", () => {
  test.each([
    ["27158,16", 2158.16],
    ["4°178,86", 4178.86],
    ["1112739", 1112.39],
    ["3.74877", 3748.77],
    ["1.670,32", 1870.32],
    ["2.1588,60", 2158.6],
  ])("%s may be %d", (read, printed) => {
    expect(amountReadings(read).map((r) => r.value)).toContain(printed);
  });
  test("never the value read, nothing for a word without digits, and the cheapest slip first", () => {
    expect(amountReadings("1.234,56").map((r) => r.value)).not.toContain(1234.56);
    expect(amountReadings("EUR")).toEqual([]);
    const costs = amountReadings("4°178,86").map((r) => r.cost);
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
    expect(amountReadings("4°178,86")[0]).toMatchObject({ value: 4178.86, cost: 0.5 });
  });
});

describe("sums on scans: one misread amount is read back by the arithmetic", () => {
  const cases: Array<[Slip, number[]]> = [
    ["group-digit", [0, 2]],
    ["group-mark", [0, 2]],
    ["mark-digit", [0, 2]],
    ["confused", [0, 1, 2]],
  ];
  for (const [slip, terms] of cases)
    for (const which of terms)
      test(`${slip} in ${["the net", "the tax", "the total"][which]}: 9 generated invoices`, () => {
        for (let seed = 1; seed <= 9; seed++) {
          const d = invoice(seed * 7 + which, slip, which);
          const { f, got } = sums(d.page);
          expect({ seed, printed: d.printed, got }).toEqual({ seed, printed: d.printed, got: [d.net, d.tax, d.total] });
          const id = ["subtotal_amount", "tax_amount", "total_amount"][which]!;
          expect(f[id]!.reasoning).toContain(`read as "${d.printed}"`);
        }
      });

  test("on a text layer the amount is what it says", () => {
    for (let seed = 1; seed <= 6; seed++) {
      const d = invoice(seed, "group-digit", 2, false);
      expect(sums(d.page).got[2]).not.toBe(d.total);
    }
  });

  test("sums that add up are left alone, however unsure OCR was of them", () => {
    for (let seed = 1; seed <= 6; seed++) {
      const d = invoice(seed, "group-digit", 2);
      for (const w of d.page.words) if (w.text === d.printed) w.text = fmt(d.total, "de").replace(/\./g, "");
      const { f, got } = sums(d.page);
      expect(got).toEqual([d.net, d.tax, d.total]);
      expect(f.total_amount!.reasoning).not.toContain("read as");
    }
  });

  test("two misread terms that could each explain the sum, equally unsure: nothing is guessed", () => {
    // 1558,60 + 311,72 = 1870,32 read as 1670,32: the total's 6 may be an 8, or the net's 5 a 3 (1358,60).
    const rows: Array<[number, Cell[]]> = [
      [60, [["Colis Express Services", 1100, 30]]],
      [
        700,
        [
          ["Total HT", 1200],
          ["1 558,60 EUR", 1600],
        ],
      ],
      [
        740,
        [
          ["TVA 20 %", 1200],
          ["311,72 EUR", 1600],
        ],
      ],
      [
        780,
        [
          ["Total TTC", 1200],
          ["1 670,32 EUR", 1600],
        ],
      ],
    ];
    expect(sums(page(rows, true)).got).toEqual([1558.6, 311.72, 1670.32]);
  });
});

describe("terms no label reads", () => {
  test("a net whose decimal mark OCR lost, far from its lost label: found by what total − tax makes it", () => {
    const rows: Array<[number, Cell[]]> = [
      [60, [["Polderweb B.V.", 1100, 30]]],
      [300, [["Factuur F2735", 100]]],
      [700, [["Subtotaal", 1200]]],
      [
        740,
        [
          ["BTW ( 21% )", 1200],
          ["€ 787,24", 1600],
        ],
      ],
      [
        780,
        [
          ["Totaal:", 1200],
          ["€ 4.536,01", 1600],
        ],
      ],
      [900, [["€ 3.74877", 1600]]],
    ];
    const { f, got } = sums(page(rows, true));
    expect(got).toEqual([3748.77, 787.24, 4536.01]);
    expect(f.subtotal_amount!.confidence).toBeLessThan(f.tax_amount!.confidence);
  });

  test("net and tax under labels OCR read as letters: the two amounts above the total that add up to it", () => {
    const rows: Array<[number, Cell[]]> = [
      [60, [["Boucherie Lambotte", 1100, 30]]],
      [300, [["FACTURE N°: 91844", 100]]],
      [600, [["Support F JX-533 2 116,17 232,34", 100]]],
      [
        700,
        [
          ["POLAR Ed Se in os Ele ee", 100],
          ["831,97EUR", 1600],
        ],
      ],
      [
        740,
        [
          ["aR eR Le a ed diet ial Shen", 100],
          ["49,92EUR", 1600],
        ],
      ],
      [
        780,
        [
          ["NET A PAYER", 100],
          ["881,89EUR", 1600],
        ],
      ],
    ];
    const { f, got } = sums(page(rows, true));
    expect(got).toEqual([831.97, 49.92, 881.89]);
    expect(f.tax_amount!.reasoning).toContain("add up to it");
    // Two pairs that add up (or none): nothing is taken.
    rows.splice(
      3,
      0,
      [
        650,
        [
          ["Remise", 100],
          ["781,97", 1600],
        ],
      ],
      [
        660,
        [
          ["Port", 100],
          ["99,92", 1600],
        ],
      ],
    );
    expect(sums(page(rows, true)).got.slice(0, 2)).toEqual([undefined, undefined].map(() => null));
  });
});
