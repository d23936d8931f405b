/**
 * Parties on small-business templates (fixtures/smallbiz measured them first): the firm named in a signature block
 * ("For Kelly Electrical Pty Ltd / Authorised Signatory") is the vendor without its "For", and a freelancer's
 * "Invoice for" heading, with the invoice data beside it, names the customer under it. Text layer and OCR lines.
 */
import { expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { type Cell, page } from "./page-rows";

type Rows = Array<[number, Cell[]]>;

for (const ocr of [false, true]) {
  const how = ocr ? "OCR lines" : "text layer";

  test(`${how}: "For <firm>" over "Authorised Signatory" names the vendor without its "For"`, () => {
    const rows: Rows = [
      [60, [["TAX INVOICE", 700, 30]]],
      [
        200,
        [
          ["Invoice To:", 100],
          ["Invoice No.", 1100],
          [": 2025-031", 1300],
        ],
      ],
      [230, [["Summit Fitness Studio", 100]]],
      [260, [["12 Beach Road", 100]]],
      [290, [["Bondi NSW 2026", 100]]],
      [
        600,
        [
          ["Subtotal", 1100],
          ["$1,000.00", 1600],
        ],
      ],
      [
        630,
        [
          ["GST", 1100],
          ["$100.00", 1600],
        ],
      ],
      [
        660,
        [
          ["Total", 1100],
          ["$1,100.00", 1600],
        ],
      ],
      [800, [["Direct deposit: BSB 467-448, Acc 55038332.", 100]]],
      [900, [["For Kelly Electrical Pty Ltd", 1100]]],
      [1000, [["Authorised Signatory", 1200]]],
    ];
    const f = extractFields([page(rows, ocr)], "invoice", defaultProject);
    expect(f.vendor_name?.value).toBe("Kelly Electrical Pty Ltd");
  });

  test(`${how}: an "Invoice for" heading beside the invoice data names the customer under it`, () => {
    const rows: Rows = [
      [60, [["James Sinclair", 100, 40]]],
      [110, [["Bookkeeping Services", 100, 22]]],
      [140, [["james@jamessinclair.co.uk", 100]]],
      [220, [["Invoice", 100, 30]]],
      [
        300,
        [
          ["Invoice for", 100],
          ["Invoice no.", 1000],
          ["Issue date", 1400],
        ],
      ],
      [
        330,
        [
          ["Blue Gum Property Management", 100],
          ["00907", 1000],
          ["14 December 2024", 1400],
        ],
      ],
      [360, [["310 King Street", 100]]],
      [390, [["Leeds LS2 1WJ", 100]]],
      [
        600,
        [
          ["Total due", 1100],
          ["£1,250.00", 1600],
        ],
      ],
    ];
    const f = extractFields([page(rows, ocr)], "invoice", defaultProject);
    expect(f.customer_name?.value).toBe("Blue Gum Property Management");
  });
}

for (const ocr of [false, true]) {
  const how = ocr ? "OCR lines" : "text layer";

  test(`${how}: on a payment slip, "Invoice Number 1980" under "Customer   Te Awa Early Learning" is no customer`, () => {
    const rows: Rows = [
      [60, [["PAYMENT ADVICE", 100, 30]]],
      [
        200,
        [
          ["To: Tui Plumbing & Drainage Limited", 100],
          ["Customer", 1000],
          ["Te Awa Early Learning", 1400],
        ],
      ],
      [
        230,
        [
          ["74 Dominion Road", 160],
          ["Invoice Number", 1000],
          ["1980", 1400],
        ],
      ],
      [
        260,
        [
          ["Te Aro", 160],
          ["Amount Due", 1000],
          ["3,385.60", 1400],
        ],
      ],
    ];
    const f = extractFields([page(rows, ocr)], "invoice", defaultProject);
    expect(f.customer_name?.value ?? null).toBe("Te Awa Early Learning");
  });
}
