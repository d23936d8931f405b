/**
 * JSON profile: the spec's JSON results file, shaped by the profile options.
 * Per transaction → one `<transaction_id>_data.json`; per document → one file per document holding the same
 * top-level structure with that document only (and only its pages).
 */
import type { z } from "zod";
import type { DocumentResult, FieldResult, FieldValue, ResultsFile, ResultsPage } from "../model";
import { JsonOptionsSchema, type ProfileOf } from "../project/exports";
import { correctedResults } from "./orientation";
import { documentValues, transactionValues, type ExportContext, type ExportWriter } from "./context";
import { renderTemplate, withExtension } from "./filename";
import { templateOf } from "./names";
import { jsonChunks } from "./json-chunks";

export type JsonOptions = z.infer<typeof JsonOptionsSchema>;

function pickFields(
  fields: Record<string, FieldResult>,
  options: JsonOptions,
): Record<string, FieldResult | FieldValue> {
  const ids = options.field_ids ?? Object.keys(fields);
  const out: Record<string, FieldResult | FieldValue> = {};
  for (const id of ids) {
    const field = fields[id];
    if (field) out[id] = options.include_extraction_metadata ? field : field.value;
  }
  return out;
}

function shapeDocument(doc: DocumentResult, options: JsonOptions): Record<string, unknown> {
  const { validation, fields, ...rest } = doc;
  const shaped: Record<string, unknown> = { ...rest, fields: pickFields(fields, options) };
  if (options.include_validation && validation) shaped.validation = validation;
  return shaped;
}

function shapePage(page: ResultsPage, options: JsonOptions): ResultsPage {
  if (options.include_page_ocr) return page;
  // Keys copied one by one: destructuring `words` away would read (unpack) every page's words just to drop them.
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(page))
    if (key !== "words" && key !== "text") rest[key] = page[key as keyof ResultsPage];
  return rest as unknown as ResultsPage;
}

/**
 * Builds the JSON export object from a full results file. `options` may be partial (defaults of the JSON profile
 * apply). Fields listed in `field_ids` but absent from a document are omitted, not null. `include_page_ocr`
 * implies pages. Corrected orientation rotates every box (see correctedResults).
 */
export function buildJsonExport(
  results: ResultsFile,
  options: Partial<z.input<typeof JsonOptionsSchema>> = {},
  exportedAt?: Date,
): Record<string, unknown> {
  const opts = JsonOptionsSchema.parse(options);
  const source = opts.orientation === "corrected" ? correctedResults(results) : results;
  const { documents, pages, validation, transaction, ...top } = source;
  const out: Record<string, unknown> = {
    ...top,
    transaction: exportedAt ? { ...transaction, exported_at: exportedAt.toISOString() } : transaction,
  };
  if (opts.include_validation) out.validation = validation;
  out.documents = documents.map((d) => shapeDocument(d, opts));
  if ((opts.include_pages || opts.include_page_ocr) && pages) out.pages = pages.map((p) => shapePage(p, opts));
  return out;
}

/** Restricts a results file to one document and its pages. */
function resultsOfDocument(results: ResultsFile, doc: DocumentResult): ResultsFile {
  const wanted = new Set(doc.split.page_numbers);
  return {
    ...results,
    documents: [doc],
    ...(results.pages ? { pages: results.pages.filter((p) => wanted.has(p.page_number)) } : {}),
  };
}

export async function exportJson(
  ctx: ExportContext,
  profile: ProfileOf<"json">,
  out: ExportWriter,
  now: Date,
): Promise<void> {
  const opts = profile.options;
  // In pieces: the results file of a long run is never one string (json-chunks.ts).
  const encode = (r: ResultsFile) => jsonChunks(buildJsonExport(r, opts, now));
  if (opts.scope === "per_transaction") {
    const name = renderTemplate(templateOf(profile), transactionValues(ctx, profile.id));
    await out.file(
      withExtension(name, "json"),
      encode(ctx.results),
      ctx.results.documents.map((d) => d.document_id),
    );
    return;
  }
  for (const doc of ctx.results.documents) {
    const name = renderTemplate(templateOf(profile), documentValues(ctx, profile.id, doc));
    await out.file(withExtension(name, "json"), encode(resultsOfDocument(ctx.results, doc)), [doc.document_id]);
  }
}
