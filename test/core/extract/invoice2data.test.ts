/**
 * Zero-configuration extraction on invoice2data's own test invoices (fixtures/corpora/invoice2data, MIT): the
 * default project, no templates, pages from the real conversion and OCR stages. Scoring follows the corpus README:
 * amounts equal within 0.005, dates as ISO, identifiers case-folded with whitespace and a leading #/No. stripped.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import path from "node:path";
import type { Box, FieldResult, Page } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { convertSource, convertText } from "../../../src/core/stages/convert";
import { ocrPages } from "../../../src/core/stages/ocr";
import { createOcrEngine, type OcrEngine } from "../../../src/core/engines/ocr";
import { classifyDocument } from "../../../src/core/stages/classify";
import { extractFields } from "../../../src/core/stages/extract";

const DIR = path.resolve(import.meta.dir, "../../../fixtures/corpora/invoice2data");
const TEXT_PDFS = [
  "AmazonWebServices",
  "AzureInterior",
  "FlipkartInvoice",
  "NetpresseInvoice",
  "QualityHosting",
  "SammyMaystoneLinesTest",
  "coolblue1",
  "coolblue2",
  "free_fiber",
  "oyo",
  "saeco",
];
const SCANS = ["AmazonWebServices", "FlipkartInvoice", "SammyMaystoneLinesTest", "oyo"];
/** Expected-JSON key → our field id. */
const SCORED: Array<[string, string]> = [
  ["invoice_number", "invoice_number"],
  ["date", "invoice_date"],
  ["amount", "total_amount"],
  ["currency", "currency"],
];

