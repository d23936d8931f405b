/**
 * Invoices as other countries' e-invoice viewers print them (fixtures/einvoice-visual abroad family, measured before
 * any change for it: text customer 3/21, vendor 9/21, due date 6/13): the FatturaPA stylesheets' party boxes
 * ("Cedente/prestatore (fornitore)" over "Identificativo fiscale ai fini IVA", "Codice fiscale", "Denominazione"),
 * their riepilogo and payment tables, and Nordic viewers (the buyer's block left of the seller's column, tax rows at
 * two rates whose values OCR reads as another block, a title beside the seller's street). Generated pages.
 */
import { describe, expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { withoutGrainAfterForm } from "../../../src/core/extract/ocr-letters";
import { type Cell, page } from "./page-rows";

type Rows = Array<[number, Cell[]]>;
const fields = (rows: Rows, ocr = false) => {
  const f = extractFields([page(rows, ocr)], "invoice", defaultProject);
  return (k: string) => f[k]?.value ?? null;
};

describe("FatturaPA stylesheets", () => {
  test("the name row of each party box, past its VAT ID and tax code rows; riepilogo totals", () => {
    const v = fields([
      [40, [["Versione FPR12", 60, 14]]],
      [
        80,
        [
          ["Cedente/prestatore (fornitore)", 60],
          ["Cessionario/committente (cliente)", 1060],
        ],
      ],
      [
        110,
        [
          ["Identificativo fiscale ai fini IVA: IT01234567890", 60],
          ["Codice fiscale: RSSMRA80A01H501U", 1060],
        ],
      ],
      [
        140,
        [
          ["Codice fiscale: 01234567890", 60],
          ["Denominazione: Comune di Bologna", 1060],
        ],
      ],
      [
        170,
        [
          ["Denominazione: Officina Bianchi", 60],
          ["Indirizzo: Piazza Maggiore 6", 1060],
        ],
      ],
      [
        200,
        [
          ["Regime fiscale: RF01 (ordinario)", 60],
          ["Comune: Bologna", 1060],
        ],
      ],
      [
        230,
        [
          ["Indirizzo: Via Roma 12", 60],
          ["Cap: 40124", 1060],
        ],
      ],
      [
        300,
        [
          ["Tipologia documento", 60],
          ["Numero documento", 500],
          ["Data documento", 900],
        ],
      ],
      [
        330,
        [
          ["TD01 fattura", 60],
          ["FPR 17/25", 500],
          ["24-04-2025", 900],
        ],
      ],
      [
        600,
        [
          ["Totale imponibile", 1300],
          ["Totale imposta", 1700],
        ],
      ],
      [
        630,
        [
          ["8.870,00", 1300],
          ["1.951,40", 1700],
        ],
      ],
      [700, [["Importo totale documento", 1500]]],
      [730, [["10.821,40", 1700]]],
    ]);
    expect([v("vendor_name"), v("customer_name")]).toEqual(["Officina Bianchi", "Comune di Bologna"]);
    expect([v("invoice_number"), v("invoice_date")]).toEqual(["FPR 17/25", "2025-04-24"]);
    expect([v("subtotal_amount"), v("tax_amount"), v("total_amount")]).toEqual([8870, 1951.4, 10821.4]);
  });

  test("OCR: labels and values as two blocks, a label read with a diacritic; the next row's value is no name", () => {
    const rows: Rows = [
      [100, [["Dati del cessionario / committente", 60]]],
      [130, [["Codice fiscale:", 80]]],
      [160, [["Denominaziöne:", 80]]],
      [190, [["Comune:", 80]]],
      [130, [["RSSMRA80A01H501U", 900]]],
      [160, [["Comune di Bologna", 900]]],
      [190, [["Bologna", 900]]],
      [600, [["Importo totale documento:", 80]]],
      [600, [["1220.00", 900]]],
    ];
    expect(fields(rows, true)("customer_name")).toBe("Comune di Bologna");
  });

  test("OCR: the due date under 'Scadenze' past a speck line, its row read as one skewed line", () => {
    const p = page(
      [
        [
          400,
          [
            ["Modalità pagamento", 100],
            ["IBAN", 600],
            ["Scadenze", 1400],
            ["Importo", 1800],
          ],
        ],
        [418, [["©", 1000]]],
        [
          440,
          [
            ["MP05 bonifico", 100],
            ["IT60X0542811101000000123456", 600],
            ["13-04-2025", 1400],
            ["4.743,75", 1800],
          ],
        ],
      ],
      true,
    );
    // The skewed row's left end stands 30 px higher: its line's box starts above the label's foot.
    for (const w of p.words)
      if (w.line === 2 && w.bounding_box[0] < 700) w.bounding_box = [w.bounding_box[0], 410, w.bounding_box[2], 430];
    expect(extractFields([p], "invoice", defaultProject).due_date?.value).toBe("2025-04-13");
  });
});

describe("Nordic viewers", () => {
  test("OCR: VAT rows at two rates, their values in another block, are one tax; the total is not the balance", () => {
    const labels = [
      "Subtotal ekskl. moms",
      "Moms 19 % (af 578,89)",
      "Moms 7 % (af 108,39)",
      "Total inkl. moms",
      "Forudbetalt",
      "At betale EUR",
    ];
    const values = ["687,28", "109,99", "7,59", "804,86", "1.030,00", "-225,14"];
    const v = fields(
      [
        [60, [["Zimmermann Entsorgung e.K.", 1100, 26]]],
        ...labels.map((l, i): [number, Cell[]] => [600 + 30 * i, [[l, 1000]]]),
        ...values.map((x, i): [number, Cell[]] => [600 + 30 * i, [[x, 1800]]]),
      ],
      true,
    );
    expect([v("subtotal_amount"), v("tax_amount"), v("total_amount")]).toEqual([687.28, 117.58, 804.86]);
  });

  test("OCR: the buyer's block left of a seller column reaching further down is the customer's", () => {
    const v = fields(
      [
        [60, [["FAKTURA", 100, 36]]],
        [50, [["Lorenz Entsorgung KG", 1100, 22]]],
        [80, [["Am Marktplatz 83", 1100]]],
        [105, [["12345 Heilbronn", 1100]]],
        [130, [["DE", 1100]]],
        [155, [["CVR-nr. 79561447", 1100]]],
        [180, [["Tlf. +49 12 3456", 1100]]],
        [150, [["Gemeindewerke Mannheim", 100, 24]]],
        [180, [["Att: Michael Lange", 100, 24]]],
        [210, [["Kirchplatz 4", 100, 24]]],
        [240, [["12345 Mannheim", 100, 24]]],
      ],
      true,
    );
    expect([v("vendor_name"), v("customer_name")]).toEqual(["Lorenz Entsorgung KG", "Gemeindewerke Mannheim"]);
  });

  test("a title joined with the seller's street is no letterhead; an information block's rows are no address", () => {
    const v = fields([
      [40, [["Betriebsstätte Nord", 1100, 24]]],
      [
        70,
        [
          ["FAKTURA", 100, 36],
          ["Am Marktplatz 32", 1100],
        ],
      ],
      [95, [["12345 Heilbronn", 1100]]],
      [200, [["Fakturanummer 1234567890", 100]]],
      [225, [["Fakturadato 25.01.2021", 100]]],
      [250, [["Kundenummer 9694", 100]]],
      [330, [["Stadtverwaltung Potsdam", 100]]],
      [355, [["Mühlenweg 32", 100]]],
      [380, [["12345 Potsdam", 100]]],
    ]);
    expect([v("vendor_name"), v("customer_name")]).toEqual(["Betriebsstätte Nord", "Stadtverwaltung Potsdam"]);
  });
});

test("grain read as a short word after a legal form is dropped; a name's own short words stay", () => {
  expect(withoutGrainAfterForm("Krüger Elektrotechnik GmbH & Co. KG oa")).toBe("Krüger Elektrotechnik GmbH & Co. KG");
  expect(withoutGrainAfterForm("Rossi Impianti S.r.l. ii")).toBe("Rossi Impianti S.r.l.");
  expect(withoutGrainAfterForm("Casa de la")).toBe("Casa de la");
  expect(withoutGrainAfterForm("Hansen AS")).toBe("Hansen AS");
});
