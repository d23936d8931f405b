/**
 * A born-digital PDF that carries a Factur-X / ZUGFeRD XML attachment, made with pdf-lib, through the real
 * conversion stage: the XML's values win (confidence 1.0, boxed where the page prints them); fields the XML lacks come from the page text.
 */
import { describe, expect, test } from "bun:test";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { convertSource } from "../../../src/core/stages/convert";
import { classifyDocument } from "../../../src/core/stages/classify";
import { extractFields } from "../../../src/core/stages/extract";
import { defaultProject } from "../../../src/core/project";
import { cii } from "../einvoice/fixtures";
import { readEInvoice } from "../../../src/core/extract/einvoice";
import { processTransaction } from "../../../src/core/pipeline";
import { memorySink } from "../../../src/core/exporters";
import type { OcrEngine } from "../../../src/core/engines/ocr";

async function facturX(withXml: boolean, xml = cii): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  const lines = [
    "Lieferant GmbH",
    "RECHNUNG",
    "Rechnungsnummer: RE-4711",
    "Rechnungsdatum: 12.03.2024",
    "IBAN: DE89 3704 0044 0532 0130 00",
    "Gesamtbetrag: 35,70 EUR",
  ];
  lines.forEach((text, i) => page.drawText(text, { x: 50, y: 780 - i * 24, size: 12, font }));
  if (withXml)
    await pdf.attach(new TextEncoder().encode(xml), "factur-x.xml", { mimeType: "text/xml", description: "Factur-X" });
  return pdf.save();
}

describe("native e-invoice inside a PDF", () => {
  test("the embedded CII XML is read first; the IBAN it lacks comes from the page with its box", async () => {
    const converted = await convertSource(
      { index: 0, filename: "factur-x.pdf", data: await facturX(true), split_policy: "inherit" },
      { firstPageNumber: 1, maxPages: null },
    );
    try {
      expect(converted.attachments?.map((a) => a.filename)).toContain("factur-x.xml");
      const cls = classifyDocument(converted.pages, defaultProject);
      expect(cls.class_id).toBe("invoice");
      const f = extractFields(converted.pages, cls.class_id, defaultProject, { attachments: converted.attachments });
      expect(f.invoice_number).toMatchObject({ value: "RE-4711", confidence: 1 });
      // Located on the page: the box of the words printing the XML's value.
      expect(f.invoice_number!.bounding_boxes.map((b) => b.page_index)).toEqual([1]);
      expect(f.total_amount!.bounding_boxes.length).toBe(1);
      expect(f.total_amount!.value).toBe(35.7);
      expect(f.line_items!.value).toEqual([{ description: "Widget", quantity: 3, unit_price: 10, amount: 30 }]);
      expect(f.iban!.value).toBe("DE89370400440532013000");
      expect(f.iban!.bounding_boxes[0]!.page_index).toBe(1);
    } finally {
      await converted.close();
    }
  });

  test("a standalone CII XML file is input too: one page printing its values, the XML read first, values boxed", async () => {
    const converted = await convertSource(
      { index: 0, filename: "xrechnung.xml", data: new TextEncoder().encode(cii), split_policy: "inherit" },
      { firstPageNumber: 1, maxPages: null },
    );
    try {
      expect(converted.pages.length).toBe(1);
      expect(converted.attachments?.map((a) => a.filename)).toEqual(["xrechnung.xml"]);
      const cls = classifyDocument(converted.pages, defaultProject);
      expect(cls.class_id).toBe("invoice");
      const f = extractFields(converted.pages, cls.class_id, defaultProject, { attachments: converted.attachments });
      expect(f.invoice_number).toMatchObject({ value: "RE-4711", confidence: 1 });
      expect(f.invoice_number!.bounding_boxes.map((b) => b.page_index)).toEqual([1]);
      expect([f.total_amount!.value, f.vendor_name!.value, f.customer_name!.value]).toEqual([
        35.7,
        "Lieferant GmbH",
        "Kunde AG",
      ]);
    } finally {
      await converted.close();
    }
    // XML that is no e-invoice stays an unsupported format.
    const foreign = convertSource(
      {
        index: 0,
        filename: "feed.xml",
        data: new TextEncoder().encode("<rss><channel/></rss>"),
        split_policy: "inherit",
      },
      { firstPageNumber: 1, maxPages: null },
    );
    await expect(foreign).rejects.toMatchObject({ code: "unsupported_format" });
  });

  test("the same PDF without the XML gives the same key values from the page text", async () => {
    const converted = await convertSource(
      { index: 0, filename: "plain.pdf", data: await facturX(false), split_policy: "inherit" },
      { firstPageNumber: 1, maxPages: null },
    );
    try {
      const f = extractFields(converted.pages, "invoice", defaultProject, { attachments: converted.attachments });
      expect(f.invoice_number!.value).toBe("RE-4711");
      expect(f.invoice_number!.confidence).toBeLessThan(1);
      expect(f.invoice_date!.value).toBe("2024-03-12");
      expect(f.total_amount!.value).toBe(35.7);
      expect(f.currency!.value).toBe("EUR");
    } finally {
      await converted.close();
    }
  });
});

