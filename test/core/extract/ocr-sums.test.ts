/**
 * Totals vs tax vs net by label and arithmetic where OCR damaged the printed amounts, generated case by case: a lost
 * decimal point ("474375 €" for "4,743.75 €"), a speck in the gap read as a minus ("Total  -  5,645.06 €"), a
 * currency sign read as a digit ("2319.00" for "₹319.00"), an
 * IBAN with a speck glued before it; and an invoice printing no tax (or a zero tax) and no net: the net is the total.
 */
import { describe, expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { Rng } from "../../../fixtures/varied/generator/random";
import { type Cell, page } from "./page-rows";

const fmt = (v: number, lang: "en" | "de") => {
  const [int, dec] = v.toFixed(2).split(".");
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, lang === "en" ? "," : ".");
  return `${grouped}${lang === "en" ? "." : ","}${dec}`;
};
const LABELS = {
  en: ["Total excl. VAT", "VAT 19%", "Total incl. VAT"],
  de: ["Nettobetrag", "zzgl. USt 19 %", "Bruttobetrag"],
} as const;

/** An invoice's header and its totals block; `damage` says which row OCR damaged and how. */
function invoice(
  seed: number,
  damage: "net-cents" | "total-dash" | "tax-cents" | "net-cents-tax-label" | "total-sign",
  ocr = true,
) {
  const r = new Rng(seed);
  const lang = seed % 2 ? "en" : "de";
  const net = r.int(12_000, 900_000) / 100;
  const tax = Math.round(net * 19) / 100;
  const total = Math.round((net + tax) * 100) / 100;
  const printed = [fmt(net, lang), fmt(tax, lang), fmt(total, lang)];
  if (damage.startsWith("net-cents")) printed[0] = printed[0]!.replace(/[.,]/g, "");
  if (damage === "tax-cents") printed[1] = printed[1]!.replace(/[.,]/g, "");
  if (damage === "total-dash") printed[2] = `- ${printed[2]}`;
  // The currency sign before the total read as a digit ("₹319.00" as "2319.00"), no sign left on the row.
  const sign = damage === "total-sign" ? (seed % 3 === 0 ? "2" : seed % 3 === 1 ? "5" : "8") : "";
  const rows: Array<[number, Cell[]]> = [
    [60, [["Hartmann Metallbau GmbH", 1100, 30]]],
    [100, [["Hauptstraße 5, 34117 Kassel", 1100]]],
    [300, [[lang === "en" ? "Invoice No. 4711" : "Rechnung Nr. 4711", 100]]],
    // OCR glued the rate to the tax label ("TVAT7 %"): no tax label is read, the arithmetic finds the amount.
    ...LABELS[lang].map((label, i): [number, Cell[]] => [
      700 + i * 40,
      [
        [i === 1 && damage === "net-cents-tax-label" ? label.replace(/ (\d)/, "T$1") : label, 1200],
        [i === 2 && sign ? `${sign}${printed[i]}` : `${printed[i]} €`, 1650],
      ],
    ]),
  ];
  return { page: page(rows, ocr), net, tax, total };
}

describe("sums on OCR pages: amounts OCR damaged are read back by the arithmetic", () => {
  for (const damage of ["net-cents", "tax-cents", "total-dash", "net-cents-tax-label", "total-sign"] as const)
    test(`${damage}: 12 generated invoices, net + tax = total as printed`, () => {
      for (let seed = 1; seed <= 12; seed++) {
        const d = invoice(seed, damage);
        const f = extractFields([d.page], "invoice", defaultProject);
        const got = [f.subtotal_amount?.value, f.tax_amount?.value, f.total_amount?.value];
        expect({ seed, got }).toEqual({ seed, got: [d.net, d.tax, d.total] });
      }
    });

  test("on a text layer a separator-less amount is what it says (no cents guessed)", () => {
    const d = invoice(3, "net-cents", false);
    const f = extractFields([d.page], "invoice", defaultProject);
    expect(f.subtotal_amount?.value).not.toBe(d.net);
  });
});

test("an IBAN with a speck of the grain glued before it is read", () => {
  for (const speck of ["'", "‘", ".", "|"]) {
    const rows: Array<[number, Cell[]]> = [
      [60, [["Vogel Logistik GmbH", 1100, 30]]],
      [
        900,
        [
          ["IBAN :", 100],
          [`${speck}DE89 3704 0044 0532 0130 00`, 300],
        ],
      ],
    ];
    const f = extractFields([page(rows, true)], "invoice", defaultProject);
    expect({ speck, iban: f.iban?.value }).toEqual({ speck, iban: "DE89370400440532013000" });
  }
});

