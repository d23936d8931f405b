/**
 * The sample inbox (fixtures/inbox, SOURCES.md there) read as a new user would: real conversion, real OCR, the
 * default project. The expected values were read off the page images by eye (and checked against the pdftotext
 * of the originals in fixtures/corpora/invoice2data); they are what the documents print, not what the extractor
 * happened to return. Where OCR damages a cell beyond repair (Coolblue's "€ 4,24" read as "€4"), the cell must come
 * back unread (null), not wrong.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import path from "node:path";
import type { FieldResult } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { convertSource } from "../../../src/core/stages/convert";
import { ocrPages } from "../../../src/core/stages/ocr";
import { createOcrEngine, type OcrEngine } from "../../../src/core/engines/ocr";
import { classifyDocument } from "../../../src/core/stages/classify";
import { extractFields } from "../../../src/core/stages/extract";

const INBOX = path.resolve(import.meta.dir, "../../../fixtures/inbox");
type Row = Record<string, unknown>;

interface Read {
  class_id: string;
  fields: Record<string, FieldResult>;
  pageCount: number;
}

async function read(file: string, engine: OcrEngine): Promise<Read> {
  const data = new Uint8Array(await Bun.file(path.join(INBOX, file)).arrayBuffer());
  const converted = await convertSource(
    { index: 0, filename: file, data, split_policy: "inherit" },
    { firstPageNumber: 1, maxPages: null },
  );
  try {
    const needOcr = converted.pages.filter((p) => p.text_source === "none");
    if (needOcr.length) await ocrPages(needOcr, engine, {});
    const cls = classifyDocument(converted.pages, defaultProject);
    return {
      class_id: cls.class_id,
      pageCount: converted.pages.length,
      fields: extractFields(converted.pages, cls.class_id, defaultProject, { attachments: converted.attachments }),
    };
  } finally {
    await converted.close();
  }
}

const rows = (r: Read) => (r.fields.line_items!.value ?? []) as Row[];
const column = (r: Read, id: string) => rows(r).map((row) => row[id] ?? null);
/** Letters and digits only, lower case: OCR spacing ("J ustificatif") and punctuation do not count. */
const compact = (v: unknown) =>
  String(v ?? "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");

