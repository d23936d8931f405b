/**
 * Hand-built export inputs: a 2-page PDF source (text layer) holding an invoice, and a PNG scan (OCR words) holding
 * a receipt, with field values chosen to hurt: formula starts, quotes, delimiters, leading zeros, dates, XML-hostile
 * characters. Rasters are drawn with @napi-rs/canvas so word boxes are known exactly.
 */
import { createCanvas } from "@napi-rs/canvas";
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import type {
  DocumentResult,
  FieldResult,
  FieldValue,
  ImageTransform,
  Page,
  RasterImage,
  ResultsFile,
  SourceInput,
  Word,
} from "../../../src/core/model";
import { memorySink, type ExportContext } from "../../../src/core/exporters";
import { drawFontFamily } from "../../../src/core/imaging/draw-font";
import { toResultsPage } from "../../../src/core/results";

export const TX = "4f1c2d3e-0000-4000-8000-000000000001";
export const FIXED_NOW = new Date("2026-01-02T03:04:05.000Z");

export function field(name: string, value: FieldValue, boxes: FieldResult["bounding_boxes"] = []): FieldResult {
  return {
    name,
    value,
    confidence: 0.9,
    bounding_boxes: boxes,
    reasoning: "test",
    review_required: false,
    is_confirmed: null,
  };
}

function transform(w: number, h: number, unit: "point" | "pixel", scale: number, rotation = 0): ImageTransform {
  return {
    rasterized_width: Math.round(w * scale),
    rasterized_height: Math.round(h * scale),
    source_width: w,
    source_height: h,
    source_unit: unit,
    render_scale: scale,
    effective_dpi: unit === "point" ? scale * 72 : null,
    coordinate_system: "top-left-origin",
    rotation,
  };
}

/** Draws `lines` (text, x, baseline y, px size) on white and returns raster + exact word boxes. */
export function drawPage(
  width: number,
  height: number,
  lines: Array<[string, number, number, number]>,
): { raster: RasterImage; words: Word[]; png: Uint8Array } {
  const canvas = createCanvas(width, height);
  const g = canvas.getContext("2d");
  g.fillStyle = "#fff";
  g.fillRect(0, 0, width, height);
  g.fillStyle = "#000";
  const words: Word[] = [];
  lines.forEach(([text, x0, y, size], line) => {
    g.font = `${size}px ${drawFontFamily()}`;
    let x = x0;
    for (const word of text.split(" ")) {
      const m = g.measureText(word);
      g.fillText(word, x, y);
      words.push({
        text: word,
        confidence: 0.95,
        line,
        bounding_box: [
          Math.floor(x),
          Math.floor(y - m.actualBoundingBoxAscent),
          Math.ceil(x + m.width),
          Math.ceil(y + m.actualBoundingBoxDescent),
        ],
      });
      x += m.width + g.measureText(" ").width;
    }
  });
  const rgba = g.getImageData(0, 0, width, height).data;
  const raster: RasterImage = {
    data: new Uint8Array(rgba.buffer, rgba.byteOffset, rgba.byteLength),
    width,
    height,
    channels: 4,
  };
  return { raster, words, png: new Uint8Array(canvas.toBuffer("image/png")) };
}

async function invoicePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const text of ["Invoice 00123 page one", "Invoice 00123 page two"]) {
    pdf.addPage([612, 792]).drawText(text, { x: 72, y: 700, size: 18, font });
  }
  return pdf.save();
}

function page(
  n: number,
  srcIndex: number,
  filename: string,
  srcPage: number,
  t: ImageTransform,
  drawn: ReturnType<typeof drawPage>,
  textSource: Page["text_source"],
): Page {
  return {
    page_number: n,
    source_file_index: srcIndex,
    source_filename: filename,
    source_file_page_number: srcPage,
    image_transform: t,
    text_source: textSource,
    words: drawn.words,
    text: drawn.words.map((w) => w.text).join(" "),
    ocr_confidence: 0.95,
    render: async () => drawn.raster,
  };
}

export const hostile = {
  vendor: '=HYPERLINK("http://evil.example","x")',
  note: 'He said "hi", then\nleft; a,b',
  plus: "+1 555 0100",
  at: "@SUM(A1:A9)",
  dash: "-5 text",
  tab: "\tstarts with tab",
  cr: "\rstarts with CR",
  xml: "A & B <c> \"d\" 'e' \u0001\u0008 ctl \uFFFE end",
};