const ident = (v: unknown) =>
  String(v)
    .toLowerCase()
    .replace(/\s+/g, "")
    .replace(/^(#|no\.)/, "");
function correct(key: string, expected: unknown, got: unknown): boolean {
  if (got === null || got === undefined) return false;
  if (key === "amount") return typeof got === "number" && Math.abs(got - Number(expected)) <= 0.005;
  if (key === "date") return String(got).slice(0, 10) === String(expected).slice(0, 10);
  if (key === "currency") return String(got).toUpperCase() === String(expected).toUpperCase();
  return ident(got) === ident(expected);
}

interface Outcome {
  name: string;
  fields: Record<string, FieldResult>;
  pages: Page[];
  expected: Record<string, unknown>;
  skip?: string[];
}

async function expectedOf(name: string): Promise<Record<string, unknown>> {
  return (await Bun.file(path.join(DIR, `${name}.json`)).json())[0];
}

async function runFile(name: string, ext: "pdf" | "png", engine: OcrEngine): Promise<Outcome> {
  const data = new Uint8Array(await Bun.file(path.join(DIR, `${name}.${ext}`)).arrayBuffer());
  const converted = await convertSource(
    { index: 0, filename: `${name}.${ext}`, data, split_policy: "inherit" },
    { firstPageNumber: 1, maxPages: null },
  );
  try {
    const needOcr = converted.pages.filter((p) => p.text_source === "none");
    if (needOcr.length) await ocrPages(needOcr, engine, {});
    const pages = converted.pages;
    const cls = classifyDocument(pages, defaultProject);
    return {
      name,
      pages,
      fields: extractFields(pages, cls.class_id, defaultProject, { attachments: converted.attachments }),
      expected: await expectedOf(name),
    };
  } finally {
    await converted.close();
  }
}

/** Scores outcomes, prints the per-field table, returns the share of correct (document, field) pairs. */
function score(label: string, outcomes: Outcome[]): number {
  const perField = new Map<string, { ok: number; n: number; misses: string[] }>();
  for (const o of outcomes) {
    for (const [key, id] of SCORED) {
      if (o.expected[key] === undefined || o.skip?.includes(key)) continue;
      const got = o.fields[id]?.value;
      const row = perField.get(key) ?? { ok: 0, n: 0, misses: [] };
      row.n++;
      if (correct(key, o.expected[key], got)) row.ok++;
      else row.misses.push(`${o.name}: got ${JSON.stringify(got)}, expected ${JSON.stringify(o.expected[key])}`);
      perField.set(key, row);
    }
  }
  let ok = 0,
    n = 0;
  const lines = [`\n${label}`, "field            correct", "---------------  -------"];
  for (const [key, r] of perField) {
    ok += r.ok;
    n += r.n;
    lines.push(`${key.padEnd(15)}  ${r.ok}/${r.n}`);
    for (const m of r.misses) lines.push(`    miss  ${m}`);
  }
  lines.push(`${"all".padEnd(15)}  ${ok}/${n} = ${((100 * ok) / n).toFixed(1)}%`);
  console.log(lines.join("\n"));
  return ok / n;
}

const unionOf = (boxes: Box[]): Box => [
  Math.min(...boxes.map((b) => b[0])),
  Math.min(...boxes.map((b) => b[1])),
  Math.max(...boxes.map((b) => b[2])),
  Math.max(...boxes.map((b) => b[3])),
];
const inside = (w: Box, b: Box) => w[0] >= b[0] && w[1] >= b[1] && w[2] <= b[2] && w[3] <= b[3];

/** Every page-sourced field box must be exactly the union of the page words it encloses (no padding, no guess). */
function checkBoxes(o: Outcome): string[] {
  const problems: string[] = [];
  for (const [id, f] of Object.entries(o.fields)) {
    for (const fb of f.bounding_boxes) {
      const page = o.pages.find((p) => p.page_number === fb.page_index);
      if (!page) {
        problems.push(`${o.name}.${id}: page_index ${fb.page_index} is no page_number`);
        continue;
      }
      const words = page.words.filter((w) => inside(w.bounding_box, fb.coordinates)).map((w) => w.bounding_box);
      if (!words.length || JSON.stringify(unionOf(words)) !== JSON.stringify(fb.coordinates))
        problems.push(`${o.name}.${id}: box ${JSON.stringify(fb.coordinates)} is not a union of words`);
    }
    if (f.value !== null && f.bounding_boxes.length === 0 && !f.reasoning.includes("XML"))
      problems.push(`${o.name}.${id}: a value from a page without a box`);
  }
  return problems;
}

describe("invoice2data corpus through the default project, no templates", () => {
  let engine: OcrEngine;
  const textOutcomes: Outcome[] = [];
  const scanOutcomes: Outcome[] = [];

  beforeAll(async () => {
    engine = await createOcrEngine({ engine: "auto", workers: 1 });
  }, 60_000);
  afterAll(async () => {
    await engine?.close();
  });

  test("text PDFs: invoice number, date, total and currency right for at least 90% of the pairs", async () => {
    for (const name of TEXT_PDFS) textOutcomes.push(await runFile(name, "pdf", engine));
    expect(textOutcomes.every((o) => o.pages.every((p) => p.text_source === "text_layer"))).toBe(true);
    expect(score("invoice2data text PDFs (11)", textOutcomes)).toBeGreaterThanOrEqual(0.9);
  }, 120_000);

  test("PNG scans through OCR: at least 75% of the pairs", async () => {
    for (const name of SCANS) scanOutcomes.push(await runFile(name, "png", engine));
    expect(scanOutcomes.every((o) => o.pages.every((p) => p.text_source === "ocr"))).toBe(true);
    expect(score("invoice2data PNG scans (4, OCR)", scanOutcomes)).toBeGreaterThanOrEqual(0.75);
  }, 300_000);

  test("Orlen as supplied text: date, total and currency (its invoice_number 'F' is a template artefact)", async () => {
    const converted = convertText(await Bun.file(path.join(DIR, "Orlen.txt")).text(), 1);
    const cls = classifyDocument(converted.pages, defaultProject);
    expect(cls.class_id).toBe("invoice");
    const o: Outcome = {
      name: "Orlen",
      pages: converted.pages,
      fields: extractFields(converted.pages, cls.class_id, defaultProject),
      expected: await expectedOf("Orlen"),
      skip: ["invoice_number"],
    };
    expect(score("Orlen.txt (supplied text)", [o])).toBe(1);
    expect(checkBoxes(o)).toEqual([]);
  });

  test("every field read from a page is boxed by the union of its source words on a real page number", () => {
    expect(textOutcomes.length + scanOutcomes.length).toBe(15);
    const problems = [...textOutcomes, ...scanOutcomes].flatMap(checkBoxes);
    expect(problems).toEqual([]);
    const boxed = [...textOutcomes, ...scanOutcomes].flatMap((o) =>
      Object.values(o.fields).filter((f) => f.bounding_boxes.length),
    ).length;
    expect(boxed).toBeGreaterThan(60);
  });

  test("the text PDFs classify as invoices or receipts, never other", () => {
    for (const o of textOutcomes)
      expect(["invoice", "receipt"]).toContain(classifyDocument(o.pages, defaultProject).class_id);
  });
});
