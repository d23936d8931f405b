import { describe, expect, test } from "bun:test";
import type { Box, FieldResult, Page, Word } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { boxesOf, pageLines, spanOf } from "../../../src/core/extract/lines";
import { cii } from "../einvoice/fixtures";

/** A page from rows of [text, x] words: one row per line, 30 px apart, 10 px per character. */
function page(rows: Array<Array<[string, number]>>, opts: { page_number?: number; confidence?: number } = {}): Page {
  const words: Word[] = [];
  rows.forEach((row, line) => {
    for (const [text, x] of row) {
      for (const [i, part] of text.split(" ").entries()) {
        const offset = text.split(" ").slice(0, i).join(" ").length + (i ? 1 : 0);
        const x1 = x + offset * 10;
        words.push({
          text: part,
          confidence: opts.confidence ?? 1,
          bounding_box: [x1, 100 + line * 30, x1 + part.length * 10, 120 + line * 30],
          line,
        });
      }
    }
  });
  return {
    page_number: opts.page_number ?? 1,
    source_file_index: 0,
    source_filename: "t.pdf",
    source_file_page_number: 1,
    image_transform: {
      rasterized_width: 2000,
      rasterized_height: 3000,
      source_width: 1000,
      source_height: 1500,
      source_unit: "point",
      render_scale: 2,
      effective_dpi: 144,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
    text_source: "text_layer",
    words,
    text: rows.map((r) => r.map(([t]) => t).join(" ")).join("\n"),
    ocr_confidence: opts.confidence ?? 1,
  };
}

const boxOfWords = (p: Page, texts: string[]): Box => {
  const ws = p.words.filter((w) => texts.includes(w.text));
  return [
    Math.min(...ws.map((w) => w.bounding_box[0])),
    Math.min(...ws.map((w) => w.bounding_box[1])),
    Math.max(...ws.map((w) => w.bounding_box[2])),
    Math.max(...ws.map((w) => w.bounding_box[3])),
  ];
};

const invoicePage = (n = 1, confidence = 1) =>
  page(
    [
      [["ACME Widgets GmbH", 100]],
      [["Musterstraße 5", 100]],
      [["10115 Berlin", 100]],
      [["INVOICE", 800]],
      [
        ["Invoice No: INV-2024-0042", 100],
        ["Invoice Date", 800],
        ["Due Date", 1000],
      ],
      [
        ["12.03.2024", 800],
        ["26.03.2024", 1000],
      ],
      [
        ["Description", 100],
        ["Qty", 700],
        ["Unit Price", 850],
        ["Amount", 1100],
      ],
      [
        ["Consulting services", 100],
        ["2", 700],
        ["100,00", 850],
        ["200,00", 1100],
      ],
      [["March 2024, on site", 100]],
      [
        ["Travel expenses", 100],
        ["1", 700],
        ["50,00", 850],
        ["50,00", 1100],
      ],
      [
        ["Subtotal", 800],
        ["250,00", 1100],
      ],
      [
        ["VAT 19%", 800],
        ["47,50", 1100],
      ],
      [
        ["Total EUR", 800],
        ["297,50", 1100],
      ],
      [
        ["IBAN DE89 3704 0044 0532 0130 00", 100],
        ["USt-IdNr. DE 123 456 789", 900],
      ],
    ],
    { page_number: n, confidence },
  );

describe("extractFields on word geometry", () => {
  const p = invoicePage(3);
  const f = extractFields([p], "invoice", defaultProject);

  test("reads a value right of its label and boxes exactly its words on the transaction page", () => {
    expect(f.invoice_number!.value).toBe("INV-2024-0042");
    expect(f.invoice_number!.bounding_boxes).toEqual([
      { page_index: 3, coordinates: boxOfWords(p, ["INV-2024-0042"]) },
    ]);
    expect(f.invoice_number!.reasoning).toContain('label "Invoice No"');
    expect(f.invoice_number!.is_confirmed).toBeNull();
  });

  test("reads values below their labels in a header row", () => {
    expect(f.invoice_date!.value).toBe("2024-03-12");
    expect(f.due_date!.value).toBe("2024-03-26");
    expect(f.invoice_date!.reasoning).toContain("below");
    expect(f.due_date!.bounding_boxes[0]!.coordinates).toEqual(boxOfWords(p, ["26.03.2024"]));
  });

  test("reads amounts, currency, IBAN spread over words and the VAT ID", () => {
    expect(f.subtotal_amount!.value).toBe(250);
    expect(f.tax_amount!.value).toBe(47.5);
    expect(f.total_amount!.value).toBe(297.5);
    expect(f.currency!.value).toBe("EUR");
    expect(f.iban!.value).toBe("DE89370400440532013000");
    expect(f.iban!.bounding_boxes[0]!.coordinates).toEqual(
      boxOfWords(p, ["DE89", "3704", "0044", "0532", "0130", "00"]),
    );
    expect(f.vendor_vat_id!.value).toBe("DE123456789");
    expect(f.vendor_name!.value).toBe("ACME Widgets GmbH");
  });

  test("reads line items with a two-line description", () => {
    expect(f.line_items!.value).toEqual([
      { description: "Consulting services\nMarch 2024, on site", quantity: 2, unit_price: 100, amount: 200 },
      { description: "Travel expenses", quantity: 1, unit_price: 50, amount: 50 },
    ]);
  });

  test("every field from a page has confidence in 0..1 and review flags by the project threshold", () => {
    for (const r of Object.values(f)) {
      expect(r.confidence).toBeGreaterThanOrEqual(0);
      expect(r.confidence).toBeLessThanOrEqual(1);
      expect(r.review_required).toBe(
        r.value === null
          ? defaultProject.fields.invoice!.find((x) => x.name === r.name)!.required
          : r.confidence < defaultProject.review_thresholds.field,
      );
    }
  });

  test("low OCR word confidence lowers field confidence and asks for review", () => {
    const shaky = extractFields([invoicePage(1, 0.3)], "invoice", defaultProject);
    expect(shaky.invoice_number!.value).toBe("INV-2024-0042");
    expect(shaky.invoice_number!.confidence).toBeLessThan(f.invoice_number!.confidence);
    expect(shaky.invoice_number!.review_required).toBe(true);
  });

  test("a credit note reports its amounts below zero", () => {
    const credit = extractFields([invoicePage()], "credit_note", defaultProject);
    expect(credit.total_amount!.value).toBe(-297.5);
    expect((credit.line_items!.value as Array<Record<string, unknown>>)[0]!.amount).toBe(-200);
    expect((credit.line_items!.value as Array<Record<string, unknown>>)[0]!.quantity).toBe(2);
  });

  test("fields not found are null with confidence 0; required ones ask for review", () => {
    const empty = extractFields([page([[["Hello world", 100]]])], "invoice", defaultProject);
    expect(empty.invoice_number).toMatchObject({
      value: null,
      confidence: 0,
      bounding_boxes: [],
      review_required: true,
    });
    expect(empty.due_date).toMatchObject({ value: null, review_required: false });
  });

  test("pages without words and unknown classes give no crash", () => {
    expect(Object.keys(extractFields([page([])], "invoice", defaultProject)).length).toBe(
      defaultProject.fields.invoice!.length,
    );
    expect(extractFields([page([])], "no_such_class", defaultProject)).toEqual({});
  });

  test("a field on the second page of a document carries that page's number", () => {
    const first = page([[["Cover letter", 100]]], { page_number: 7 });
    const second = invoicePage(8);
    const r: Record<string, FieldResult> = extractFields([first, second], "invoice", defaultProject);
    expect(r.total_amount!.bounding_boxes[0]!.page_index).toBe(8);
  });
});

const ubl = `<?xml version="1.0" encoding="UTF-8"?>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ID>UBL-99</cbc:ID><cbc:IssueDate>2024-05-01</cbc:IssueDate><cbc:DueDate>2024-05-31</cbc:DueDate><cbc:DocumentCurrencyCode>CHF</cbc:DocumentCurrencyCode>
  <cac:AccountingSupplierParty><cac:Party><cac:PartyName><cbc:Name>Seller SA</cbc:Name></cac:PartyName></cac:Party></cac:AccountingSupplierParty>
  <cac:PaymentMeans><cac:PayeeFinancialAccount><cbc:ID>CH9300762011623852957</cbc:ID></cac:PayeeFinancialAccount></cac:PaymentMeans>
  <cac:TaxTotal><cbc:TaxAmount currencyID="CHF">8.10</cbc:TaxAmount></cac:TaxTotal>
  <cac:LegalMonetaryTotal><cbc:TaxExclusiveAmount currencyID="CHF">100.00</cbc:TaxExclusiveAmount><cbc:TaxInclusiveAmount currencyID="CHF">108.10</cbc:TaxInclusiveAmount><cbc:PayableAmount currencyID="CHF">108.10</cbc:PayableAmount></cac:LegalMonetaryTotal>
</Invoice>`;

describe("native e-invoices", () => {
  const enc = (s: string) => new TextEncoder().encode(s);

  test("reads CII (ZUGFeRD/Factur-X) fields first, with confidence 1, boxed where the page prints them", () => {
    const pageOf = invoicePage();
    const f = extractFields([pageOf], "invoice", defaultProject, {
      attachments: [{ filename: "factur-x.xml", data: enc(cii) }],
    });
    expect(f.invoice_number).toMatchObject({ value: "RE-4711", confidence: 1, review_required: false });
    // The XML's date is printed on the page (as 12.03.2024): its box is the word printing it.
    const printed = pageOf.words.filter((w) => w.text === "12.03.2024");
    expect(printed.length).toBe(1);
    expect(f.invoice_date!.bounding_boxes).toEqual([{ page_index: 1, coordinates: printed[0]!.bounding_box }]);
    expect(f.invoice_date!.reasoning).toMatch(/XML .*printed on page 1/);
    // The XML's number and customer are not printed on this page: no box is made up for them.
    expect(f.invoice_number!.bounding_boxes).toEqual([]);
    expect(f.customer_name!.bounding_boxes).toEqual([]);
    expect(f.invoice_date!.value).toBe("2024-03-12");
    expect(f.total_amount!.value).toBe(35.7);
    expect(f.tax_amount!.value).toBe(5.7);
    expect(f.vendor_vat_id!.value).toBe("DE123456789");
    expect(f.customer_name!.value).toBe("Kunde AG");
    expect(f.line_items!.value).toEqual([{ description: "Widget", quantity: 3, unit_price: 10, amount: 30 }]);
    expect(f.invoice_number!.reasoning).toContain("CII");
    // Fields the XML lacks still come from the page.
    expect(f.iban!.value).toBe("DE89370400440532013000");
    expect(f.iban!.bounding_boxes.length).toBe(1);
  });

  test("reads ZUGFeRD 1.0 (CrossIndustryDocument, the older CII element names)", () => {
    const zugferd1 = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
  <rsm:HeaderExchangedDocument><ram:ID>Z1-2014-007</ram:ID><ram:TypeCode>380</ram:TypeCode><ram:IssueDateTime><udt:DateTimeString format="102">20140507</udt:DateTimeString></ram:IssueDateTime></rsm:HeaderExchangedDocument>
  <rsm:SpecifiedSupplyChainTradeTransaction>
    <ram:ApplicableSupplyChainTradeAgreement>
      <ram:SellerTradeParty><ram:Name>Alt Lieferant GmbH</ram:Name><ram:SpecifiedTaxRegistration><ram:ID schemeID="VA">DE232446240</ram:ID></ram:SpecifiedTaxRegistration></ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>Alt Kunde KG</ram:Name></ram:BuyerTradeParty>
    </ram:ApplicableSupplyChainTradeAgreement>
    <ram:ApplicableSupplyChainTradeSettlement>
      <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
      <ram:SpecifiedTradeSettlementPaymentMeans><ram:PayeePartyCreditorFinancialAccount><ram:IBANID>DE30507500940000048567</ram:IBANID></ram:PayeePartyCreditorFinancialAccount></ram:SpecifiedTradeSettlementPaymentMeans>
      <ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount>29.18</ram:LineTotalAmount><ram:TaxBasisTotalAmount>29.18</ram:TaxBasisTotalAmount><ram:TaxTotalAmount currencyID="EUR">5.55</ram:TaxTotalAmount><ram:GrandTotalAmount>34.73</ram:GrandTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation>
    </ram:ApplicableSupplyChainTradeSettlement>
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:SpecifiedSupplyChainTradeAgreement><ram:NetPriceProductTradePrice><ram:ChargeAmount>29.18</ram:ChargeAmount></ram:NetPriceProductTradePrice></ram:SpecifiedSupplyChainTradeAgreement>
      <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">1</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
      <ram:SpecifiedSupplyChainTradeSettlement><ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount>29.18</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation></ram:SpecifiedSupplyChainTradeSettlement>
      <ram:SpecifiedTradeProduct><ram:Name>Hosting</ram:Name></ram:SpecifiedTradeProduct>
    </ram:IncludedSupplyChainTradeLineItem>
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">0</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
      <ram:SpecifiedTradeProduct><ram:Name>--- Hinweis: Leistungszeitraum Mai ---</ram:Name></ram:SpecifiedTradeProduct>
    </ram:IncludedSupplyChainTradeLineItem>
  </rsm:SpecifiedSupplyChainTradeTransaction>
</rsm:CrossIndustryDocument>`;
    const f = extractFields([page([])], "invoice", defaultProject, {
      attachments: [{ filename: "ZUGFeRD-invoice.xml", data: enc(zugferd1) }],
    });
    expect(f.invoice_number!.value).toBe("Z1-2014-007");
    expect(f.invoice_date!.value).toBe("2014-05-07");
    expect(f.vendor_name!.value).toBe("Alt Lieferant GmbH");
    expect(f.vendor_vat_id!.value).toBe("DE232446240");
    expect(f.customer_name!.value).toBe("Alt Kunde KG");
    expect(f.iban!.value).toBe("DE30507500940000048567");
    expect([f.subtotal_amount!.value, f.tax_amount!.value, f.total_amount!.value]).toEqual([29.18, 5.55, 34.73]);
    // The note line (quantity 0, no amount) is no line item.
    expect(f.line_items!.value).toEqual([{ description: "Hosting", quantity: 1, unit_price: 29.18, amount: 29.18 }]);
    expect(f.total_amount!.reasoning).toContain("CII");
  });

  test("reads UBL (XRechnung) fields", () => {
    const f = extractFields([page([])], "invoice", defaultProject, {
      attachments: [{ filename: "xrechnung.xml", data: enc(ubl) }],
    });
    expect(f.invoice_number!.value).toBe("UBL-99");
    expect(f.due_date!.value).toBe("2024-05-31");
    expect(f.currency!.value).toBe("CHF");
    expect(f.total_amount!.value).toBe(108.1);
    expect(f.subtotal_amount!.value).toBe(100);
    expect(f.iban!.value).toBe("CH9300762011623852957");
    expect(f.vendor_name!.value).toBe("Seller SA");
  });

  test("a broken or foreign XML attachment falls back to the pages", () => {
    const f = extractFields([invoicePage()], "invoice", defaultProject, {
      attachments: [
        { filename: "a.xml", data: enc("<broken><") },
        { filename: "b.xml", data: enc("<root><x/></root>") },
      ],
    });
    expect(f.invoice_number!.value).toBe("INV-2024-0042");
  });
});

describe("project hints", () => {
  test("a configured pattern finds an unlabelled value, and the expected region breaks ties between candidates", async () => {
    const { parseProjectSettings } = await import("../../../src/core/project");
    const project = parseProjectSettings({
      ...defaultProject,
      classes: [{ id: "memo", name: "Memo" }],
      fields: {
        memo: [
          {
            id: "ref",
            name: "Reference",
            type: "string",
            hints: { patterns: ["REF-(\\d{4})"], expected_region: [0, 0.5, 1, 1] },
          },
        ],
      },
      validation_rules: [],
    });
    const p = page([
      [["Top REF-1111", 100]],
      ...Array.from({ length: 60 }, () => [["filler text", 100]] as Array<[string, number]>),
      [["Bottom REF-2222", 100]],
    ]);
    const f = extractFields([p], "memo", project);
    expect(f.ref!.value).toBe("2222");
    expect(f.ref!.reasoning).toContain("in the expected region");
    expect(f.ref!.bounding_boxes[0]!.coordinates).toEqual(boxOfWords(p, ["REF-2222"]));
  });
});

describe("OCR pages", () => {
  test("labels with one OCR error still match on OCR pages, at lower confidence, and never on text layers", () => {
    const rows: Array<Array<[string, number]>> = [[["lnvoice Number: 5512", 100]], [["Tota1 EUR 99,50", 100]]];
    const ocr = { ...page(rows, { confidence: 0.9 }), text_source: "ocr" as const };
    const f = extractFields([ocr], "invoice", defaultProject);
    expect(f.invoice_number!.value).toBe("5512");
    expect(f.invoice_number!.reasoning).toContain('read as "invoice number"');
    expect(f.total_amount!.value).toBe(99.5);
    const exact = extractFields(
      [{ ...page([[["Invoice Number: 5512", 100]]], { confidence: 0.9 }), text_source: "ocr" }],
      "invoice",
      defaultProject,
    );
    expect(f.invoice_number!.confidence).toBeLessThan(exact.invoice_number!.confidence);
    const layer = extractFields([page(rows)], "invoice", defaultProject);
    expect(layer.invoice_number!.value).toBeNull();
  });
});

describe("contact recognisers", () => {
  test("e-mail and phone fields are found without labels and normalised", async () => {
    const { parseProjectSettings } = await import("../../../src/core/project");
    const project = parseProjectSettings({
      ...defaultProject,
      classes: [{ id: "letter", name: "Letter" }],
      fields: {
        letter: [
          { id: "email", name: "E-mail", type: "string", hints: { recognizer: "email" } },
          { id: "phone", name: "Phone", type: "string", hints: { recognizer: "phone", labels: ["tel", "phone"] } },
        ],
      },
      validation_rules: [],
    });
    const p = page([
      [["Dear Sir,", 100]],
      [["write to Info@Example.COM or", 100]],
      [["Tel. +49 (0)30 1234 5678", 100]],
    ]);
    const f = extractFields([p], "letter", project);
    expect(f.email!.value).toBe("info@example.com");
    expect(f.email!.bounding_boxes[0]!.coordinates).toEqual(boxOfWords(p, ["Info@Example.COM"]));
    expect(f.phone!.value).toBe("+493012345678");
    expect(f.phone!.reasoning).toContain('label "Tel."');
  });
});

describe("rotated pages", () => {
  /** The invoice page as a scan lying on its side: boxes on the un-rotated raster, rotation says turn 90/180/270. */
  function turned(rotation: 90 | 180 | 270): Page {
    const upright = invoicePage(1, 0.95);
    const [W, H] = [upright.image_transform.rasterized_width, upright.image_transform.rasterized_height];
    // Inverse of the upright mapping: where an upright box lies on the raster that must be turned `rotation`.
    const back = (b: Box): Box =>
      rotation === 90
        ? [b[1], W - b[2], b[3], W - b[0]]
        : rotation === 180
          ? [W - b[2], H - b[3], W - b[0], H - b[1]]
          : [H - b[3], b[0], H - b[1], b[2]];
    const rasterW = rotation === 180 ? W : H;
    const rasterH = rotation === 180 ? H : W;
    const raster = { ...upright.image_transform, rasterized_width: rasterW, rasterized_height: rasterH, rotation };
    const words = upright.words.map((w) => ({ ...w, bounding_box: back(w.bounding_box) }));
    return { ...upright, text_source: "ocr", image_transform: raster, words };
  }

  for (const rotation of [90, 180, 270] as const) {
    test(`reads labels right of and above values on a page turned ${rotation}°, reporting un-rotated boxes`, () => {
      const p = turned(rotation);
      const { rasterized_width: rw, rasterized_height: rh } = p.image_transform;
      expect(
        p.words.every(
          (w) => w.bounding_box[0] >= 0 && w.bounding_box[1] >= 0 && w.bounding_box[2] <= rw && w.bounding_box[3] <= rh,
        ),
      ).toBe(true);
      const f = extractFields([p], "invoice", defaultProject);
      expect(f.invoice_number!.value).toBe("INV-2024-0042");
      expect(f.due_date!.value).toBe("2024-03-26");
      expect(f.total_amount!.value).toBe(297.5);
      expect((f.line_items!.value as unknown[]).length).toBe(2);
      expect(f.invoice_number!.bounding_boxes[0]!.coordinates).toEqual(boxOfWords(p, ["INV-2024-0042"]));
    });
  }
});

describe("fallbacks", () => {
  test("without a total label the largest amount is the total, flagged for review", () => {
    const p = page([
      [
        ["Widgets 3 x 10,00", 100],
        ["30,00", 900],
      ],
      [
        ["Gadgets 1 x 5,00", 100],
        ["5,00", 900],
      ],
      [["35,00 EUR", 900]],
    ]);
    const f = extractFields([p], "invoice", defaultProject);
    expect(f.total_amount!.value).toBe(35);
    expect(f.total_amount!.reasoning).toContain("largest amount");
    expect(f.total_amount!.review_required).toBe(true);
  });
});

describe("currency without a printed currency", () => {
  test("is inferred from the IBAN's country at low confidence, boxed like the IBAN", () => {
    const p = page([[["Invoice No: 77", 100]], [["Total 120,00", 100]], [["IBAN NL91 ABNA 0417 1643 00", 100]]]);
    const f = extractFields([p], "invoice", defaultProject);
    expect(f.currency!.value).toBe("EUR");
    expect(f.currency!.confidence).toBe(0.4);
    expect(f.currency!.reasoning).toContain("IBAN");
    expect(f.currency!.bounding_boxes).toEqual(f.iban!.bounding_boxes);
  });
});

describe("enum and boolean fields", () => {
  test("an enum takes a labelled allowed value, else one printed anywhere; a boolean reads yes/no", async () => {
    const { parseProjectSettings } = await import("../../../src/core/project");
    const project = parseProjectSettings({
      ...defaultProject,
      classes: [{ id: "form", name: "Form" }],
      fields: {
        form: [
          {
            id: "method",
            name: "Payment method",
            type: "enum",
            values: ["SEPA", "Card", "Cash"],
            hints: { labels: ["payment method"] },
          },
          { id: "plan", name: "Plan", type: "enum", values: ["Basic", "Premium"] },
          { id: "signed", name: "Signed", type: "boolean", hints: { labels: ["signed"] } },
        ],
      },
      validation_rules: [],
    });
    const p = page([[["Payment method: card", 100]], [["Your premium plan renews", 100]], [["Signed: yes", 100]]]);
    const f = extractFields([p], "form", project);
    expect(f.method!.value).toBe("Card");
    expect(f.plan!.value).toBe("Premium");
    expect(f.plan!.confidence).toBeLessThan(f.method!.confidence);
    expect(f.signed!.value).toBe(true);
  });
});

describe("arithmetic reconciliation", () => {
  test("when subtotal + tax misses the total, the candidates that add up win and say why", () => {
    const p = page([
      [["Invoice No: 9", 100]],
      [
        ["Subtotal", 800],
        ["€ 300,00", 1100],
      ],
      [
        ["Net amount", 800],
        ["€ 252,10", 1100],
      ],
      [
        ["VAT 19%", 800],
        ["€ 47,90", 1100],
      ],
      [
        ["Total", 800],
        ["€ 300,00", 1100],
      ],
    ]);
    const f = extractFields([p], "invoice", defaultProject);
    expect(f.subtotal_amount!.value).toBe(252.1);
    expect(f.subtotal_amount!.reasoning).toContain("chosen so that subtotal_amount + tax_amount = total_amount");
    // The box covers the currency sign and the number of the "Net amount" line (line 2), nothing else.
    const netLine = p.words
      .filter((w) => w.line === 2 && (w.text === "€" || w.text === "252,10"))
      .map((w) => w.bounding_box);
    expect(f.subtotal_amount!.bounding_boxes[0]!.coordinates).toEqual([
      netLine[0]![0],
      netLine[0]![1],
      netLine[1]![2],
      netLine[1]![3],
    ]);
    expect(f.tax_amount!.value).toBe(47.9);
    expect(f.total_amount!.value).toBe(300);
  });

  test("a credit note reconciles on the printed values and then reports them negative", () => {
    const p = page([
      [["Subtotal 300,00", 100]],
      [["Net amount 252,10", 100]],
      [["VAT 47,90", 100]],
      [["Total 300,00", 100]],
    ]);
    const f = extractFields([p], "credit_note", defaultProject);
    expect([f.subtotal_amount!.value, f.tax_amount!.value, f.total_amount!.value]).toEqual([-252.1, -47.9, -300]);
  });
});

describe("table headers", () => {
  test("a tax column header is no tax label: the line item under it is not the document's tax", () => {
    const p = page([
      [["Invoice No: 31", 100]],
      [
        ["Description", 100],
        ["Qty", 600],
        ["Price", 750],
        ["VAT", 900],
        ["Amount", 1100],
      ],
      [
        ["Hosting", 100],
        ["1", 600],
        ["3,89", 750],
        ["0,74", 900],
        ["3,89", 1100],
      ],
      [
        ["Total EUR", 800],
        ["3,89", 1100],
      ],
    ]);
    const f = extractFields([p], "invoice", defaultProject);
    expect(f.tax_amount!.value).toBeNull();
    expect(f.total_amount!.value).toBe(3.89);
    expect((f.line_items!.value as unknown[]).length).toBe(1);
  });
});

describe("boxesOf", () => {
  test("one union box per page, pages in the order the spans first name them; a page without words gets none", () => {
    const p1 = page([[["Total 12,00", 300]], [["Net 10,00", 100]]], { page_number: 1 });
    const p2 = page([[["Carried over 5,00", 200]]], { page_number: 2 });
    const [l1a, l1b] = pageLines(p1);
    const [l2] = pageLines(p2);
    const empty = spanOf(l1a!, 0, 0);
    const boxes = boxesOf([spanOf(l2!, 0, l2!.text.length), empty, spanOf(l1b!, 0, 3), spanOf(l1a!, 6, 11)]);
    expect(boxes).toEqual([
      { page_index: 2, coordinates: boxOfWords(p2, ["Carried", "over", "5,00"]) },
      { page_index: 1, coordinates: boxOfWords(p1, ["Net", "12,00"]) },
    ]);
    // A page named first by a span without words keeps its place once later spans give it words.
    expect(boxesOf([empty, spanOf(l2!, 0, 7), spanOf(l1b!, 0, 3)]).map((b) => b.page_index)).toEqual([1, 2]);
    expect(boxesOf([empty])).toEqual([]);
  });
});