function doc(
  id: string,
  index: number,
  type: string,
  pages: number[],
  fields: Record<string, FieldResult>,
  status?: "warning",
): DocumentResult {
  return {
    document_id: id,
    document_index: index,
    document_type: type,
    classification_confidence: 0.87,
    classification: {
      class_id: type,
      type,
      confidence: 0.87,
      reasoning: "keywords",
      alternatives: [],
      confirmed: null,
      review_required: false,
    },
    split: {
      mode: "auto",
      policy: "inherit",
      confidence: 1,
      reason: "test",
      review_required: false,
      page_numbers: pages,
      source_file_indexes: [0],
    },
    fields,
    ...(status
      ? {
          validation: {
            overall_status: status,
            rule_results: [{ rule_id: "total_check", status, message: "total < 0", field_ids: ["total"] }],
          },
        }
      : {}),
  };
}

export interface Fixture {
  ctx: ExportContext;
  sink: ReturnType<typeof memorySink>;
}

export async function buildFixture(): Promise<Fixture> {
  const pdfBytes = await invoicePdf();
  const p1 = drawPage(1224, 1584, [["Invoice 00123 page one", 144, 220, 36]]);
  const p2 = drawPage(1224, 1584, [["Invoice 00123 page two", 144, 220, 36]]);
  const scan = drawPage(600, 400, [
    ["Receipt TOTAL 42.00", 40, 120, 40],
    ["Café Ünïcode ✓", 40, 220, 40],
  ]);
  const pages = [
    page(1, 0, "invoice.pdf", 1, transform(612, 792, "point", 2), p1, "text_layer"),
    page(2, 0, "invoice.pdf", 2, transform(612, 792, "point", 2), p2, "text_layer"),
    page(3, 1, "receipt scan.png", 1, transform(600, 400, "pixel", 1), scan, "ocr"),
  ];
  const lineItems = [
    { description: "Widget, large", quantity: 2, unit_price: 10.5, amount: 21 },
    { description: "=cmd|' /C calc'!A0", quantity: 1, unit_price: -3.25, amount: -3.25 },
  ];
  const documents = [
    doc("doc-invoice", 0, "invoice", [1, 2], {
      invoice_number: field("Invoice number", "00123", [{ coordinates: [144, 184, 600, 230], page_index: 1 }]),
      invoice_date: field("Invoice date", "2024-03-01"),
      total: field("Total", 1234.5),
      discount: field("Discount", -12.5),
      paid: field("Paid", true),
      vendor: field("Vendor", hostile.vendor),
      note: field("Note", hostile.note),
      line_items: field("Line items", lineItems),
    }),
    doc(
      "doc-receipt",
      1,
      "receipt",
      [3],
      {
        total: field("Total", 42, [{ coordinates: scan.words[1]!.bounding_box, page_index: 3 }]),
        vendor: field("Vendor", hostile.plus),
        note: field("Note", hostile.at),
        ref: field("Ref", hostile.dash),
        tab: field("Tab", hostile.tab),
        cr: field("Cr", hostile.cr),
        xml: field("Xml", hostile.xml),
        missing_date: field("Bad date", "2024-02-30"),
      },
      "warning",
    ),
  ];
  const results: ResultsFile = {
    transaction_id: TX,
    tenant_id: "tenant-1",
    project_id: "project-1",
    transaction: {
      exported_at: FIXED_NOW.toISOString(),
      created_at: "2026-01-01T00:00:00.000Z",
      source_file_names: ["invoice.pdf", "receipt scan.png"],
      project_version: 7,
      correlation_id: "corr-1",
      source: "cli",
      metadata: {},
      last_human_review: { reviewed: false },
    },
    validation: { overall_status: "warning", transaction_rule_results: [] },
    documents,
    pages: pages.map((p) => toResultsPage(p, true)),
  };
  const sources: SourceInput[] = [
    { index: 0, filename: "invoice.pdf", content_type: "application/pdf", data: pdfBytes, split_policy: "inherit" },
    { index: 1, filename: "receipt scan.png", content_type: "image/png", data: scan.png, split_policy: "inherit" },
  ];
  const sink = memorySink();
  return { sink, ctx: { results, pages, sources, sink, now: () => FIXED_NOW } };
}

export async function jpegInfo(data: Uint8Array) {
  return sharp(data).metadata();
}