describe("the sample inbox through real OCR and the default project", () => {
  let engine: OcrEngine;
  const reads = new Map<string, Read>();
  beforeAll(async () => {
    engine = await createOcrEngine({ engine: "auto", workers: 1 });
    for (const file of [
      "scanned-invoice.pdf",
      "phone-photo.jpg",
      "rotated-scan-90.png",
      "multi-page-fax.tif",
      "born-digital-invoice.pdf",
    ])
      reads.set(file, await read(file, engine));
  }, 240_000);
  afterAll(async () => {
    await engine?.close();
  });

  test("scanned Amazon invoice: the seller, not the ATTN: line, and the four services of the grey-headed detail table", () => {
    const r = reads.get("scanned-invoice.pdf")!;
    expect(r.class_id).toBe("invoice");
    expect(String(r.fields.vendor_name!.value)).toMatch(/^Amazon Web Services/);
    expect(r.fields.customer_name!.value).toBe("iViveLabs Limited");
    expect(r.fields.total_amount!.value).toBe(4.11);
    // Printed in light grey on shaded bands; each carries its amount, broken down by "Charges" and "VAT" under it.
    expect(column(r, "description").map(compact)).toEqual([
      "awsdatatransfer",
      "amazonelasticcomputecloud",
      "amazonglacier",
      "amazonsimplestorageservice",
    ]);
    expect(column(r, "amount")).toEqual([0.01, 1.87, 2.22, 0.01]);
  });

  test("Coolblue phone photo: BTW is 124.61, and all six rows of the tilted table, the damaged amounts mended or left unread", () => {
    const r = reads.get("phone-photo.jpg")!;
    expect(r.fields.vendor_name!.value).toBe("Coolblue B.V.");
    expect(r.fields.customer_name!.value).toBe("Pino Bluebird");
    expect([r.fields.subtotal_amount!.value, r.fields.tax_amount!.value, r.fields.total_amount!.value]).toEqual([
      593.36, 124.61, 717.97,
    ]);
    const desc = column(r, "description").map(compact);
    expect(desc.length).toBe(6);
    [
      "appleipadairwifi16gbzilver",
      "inclthuiskopieheffing",
      "decodedleatherslimcover",
      "nintendo3dsxlwitblauw",
      "nintendoacadapter",
      "mariokart7",
    ].forEach((start, i) => expect(desc[i]!.startsWith(start)).toBe(true));
    // The five products (quantity 1 each, prices incl. BTW) add up to the total; row 2 is the levy included in the
    // iPad's price, its "€ 4,24" read by OCR as "€4": left unread rather than wrong.
    const amounts = column(r, "amount");
    expect(amounts[1]).toBeNull();
    expect([0, 2, 3, 4, 5].map((i) => amounts[i])).toEqual([399, 69.99, 189, 14.99, 44.99]);
    expect([0, 2, 3, 4, 5].map((i) => column(r, "unit_price")[i])).toEqual([399, 69.99, 189, 14.99, 44.99]);
    expect([0, 2, 3, 4, 5].map((i) => column(r, "quantity")[i])).toEqual([1, 1, 1, 1, 1]);
    expect(r.fields.line_items!.reasoning).toContain("add up to the document's sums (717.97)");
  });

  test("Netpresse scan turned sideways: seller, customer and the three rows under a header OCR cannot read", () => {
    const r = reads.get("rotated-scan-90.png")!;
    expect(r.fields.vendor_name!.value).toBe("NETPRESSE");
    expect(r.fields.customer_name!.value).toBe("ALEXINUX");
    expect([r.fields.subtotal_amount!.value, r.fields.tax_amount!.value, r.fields.total_amount!.value]).toEqual([
      46.68, 9.34, 56.02,
    ]);
    expect(column(r, "description").map(compact)).toEqual([
      "letoutlyonfrdu06122022",
      "justificatifpdf",
      "justificatifpapier",
    ]);
    expect(column(r, "quantity")).toEqual([null, 1, 0]);
    expect(column(r, "unit_price")).toEqual([null, 0.75, 3.5]);
    expect(column(r, "amount")).toEqual([45.93, 0.75, 0]);
  });

  test("QualityHosting fax: the addressee is the customer, and the table continues from page 1 to page 2", () => {
    const r = reads.get("multi-page-fax.tif")!;
    expect(r.pageCount).toBe(2);
    expect(r.fields.vendor_name!.value).toBe("QualityHosting AG");
    expect(compact(r.fields.customer_name!.value)).toBe("ivivelabsltd");
    expect(r.fields.total_amount!.value).toBe(34.73);
    expect(column(r, "amount")).toEqual([3.89, 5.39, 5.39, 5.39, 5.39, 5.39, 3.89]);
    expect(column(r, "quantity")).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect(column(r, "description").map((d) => compact(String(d).split("\n")[0]))).toEqual([
      "smallbusinessstandardexchange2010",
      ...Array(5).fill("smallbusinessqualityexchange2010"),
      "smallbusinessstandardexchange2010",
    ]);
    // Rows 1–6 on page 1 and row 7 under the repeated header on page 2; no row for "Contract No. CON02858".
    expect(r.fields.line_items!.bounding_boxes.map((b) => b.page_index)).toEqual([1, 2]);
  });

  test("born-digital invoice: the four items, no section heading among them", () => {
    const r = reads.get("born-digital-invoice.pdf")!;
    expect(r.fields.vendor_name!.value).toBe("Azure Interior");
    expect(column(r, "description")).toEqual(["Beeswax XL", "Office Chair", "*987123* Olive Oil", "Luxury Truffles"]);
    expect(column(r, "amount")).toEqual([42, 70, 0.9, 150]);
  });

  test("born-digital invoice read from its page alone (the XML left out): the same four items, headings and subtotals not among them", async () => {
    const data = new Uint8Array(await Bun.file(path.join(INBOX, "born-digital-invoice.pdf")).arrayBuffer());
    const converted = await convertSource(
      { index: 0, filename: "born-digital-invoice.pdf", data, split_policy: "inherit" },
      { firstPageNumber: 1, maxPages: null },
    );
    try {
      const items = extractFields(converted.pages, "invoice", defaultProject).line_items!;
      const r: Read = { class_id: "invoice", pageCount: 1, fields: { line_items: items } };
      // "--- Non Food ---" and "--- Food Products ---" head sections; "Subtotal $ 112.00" closes one.
      expect(column(r, "description").map((d) => String(d).split("\n")[0])).toEqual([
        "[17589684] Beeswax XL",
        "[FURN_7777] Office Chair",
        "*987123* Olive Oil",
        "[LUX_TRF] Luxury Truffles",
      ]);
      expect(column(r, "quantity")).toEqual([1, 1, 1, 15]);
      expect(column(r, "unit_price")).toEqual([42, 70, 1, 10]);
      expect(column(r, "amount")).toEqual([42, 70, 0.9, 150]);
      expect(items.review_required).toBe(false);
    } finally {
      await converted.close();
    }
  });
});