describe("an invoice that prints no tax and no net amount: the net is the total", () => {
  const rows = (tax: string | null): Array<[number, Cell[]]> => [
    [60, [["QualityHost AG", 1100, 30]]],
    [300, [["Rechnung Nr. 30064443", 100]]],
    [500, [["Pos. Menge Beschreibung Zeilenbetrag ohne MwSt.", 100]]],
    [
      540,
      [
        ["1 1 Exchange Postfach", 100],
        ["3,89", 1700],
      ],
    ],
    ...(tax
      ? [
          [
            580,
            [
              ["Tax", 1200],
              [tax, 1700],
            ],
          ] as [number, Cell[]],
        ]
      : []),
    [
      620,
      [
        ["Total EUR", 1200],
        ["34,73", 1700],
      ],
    ],
  ];
  for (const tax of [null, "0,00"])
    test(`tax ${tax ?? "not printed"}: subtotal = total, below the total's confidence`, () => {
      const f = extractFields([page(rows(tax), false)], "invoice", defaultProject);
      expect(f.total_amount?.value).toBe(34.73);
      expect(f.subtotal_amount?.value).toBe(34.73);
      expect(f.subtotal_amount!.confidence).toBeLessThan(f.total_amount!.confidence);
    });
  test("net and tax printed in a table no label reads (they add up to the total): the net is not the total", () => {
    const rows: Array<[number, Cell[]]> = [
      [60, [["Polski Koncern Naftowy S.A.", 100, 30]]],
      [500, [["Wartość netto Kwota podatku Wartość brutto", 900]]],
      [540, [["Razem: 257,59 23 59,24 316,83", 900]]],
      [
        620,
        [
          ["Należność ogółem", 100],
          ["316,83 PLN", 600],
        ],
      ],
    ];
    const f = extractFields([page(rows, false)], "invoice", defaultProject);
    expect(f.total_amount?.value).toBe(316.83);
    expect(f.subtotal_amount?.value).not.toBe(316.83);
  });
  test("a tax printed: the net is not guessed", () => {
    const f = extractFields([page(rows("5,55"), false)], "invoice", defaultProject);
    expect(f.subtotal_amount?.value).not.toBe(34.73);
  });
});

describe("VAT at several rates row by row, no row of their sum: the tax is the rows' sum", () => {
  for (const ocr of [false, true])
    test(`${ocr ? "OCR lines" : "text layer"}: 10 generated invoices, with a prepayment and the amount due under them`, () => {
      for (let seed = 1; seed <= 10; seed++) {
        const r = new Rng(500 + seed);
        const lang = seed % 2 ? "en" : "de";
        const [a, b] = [r.int(5_000, 90_000) / 100, r.int(1_000, 30_000) / 100];
        const [ta, tb] = [Math.round(a * 19) / 100, Math.round(b * 7) / 100];
        const net = Math.round((a + b) * 100) / 100;
        const tax = Math.round((ta + tb) * 100) / 100;
        const total = Math.round((net + tax) * 100) / 100;
        const paid = Math.round(total * 0.5 * 100) / 100;
        const vat = lang === "en" ? (p: number) => `VAT ${p}%` : (p: number) => `USt ${p} %`;
        const rows: Array<[number, Cell[]]> = [
          [60, [["Lorenz Seminare KG", 1100, 30]]],
          [300, [[lang === "en" ? "Invoice 20-0815" : "Rechnung 20-0815", 100]]],
          ...(
            [
              [lang === "en" ? "Net total" : "Summe netto", net],
              [vat(19), ta],
              [vat(7), tb],
              [lang === "en" ? "Total amount" : "Gesamtbetrag", total],
              [lang === "en" ? "Paid in advance" : "Bereits gezahlt", paid],
              [lang === "en" ? "Amount due" : "Zahlbetrag", Math.round((total - paid) * 100) / 100],
            ] as Array<[string, number]>
          ).map(([label, v], i): [number, Cell[]] => [
            700 + i * 40,
            [
              [label, 1200],
              [`${fmt(v, lang)} EUR`, 1650],
            ],
          ]),
        ];
        const f = extractFields([page(rows, ocr)], "invoice", defaultProject);
        const got = [f.subtotal_amount?.value, f.tax_amount?.value, f.total_amount?.value];
        expect({ seed, got }).toEqual({ seed, got: [net, tax, total] });
      }
    });
});
