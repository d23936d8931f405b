/**
 * Export benchmark (issue 4, "Done when"): documents/s per output format for 1,000 synthetic documents
 * (one page each, 10 scalar fields and 5 line items per document), written to an in-memory sink so disk speed
 * does not count. PDF copies pages of one 1,000-page source PDF (plus a variant adding the OCR text layer);
 * JPG encodes one 1240×1754 (A4 at 150 dpi) greyscale raster per page at Original resolution.
 * `bun bench/export.ts` prints the rows on its own.
 */
import { PDFDocument, StandardFonts } from "pdf-lib";
import { memorySink, runExports, type ExportProfileInput } from "../src/core/exporters";
import type { DocumentResult, FieldResult, Page, RasterImage, ResultsFile, Word } from "../src/core/model";
import { toResultsPage } from "../src/core/results";
import type { BenchRow } from "./index";

const DOCS = 1000;
const [W, H] = [1240, 1754];

function field(name: string, value: FieldResult["value"]): FieldResult {
  return {
    name,
    value,
    confidence: 0.93,
    bounding_boxes: [{ coordinates: [100, 100, 400, 130], page_index: 1 }],
    reasoning: "bench",
    review_required: false,
    is_confirmed: null,
  };
}

function documentOf(i: number): DocumentResult {
  const items = Array.from({ length: 5 }, (_, k) => ({
    description: `Item ${k} of document ${i}, "quoted"`,
    quantity: k + 1,
    unit_price: 9.99,
    amount: 9.99 * (k + 1),
  }));
  const fields: Record<string, FieldResult> = {
    invoice_number: field("Invoice number", `INV-${String(i).padStart(6, "0")}`),
    invoice_date: field("Invoice date", "2024-03-01"),
    due_date: field("Due date", "2024-03-31"),
    vendor: field("Vendor", `Vendor ${i % 37} GmbH`),
    customer: field("Customer", `=Customer ${i}`),
    net: field("Net", 100 + i),
    tax: field("Tax", 19 + i / 100),
    total: field("Total", 119 + i),
    currency: field("Currency", "EUR"),
    iban: field("IBAN", "DE89370400440532013000"),
    line_items: field("Line items", items),
  };
  return {
    document_id: `doc-${i}`,
    document_index: i,
    document_type: "invoice",
    classification_confidence: 0.9,
    classification: {
      class_id: "invoice",
      type: "invoice",
      confidence: 0.9,
      reasoning: "bench",
      alternatives: [],
      confirmed: null,
      review_required: false,
    },
    split: {
      mode: "bench",
      policy: "inherit",
      confidence: 1,
      reason: "bench",
      review_required: false,
      page_numbers: [i + 1],
      source_file_indexes: [0],
    },
    fields,
  };
}

function wordsOf(i: number): Word[] {
  return Array.from({ length: 40 }, (_, k) => ({
    text: `word${k}-${i}`,
    confidence: 0.9,
    line: Math.floor(k / 8),
    bounding_box: [
      100 + (k % 8) * 130,
      200 + Math.floor(k / 8) * 60,
      220 + (k % 8) * 130,
      240 + Math.floor(k / 8) * 60,
    ] as Word["bounding_box"],
  }));
}

function raster(): RasterImage {
  const data = new Uint8Array(W * H).fill(255);
  // Text-like dark stripes so the JPEG encoder has edges to work on.
  for (let y = 150; y < H - 150; y += 40)
    for (let x = 120; x < W - 120; x++) if ((x >> 3) % 5 !== 0) data.fill(30, y * W + x, y * W + x + 1);
  for (let y = 150; y < H - 150; y += 40)
    data.copyWithin((y + 1) * W, y * W, (y + 1) * W), data.copyWithin((y + 2) * W, y * W, (y + 1) * W);
  return { data, width: W, height: H, channels: 1 };
}

async function sourcePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < DOCS; i++)
    pdf.addPage([595, 842]).drawText(`Invoice INV-${i} total ${119 + i} EUR`, { x: 60, y: 780, size: 14, font });
  return pdf.save();
}

