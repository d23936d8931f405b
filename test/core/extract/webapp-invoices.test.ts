/**
 * Failure classes the web-invoicing family of the visual e-invoice corpus (fixtures/einvoice-visual/webapp.ts, Polish,
 * Dutch and Spanish software) showed at first sight, each on generated pages, as a text layer and as OCR lines:
 * - a table's summary row ("Razem: net X VAT gross") under stacked column headers ("Wartość" over "netto") gives the
 *   subtotal, tax and total by column;
 * - letters with a stroke fold to their base letter ("Termin platnosci" is "Termin płatności");
 * - an IBAN in a sentence keeps no comma after its last group ("… cuenta DE89 3704 0044 0532 0130 00, indicando").
 */
import { describe, expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { fold } from "../../../src/core/extract/fuzzy";
import { type Cell, page } from "./page-rows";

const HEAD: Array<[number, Cell[]]> = [
  [60, [["Faktura VAT nr FV/2025/03/0142", 300]]],
  [120, [["Data wystawienia: 2025-03-14", 1100]]],
  [
    200,
    [
      ["Sprzedawca:", 100],
      ["Nabywca:", 1100],
    ],
  ],
  [
    222,
    [
      ["Nowak Software Sp. z o.o.", 100],
      ["Kowalski Logistyka S.A.", 1100],
    ],
  ],
];

/** A Polish invoice: a three-line table header, two positions, "Razem" and "W tym", and no labelled sums. */
function polish(ocr: boolean) {
  const rows: Array<[number, Cell[]]> = [
    ...HEAD,
    [
      300,
      [
        ["Cena", 600],
        ["Wartość", 760],
        ["Stawka", 920],
        ["Kwota", 1080],
        ["Wartość", 1240],
      ],
    ],
    [
      320,
      [
        ["Lp.", 100],
        ["Nazwa towaru lub usługi", 160],
        ["Ilość", 480],
      ],
    ],
    [
      340,
      [
        ["netto", 600],
        ["netto", 760],
        ["VAT", 920],
        ["VAT", 1080],
        ["brutto", 1240],
      ],
    ],
    [
      380,
      [
        ["1", 100],
        ["Usługa programistyczna", 160],
        ["10", 480],
        ["100,00", 600],
        ["1 000,00", 760],
        ["23%", 920],
        ["230,00", 1080],
        ["1 230,00", 1240],
      ],
    ],
    [
      410,
      [
        ["2", 100],
        ["Licencja", 160],
        ["1", 480],
        ["234,56", 600],
        ["234,56", 760],
        ["23%", 920],
        ["53,95", 1080],
        ["288,51", 1240],
      ],
    ],
  ];
  // A charges row between the table and its sums: only its label stands over the VAT column.
  rows.push([
    430,
    [
      ["Koszty dodatkowe:", 1040],
      ["0,00", 1240],
    ],
  ]);
  rows.push([
    450,
    [
      ["Razem:", 560],
      ["1 234,56", 760],
      ["X", 920],
      ["283,95", 1080],
      ["1 518,51", 1240],
    ],
  ]);
  rows.push([
    472,
    [
      ["W tym:", 560],
      ["1 234,56", 760],
      ["23%", 920],
      ["283,95", 1080],
      ["1 518,51", 1240],
    ],
  ]);
  return extractFields([page(rows, ocr)], "invoice", defaultProject);
}

describe("web-invoicing software of other countries", () => {
  for (const ocr of [false, true]) {
    const kind = ocr ? "OCR" : "text";
    test(`${kind}: the summary row's amounts go by their column's stacked header`, () => {
      const f = polish(ocr);
      expect(f.subtotal_amount?.value).toBe(1234.56);
      expect(f.tax_amount?.value).toBe(283.95);
      expect(f.total_amount?.value).toBe(1518.51);
      expect(f.subtotal_amount?.reasoning).toContain("summary row");
      expect(f.tax_amount?.reasoning).toContain('column "Kwota VAT"');
    });

    test(`${kind}: a "Total" row with one named column is a table's own sum, no summary row`, () => {
      const rows: Array<[number, Cell[]]> = [
        ...HEAD,
        [
          300,
          [
            ["Qty", 100],
            ["Description", 200],
            ["Price", 800],
            ["Total", 1100],
          ],
        ],
        [
          340,
          [
            ["3", 100],
            ["Widgets", 200],
            ["50,00", 800],
            ["150,00", 1100],
          ],
        ],
        [
          380,
          [
            ["Total", 600],
            ["3", 700],
            ["150,00", 1100],
          ],
        ],
        [
          420,
          [
            ["VAT 20%", 800],
            ["30,00", 1100],
          ],
        ],
        [
          460,
          [
            ["Grand total", 800],
            ["180,00", 1100],
          ],
        ],
      ];
      const f = extractFields([page(rows, ocr)], "invoice", defaultProject);
      expect(f.total_amount?.value).toBe(180);
      expect(f.total_amount?.reasoning).not.toContain("summary row");
    });

    test(`${kind}: VAT rows at two rates, each value in a block of its own right of its label, sum to the tax`, () => {
      const rows: Array<[number, Cell[]]> = [...HEAD];
      const sums: Array<[string, string]> = [
        ["Base imponible", "687,28 €"],
        ["IVA 19%", "109,99 €"],
        ["IVA 7%", "7,59 €"],
        ["Total factura", "804,86 €"],
      ];
      sums.forEach(([label, value], i) => rows.push([400 + 30 * i, [[label, 900]]], [400 + 30 * i, [[value, 1400]]]));
      const f = extractFields([page(rows, ocr)], "invoice", defaultProject);
      expect([f.subtotal_amount?.value, f.tax_amount?.value, f.total_amount?.value]).toEqual([687.28, 117.58, 804.86]);
    });

    test(`${kind}: "Termin platnosci" printed without its ł is the due-date label`, () => {
      const rows: Array<[number, Cell[]]> = [
        ...HEAD,
        [300, [["Termin platnosci: 2025-03-28", 100]]],
        [340, [["Do zaplaty: 1 518,51 PLN", 100]]],
      ];
      expect(extractFields([page(rows, ocr)], "invoice", defaultProject).due_date?.value).toBe("2025-03-28");
    });

    test(`${kind}: an IBAN in a sentence, a comma after its last group`, () => {
      const rows: Array<[number, Cell[]]> = [
        ...HEAD,
        [300, [["Total factura 1.518,51 €", 900]]],
        [360, [["Rogamos realicen el pago mediante transferencia a la cuenta DE89 3704 0044 0532 0130 00,", 100]]],
        [382, [["indicando el número de factura 0142.", 100]]],
      ];
      expect(extractFields([page(rows, ocr)], "invoice", defaultProject).iban?.value).toBe("DE89370400440532013000");
    });
  }

  test("fold: letters with a stroke become their base letter, offsets kept", () => {
    expect(fold("Termin płatności")).toBe("Termin platnosci");
    expect(fold("Forfallsdato Å betale Bølgen")).toBe("Forfallsdato A betale Bolgen");
    expect(fold("ŁÓDŹ").length).toBe(4);
  });
});
