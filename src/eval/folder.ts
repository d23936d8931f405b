/**
 * An evaluation folder: documents with their expected results beside them (`invoice.pdf` + `invoice.json`).
 *
 * The expected file uses the results file's shape, reduced to what is scored (docs/eval.md):
 *   { "documents": [ { "class_id": "invoice", "page_numbers": [1, 2], "fields": { "invoice_number": "F-12" } } ] }
 * A field may also be given as `{ "value": ... }` (as the results file has it), `document_type` or
 * `classification.class_id` stand for `class_id`, `split.page_numbers` for `page_numbers`. A file with one document
 * may leave out the `documents` list: `{ "class_id": "invoice", "fields": { ... } }`. A document's `text` (its true
 * text) is scored as a character error rate.
 *
 * MUST walk the folder in sorted order (stable reports); MUST report a document without an expected file as skipped
 * and an unreadable expected file as that document's error, never stop the run. An `.xml` file is a document when
 * its content is a UBL or CII e-invoice (as for `docproc process`); other XML is reported as not a document.
 */
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { sniffEInvoiceXml } from "../core/convert/sniff";
import { DocprocError } from "../core/errors";
import type { FieldValue } from "../core/model";
import type { ExpectedDocument } from "./score";

const EXTENSIONS = new Set([
  ".pdf",
  ".png",
  ".jpg",
  ".jpeg",
  ".tif",
  ".tiff",
  ".webp",
  ".gif",
  ".bmp",
  ".eml",
  ".txt",
  ".xml",
]);

export interface EvalItem {
  file: string;
  expectedFile: string;
  expected?: ExpectedDocument[];
  error?: string;
}

export interface EvalFolder {
  items: EvalItem[];
  /** Documents without an expected file. */
  skipped: string[];
  /** Files with a document extension that are none (XML that is no e-invoice), with the reason. */
  notDocuments: Array<{ file: string; reason: string }>;
}

export async function readEvalFolder(dir: string): Promise<EvalFolder> {
  if (!(await stat(dir).catch(() => null))?.isDirectory())
    throw new DocprocError("invalid_input", `${dir} is not a folder`);
  const items: EvalItem[] = [];
  const skipped: string[] = [];
  const notDocuments: EvalFolder["notDocuments"] = [];
  const walk = async (d: string): Promise<void> => {
    const entries = (await readdir(d, { withFileTypes: true }))
      .filter((e) => !e.name.startsWith("."))
      .sort((a, b) => (a.name < b.name ? -1 : 1));
    const names = new Set(entries.map((e) => e.name));
    for (const e of entries) {
      const full = path.join(d, e.name);
      if (e.isDirectory()) await walk(full);
      else if (EXTENSIONS.has(path.extname(e.name).toLowerCase())) {
        const sniffed = path.extname(e.name).toLowerCase() === ".xml" ? sniffEInvoiceXml(await readFile(full)) : null;
        if (sniffed && sniffed.syntax === null) {
          notDocuments.push({ file: full, reason: sniffed.reason });
          continue;
        }
        const stem = e.name.slice(0, -path.extname(e.name).length);
        if (!names.has(`${stem}.json`)) {
          skipped.push(full);
          continue;
        }
        const expectedFile = path.join(d, `${stem}.json`);
        try {
          items.push({
            file: full,
            expectedFile,
            expected: parseExpected(JSON.parse(await readFile(expectedFile, "utf8"))),
          });
        } catch (err) {
          items.push({ file: full, expectedFile, error: `${path.basename(expectedFile)}: ${(err as Error).message}` });
        }
      }
    }
  };
  await walk(dir);
  if (items.length === 0)
    throw new DocprocError("invalid_input", `${dir}: no document with an expected .json beside it`);
  return { items, skipped, notDocuments };
}

type Json = Record<string, unknown>;

/** Reads an expected file (shapes in the module comment); throws with a message naming what is wrong. */
export function parseExpected(raw: unknown): ExpectedDocument[] {
  if (!raw || typeof raw !== "object" || Array.isArray(raw))
    throw new Error("expected a JSON object with `documents` or `fields`");
  const obj = raw as Json;
  const docs = Array.isArray(obj.documents) ? (obj.documents as unknown[]) : [obj];
  if (docs.length === 0) throw new Error("`documents` is empty");
  return docs.map((d, i) => {
    if (!d || typeof d !== "object") throw new Error(`documents[${i}] is not an object`);
    const doc = d as Json;
    const fields = doc.fields ?? {};
    if (typeof fields !== "object" || Array.isArray(fields))
      throw new Error(`documents[${i}].fields must be an object`);
    const classId = doc.class_id ?? (doc.classification as Json | undefined)?.class_id ?? doc.document_type;
    const pages = doc.page_numbers ?? (doc.split as Json | undefined)?.page_numbers;
    if (pages !== undefined && (!Array.isArray(pages) || !pages.every((n) => Number.isInteger(n) && n > 0)))
      throw new Error(`documents[${i}].page_numbers must be positive integers`);
    const out: ExpectedDocument = { fields: {} };
    if (typeof classId === "string") out.class_id = classId;
    if (pages) out.page_numbers = pages as number[];
    if (doc.text !== undefined && typeof doc.text !== "string")
      throw new Error(`documents[${i}].text must be a string`);
    if (typeof doc.text === "string") out.text = doc.text;
    for (const [id, v] of Object.entries(fields as Json)) {
      out.fields[id] = (
        v && typeof v === "object" && !Array.isArray(v) && "value" in v ? (v as Json).value : v
      ) as FieldValue;
    }
    return out;
  });
}