async function fixture(textSource: Page["text_source"]) {
  const image = raster();
  const pages: Page[] = Array.from({ length: DOCS }, (_, i) => ({
    page_number: i + 1,
    source_file_index: 0,
    source_filename: "bench.pdf",
    source_file_page_number: i + 1,
    image_transform: {
      rasterized_width: W,
      rasterized_height: H,
      source_width: 595,
      source_height: 842,
      source_unit: "point",
      render_scale: W / 595,
      effective_dpi: (W / 595) * 72,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
    text_source: textSource,
    words: wordsOf(i),
    text: "",
    ocr_confidence: 0.9,
    render: async () => image,
  }));
  const results: ResultsFile = {
    transaction_id: "bench-tx",
    tenant_id: "t",
    project_id: "p",
    transaction: {
      exported_at: "",
      created_at: new Date(0).toISOString(),
      source_file_names: ["bench.pdf"],
      project_version: 1,
      correlation_id: null,
      source: "cli",
      metadata: {},
      last_human_review: { reviewed: false },
    },
    validation: { overall_status: "success", transaction_rule_results: [] },
    documents: Array.from({ length: DOCS }, (_, i) => documentOf(i)),
    pages: pages.map((p) => toResultsPage(p, true)),
  };
  return { results, pages };
}

async function measure(
  name: string,
  profile: ExportProfileInput,
  ctx: Awaited<ReturnType<typeof fixture>>,
  source: Uint8Array,
): Promise<BenchRow> {
  const sink = memorySink();
  const t0 = performance.now();
  const m = await runExports(
    { ...ctx, sources: [{ index: 0, filename: "bench.pdf", data: source, split_policy: "inherit" }], sink },
    [profile],
  );
  const seconds = (performance.now() - t0) / 1000;
  const entry = Object.values(m.profiles)[0]!;
  if (entry.error)
    return { metric: `export ${name}`, docproc: `failed: ${entry.error}`, reference: null, target: "report" };
  const mb = (m.total_size_bytes / 1e6).toFixed(1);
  return {
    metric: `export ${name}: ${DOCS} docs → ${m.total_files} files, ${mb} MB`,
    docproc: DOCS / seconds,
    reference: null,
    unit: "docs/s",
    target: "report",
  };
}

export async function benchExport(): Promise<BenchRow[]> {
  const source = await sourcePdf();
  const textLayer = await fixture("text_layer");
  const ocr = await fixture("ocr");
  const rows: BenchRow[] = [];
  const cases: Array<[string, ExportProfileInput, typeof textLayer]> = [
    ["json", { id: "json", name: "json", output_format: "json" }, textLayer],
    [
      "json per document + page OCR",
      { id: "json", name: "json", output_format: "json", options: { scope: "per_document", include_page_ocr: true } },
      textLayer,
    ],
    [
      "csv (line items)",
      { id: "csv", name: "csv", output_format: "csv", options: { rows: "per_line_item" } },
      textLayer,
    ],
    ["xlsx", { id: "xlsx", name: "xlsx", output_format: "xlsx" }, textLayer],
    ["xml", { id: "xml", name: "xml", output_format: "xml" }, textLayer],
    ["pdf (copied pages)", { id: "pdf", name: "pdf", output_format: "pdf" }, textLayer],
    ["pdf + OCR text layer", { id: "pdf", name: "pdf", output_format: "pdf", options: { ocr_text_layer: true } }, ocr],
    ["jpg (1240×1754, q85)", { id: "jpg", name: "jpg", output_format: "jpg" }, textLayer],
  ];
  for (const [name, profile, ctx] of cases) rows.push(await measure(name, profile, ctx, source));
  return rows;
}

if (import.meta.main) {
  for (const row of await benchExport())
    console.log(
      `${row.metric}: ${typeof row.docproc === "number" ? row.docproc.toFixed(1) : row.docproc} ${row.unit ?? ""}`,
    );
}
