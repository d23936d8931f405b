/**
 * Zero-configuration extraction from supplied text (the real convertText stage) in four layouts and languages:
 * a German invoice, a Spanish invoice, a US invoice and a German till receipt. Written for these tests.
 */
import { describe, expect, test } from "bun:test";
import { convertText } from "../../../src/core/stages/convert";
import { classifyDocument } from "../../../src/core/stages/classify";
import { extractFields } from "../../../src/core/stages/extract";
import { validateDocument } from "../../../src/core/stages/validate";
import { defaultProject } from "../../../src/core/project";
import type { DocumentResult } from "../../../src/core/model";

const docs = [
  `Muster GmbH · Hauptstr. 1 · 80331 München
Firma Beispiel AG
Rechnung
Rechnung Nr. 2024-117                      Datum: 05.03.2024
Kundennummer: 4711
Pos  Bezeichnung           Menge   Einzelpreis   Gesamtpreis
1    Beratung              10      120,00 €      1.200,00 €
2    Reisekosten           1       85,50 €       85,50 €
                            Nettobetrag          1.285,50 €
                            zzgl. 19% MwSt.        244,25 €
                            Gesamtbetrag         1.529,75 €
Zahlbar bis 19.03.2024 ohne Abzug.
IBAN: DE89 3704 0044 0532 0130 00   USt-IdNr.: DE123456789`,
  `EMPRESA EJEMPLO S.L.
FACTURA
Factura nº: F-2024-33          Fecha: 12/03/2024
Cliente: Juan Pérez
Descripción             Cantidad   Precio    Importe
Servicio de consultoría    2       500,00    1.000,00
Base imponible                              1.000,00
IVA 21%                                       210,00
Total a pagar                               1.210,00 €`,
  `ACME Corp.
123 Main St, Springfield
INVOICE
Invoice #: 10045
Date: 04/05/2024
Due: 05/05/2024
Bill To: Wayne Enterprises
Item                 Qty    Rate      Amount
Widgets              3      $25.00    $75.00
Shipping             1      $10.00    $10.00
Subtotal                              $85.00
Sales Tax (8%)                         $6.80
Total                                 $91.80`,
  `REWE Markt GmbH
Kassenbon
Bon-Nr. 8841   14.03.2024 18:22
BANANE            1,29
MILCH             0,99
SUMME EUR         2,28
Geg. BAR          5,00
Rückgeld          2,72`,
];

function understand(text: string) {
  const { pages } = convertText(text, 1);
  const classification = classifyDocument(pages, defaultProject);
  const fields = extractFields(pages, classification.class_id, defaultProject);
  const values = Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, v.value]));
  return { classification, fields, values };
}

describe("supplied-text documents through the default project", () => {
  test("German invoice: number, dates, parties, IBAN, VAT ID, amounts and line items; validation passes", () => {
    const { classification, fields, values } = understand(docs[0]!);
    expect(classification.class_id).toBe("invoice");
    expect(values).toMatchObject({
      invoice_number: "2024-117",
      invoice_date: "2024-03-05",
      due_date: "2024-03-19",
      vendor_name: "Muster GmbH",
      vendor_address: "Hauptstr. 1, 80331 München",
      vendor_vat_id: "DE123456789",
      iban: "DE89370400440532013000",
      currency: "EUR",
      subtotal_amount: 1285.5,
      tax_amount: 244.25,
      total_amount: 1529.75,
    });
    expect(values.line_items).toEqual([
      { description: "Beratung", quantity: 10, unit_price: 120, amount: 1200 },
      { description: "Reisekosten", quantity: 1, unit_price: 85.5, amount: 85.5 },
    ]);
    const doc = {
      document_id: "d",
      document_index: 0,
      document_type: "invoice",
      classification_confidence: 1,
      classification,
      fields,
    } as unknown as DocumentResult;
    expect(validateDocument(doc, defaultProject)).toBeUndefined();
  });

  test("Spanish invoice: nº number, day-first date, base imponible, IVA and total a pagar", () => {
    const { classification, values } = understand(docs[1]!);
    expect(classification.class_id).toBe("invoice");
    expect(values).toMatchObject({
      invoice_number: "F-2024-33",
      invoice_date: "2024-03-12",
      customer_name: "Juan Pérez",
      subtotal_amount: 1000,
      tax_amount: 210,
      total_amount: 1210,
      currency: "EUR",
    });
    expect(values.line_items).toEqual([
      { description: "Servicio de consultoría", quantity: 2, unit_price: 500, amount: 1000 },
    ]);
  });

  test("US invoice: month-first dates, dollars, bill-to customer, sales tax", () => {
    const { values } = understand(docs[2]!);
    expect(values).toMatchObject({
      invoice_number: "10045",
      invoice_date: "2024-04-05",
      due_date: "2024-05-05",
      customer_name: "Wayne Enterprises",
      currency: "USD",
      subtotal_amount: 85,
      tax_amount: 6.8,
      total_amount: 91.8,
    });
    expect((values.line_items as unknown[]).length).toBe(2);
  });

  test("German till receipt: class receipt, Bon-Nr., unlabelled date, SUMME", () => {
    const { classification, fields, values } = understand(docs[3]!);
    expect(classification.class_id).toBe("receipt");
    expect(values).toMatchObject({
      invoice_number: "8841",
      invoice_date: "2024-03-14",
      total_amount: 2.28,
      currency: "EUR",
    });
    expect(fields.invoice_date!.reasoning).toContain("no label found");
    expect(fields.invoice_date!.confidence).toBeLessThan(fields.total_amount!.confidence);
  });
});

describe("currency of a ¥ printed with the total", () => {
  const text = `WS Retail Services
Retail Invoice
Invoice No: 4411          Invoice Date: 20-10-2015
Memory card 278.61
Price is inclusive of a discount of Rs 40.00
Grand Total ¥ 319.00`;
  const currencyOf = (t: string, source: "ocr" | "supplied_text") => {
    const { pages } = convertText(t, 1);
    for (const p of pages) p.text_source = source;
    return extractFields(pages, "invoice", defaultProject).currency!;
  };

  test("on an OCR'd page that names the rupee elsewhere it is ₹ (the OCR model has no ₹ and reads it as ¥)", () => {
    const c = currencyOf(text, "ocr");
    expect(c.value).toBe("INR");
    expect(c.reasoning).toContain("no ₹");
    expect(c.bounding_boxes.length).toBe(1);
  });

  test("in a text layer, or without a rupee mention, it stays yen", () => {
    expect(currencyOf(text, "supplied_text").value).toBe("JPY");
    expect(currencyOf(text.replace("Rs 40.00", "40.00"), "ocr").value).toBe("JPY");
  });
});
