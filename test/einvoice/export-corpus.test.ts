/**
 * E-invoices written from the invoice corpus, born-digital and scanned: every invoice of fixtures/corpora/invoice2data
 * (its PDFs through the text layer, its PNG scans and the first pages of two of its PDFs rendered at 200 dpi,
 * through OCR) goes through
 * the real pipeline and the ubl and cii profiles. A document whose fields are complete reaches the validator (the
 * official EN 16931 Schematron, and the CII D16B schema) and must pass it: no document may fail on a rule after
 * passing the mandatory-term and totals checks. The others are listed with the BT numbers they lack.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { runExports } from "../../src/core/exporters";
import { createOcrEngine, type OcrEngine } from "../../src/core/engines/ocr";
import { validateEInvoice, type EInvoiceReport } from "../../src/core/einvoice/validate";
import { pipeline } from "./pipeline";

const CORPUS = path.join(import.meta.dir, "../../fixtures/corpora/invoice2data");
/** What a project sets for the company docproc works for (the buyer); filled only where a document has nothing. */
const DEFAULTS = {
  "BT-44": "Docproc GmbH",
  "BT-50": "Hauptstr. 1",
  "BT-52": "Berlin",
  "BT-53": "10115",
  "BT-55": "DE",
  "BT-20": "Payable within 30 days",
};

let ocr: OcrEngine;
let scans: string;
beforeAll(async () => {
  ocr = await createOcrEngine({ engine: "wasm", workers: 1 });
  scans = mkdtempSync(path.join(tmpdir(), "docproc-corpus-scans-"));
  for (const name of ["coolblue2", "free_fiber"]) {
    const r = Bun.spawnSync([
      "pdftoppm",
      "-r",
      "200",
      "-png",
      "-singlefile",
      path.join(CORPUS, `${name}.pdf`),
      path.join(scans, name),
    ]);
    expect(r.exitCode).toBe(0);
  }
});
afterAll(async () => {
  await ocr?.close();
  rmSync(scans, { recursive: true, force: true });
});

test("every corpus invoice with complete fields, text or scan, becomes UBL and CII that pass the official rules", async () => {
  const files = [
    ...readdirSync(CORPUS)
      .filter((f) => /\.(pdf|png)$/.test(f))
      .map((f) => path.join(CORPUS, f)),
    ...readdirSync(scans).map((f) => path.join(scans, f)),
  ].sort();
  const summary: string[] = [];
  const written: Array<{ file: string; kind: "text" | "ocr"; syntax: string; report: EInvoiceReport }> = [];
  const rejectedByRules: string[] = [];
  for (const file of files) {
    const { ctx, sink } = await pipeline(file, ocr);
    const kind = ctx.pages.some((p) => p.text_source === "ocr") ? "ocr" : "text";
    // Every verdict the export asks for: only documents that passed the mandatory-term and totals checks get one.
    const verdicts: EInvoiceReport[] = [];
    ctx.validateEInvoice = async (xml) => {
      const v = await validateEInvoice(xml);
      verdicts.push(v);
      return v;
    };
    const manifest = await runExports(ctx, [
      { id: "ubl", name: "UBL", output_format: "ubl", options: { defaults: DEFAULTS } },
      { id: "cii", name: "CII", output_format: "cii", options: { defaults: DEFAULTS } },
    ]);
    for (const v of verdicts.filter((x) => !x.valid))
      rejectedByRules.push(`${path.basename(file)}: ${v.results.map((r) => r.rule_id).join(", ")}`);
    for (const [name, data] of sink.files) {
      const syntax = name.endsWith("_cii.xml") ? "cii" : "ubl";
      written.push({ file: path.basename(file), kind, syntax, report: await validateEInvoice(data) });
    }
    const entry = manifest.profiles.ubl!;
    summary.push(
      `${path.basename(file)} (${kind}): ${entry.status}${entry.error ? ` — ${entry.error.replace(/.*e-invoice: /, "").slice(0, 140)}` : ""}`,
    );
  }
  console.log(`corpus e-invoices:\n  ${summary.join("\n  ")}`);
  expect(rejectedByRules).toEqual([]);
  // What was written is valid when checked again from the bytes (EN 16931 Schematron; CII also against its schema).
  for (const w of written)
    expect({ ...w, report: w.report.results.filter((r) => r.severity === "fatal") }).toEqual({ ...w, report: [] });
  const by = (kind: string) => new Set(written.filter((w) => w.kind === kind).map((w) => w.file));
  // The three complete invoices of the corpus as text, and at least two of them from scans.
  expect(by("text").size).toBeGreaterThanOrEqual(3);
  expect(by("ocr").size).toBeGreaterThanOrEqual(2);
  expect(written.filter((w) => w.syntax === "cii").length).toBe(written.filter((w) => w.syntax === "ubl").length);
}, 600_000);