describe("the e-invoice's type code decides the class", () => {
  // No page here needs OCR: an engine that is never called.
  const noOcr: OcrEngine = {
    name: "none",
    workers: 1,
    recognize: () => Promise.reject(new Error("no OCR expected")),
    close: async () => {},
  };
  const run = async (xml: string) => {
    const data = await facturX(true, xml);
    const meta = {
      transaction_id: crypto.randomUUID(),
      tenant_id: "default",
      project_id: "default",
      project_version: 1,
      correlation_id: null,
      metadata: {},
      created_at: new Date(0).toISOString(),
      source: "test",
    };
    const res = await processTransaction(
      { sources: [{ index: 0, filename: "factur-x.pdf", data, split_policy: "inherit" }] },
      { meta, project: defaultProject, ocr: noOcr, sink: memorySink() } as never,
    );
    return res.results.documents[0]!;
  };

  test("type code 381 makes a page that prints RECHNUNG a credit note, with negative amounts and the code in the reasoning", async () => {
    const doc = await run(cii.replace("<ram:TypeCode>380</ram:TypeCode>", "<ram:TypeCode>381</ram:TypeCode>"));
    expect(doc.classification.class_id).toBe("credit_note");
    expect(doc.classification.reasoning).toContain("e-invoice type code 381 (credit note)");
    expect(doc.classification.confidence).toBeGreaterThan(0.9);
    expect(doc.fields.total_amount!.value).toBe(-35.7);
  });

  test("type code 380 keeps it an invoice", async () => {
    const doc = await run(cii);
    expect(doc.classification.class_id).toBe("invoice");
    expect(doc.fields.total_amount!.value).toBe(35.7);
  });
});

describe("an attachment read again", () => {
  test("gives the same invoice as a fresh object each time (callers may change theirs)", () => {
    const attachments = [{ filename: "factur-x.xml", data: new TextEncoder().encode(cii) }];
    const first = readEInvoice(attachments)!;
    expect(first).toMatchObject({ syntax: "CII", filename: "factur-x.xml", type_code: "380" });
    expect(first.fields.invoice_number).toBe("RE-4711");
    first.fields.invoice_number = "changed";
    (first.fields.line_items as Array<Record<string, unknown>>)[0]!.description = "changed";
    const second = readEInvoice(attachments)!;
    expect(second).not.toBe(first);
    expect(second.fields.invoice_number).toBe("RE-4711");
    expect((second.fields.line_items as Array<Record<string, unknown>>)[0]!.description).toBe("Widget");
    // The same bytes under another name are read as that name.
    expect(readEInvoice([{ filename: "other.xml", data: attachments[0]!.data }])!.filename).toBe("other.xml");
  });
});
