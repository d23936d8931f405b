/**
 * What the ubl, cii and facturx profiles share: one e-invoice per billing document (the profile's `document_types`),
 * built from the document's fields, or from the e-invoice it came as with the fields laid over (core/einvoice).
 * Nothing invalid is written silently: a document that lacks mandatory terms (listed by BT number), breaks the totals
 * rules or that the validator (the context's, else core/einvoice/validate) rejects is skipped with a warning naming them; when no document can be
 * written the profile fails with that list as its error.
 */
import { DocprocError } from "../errors";
import { throwIfAborted } from "../abort";
import type { DocumentResult } from "../model";
import { modelOfDocument, type SourceInvoice } from "../einvoice/from-fields";
import { readEInvoice } from "../extract/einvoice";
import { checkDefaults, defaultablePaths } from "../einvoice/defaults";
import {
  brokenTotals,
  missingTerms,
  SPECIFICATION_IDS,
  specificationOf,
  type Specification,
} from "../einvoice/mandatory";
import type { BtNode, EInvoiceModel, Syntax } from "../einvoice/model";
import { pdfAttachments } from "../einvoice/pdf-attachments";
import { readEInvoiceModel } from "../einvoice/read";
import { writeEInvoice } from "../einvoice/write";
import { parseXml } from "../einvoice/xml";
import type { ExportContext, ExportWriter } from "./context";
import { wholeBytes } from "../source-data";

export interface EInvoiceOptions {
  /** `source`: keep the specification the source e-invoice claims (EN 16931 for any other document). */
  customization: "source" | Specification;
  document_types: string[];
  /** BT id → value for terms the documents do not carry (typically the buyer: the company docproc works for). */
  defaults: Record<string, string>;
}

const isPdf = (data: Uint8Array) => new TextDecoder("latin1").decode(data.subarray(0, 1024)).includes("%PDF-");
const looksXml = (a: { filename: string; data: Uint8Array }) =>
  /\.xml$/i.test(a.filename) ||
  /^\s*(<\?xml|<)/.test(new TextDecoder().decode(a.data.subarray(0, 64)).replace(/^\uFEFF/, ""));

/** Source file names of a document's pages. */
function filesOf(ctx: ExportContext, doc: DocumentResult): Set<string> {
  const mine = (p: { page_number: number }) => doc.split.page_numbers.includes(p.page_number);
  const byIndex = new Map(ctx.sources.map((s) => [s.index, s.filename]));
  return new Set([
    ...ctx.pages.filter(mine).map((p) => byIndex.get(p.source_file_index) ?? p.source_filename),
    ...(ctx.results.pages ?? []).filter(mine).map((p) => p.source_filename),
  ]);
}

/**
 * The e-invoice the document came as (standalone XML, or XML attached to its PDF), or null. A file split into
 * several documents has no e-invoice of any one of them: its XML describes one invoice, not each part.
 */
export async function sourceModelOf(
  ctx: ExportContext,
  doc: DocumentResult,
): Promise<(EInvoiceModel & SourceInvoice) | null> {
  const files = filesOf(ctx, doc);
  const shared = ctx.results.documents.some(
    (other) => other !== doc && [...filesOf(ctx, other)].some((f) => files.has(f)),
  );
  if (shared) return null;
  for (const src of ctx.sources) {
    if (files.size && !files.has(src.filename)) continue;
    const data = wholeBytes(src.data); // opened for this look only when left in its file
    const candidates = isPdf(data) ? await pdfAttachments(data) : [{ filename: src.filename, data }];
    for (const a of candidates.filter(looksXml)) {
      try {
        const model = readEInvoiceModel(a.data);
        if (model) return { ...model, read: readEInvoice([a])?.fields ?? {} };
      } catch {
        // Not well-formed: not an e-invoice this document came as.
      }
    }
  }
  return null;
}

export interface BuiltEInvoice {
  xml?: string;
  data?: BtNode;
  problems: string[];
}

/**
 * The validator of core/einvoice/validate (XML structure, EN 16931 and the CIUS the file claims, from the official
 * Schematron), loaded at the first e-invoice written: it compiles its rule sets once (2-4 s), then takes ~0.5 s a file.
 */
async function officialRules(xml: string | Uint8Array) {
  const { validateEInvoice } = await import("../einvoice/validate");
  return validateEInvoice(xml);
}

/** The e-invoice of one document in `syntax`, checked; `problems` lists why it cannot be written. */
export async function buildEInvoice(
  ctx: ExportContext,
  doc: DocumentResult,
  o: EInvoiceOptions,
  syntax: Syntax,
): Promise<BuiltEInvoice> {
  const source = await sourceModelOf(ctx, doc);
  const { data } = modelOfDocument(doc, source, o.defaults, defaultablePaths());
  // "source" keeps an EN 16931 claim (core or a CIUS); anything else (Factur-X MINIMUM/BASIC WL, an ERP's plain UBL)
  // becomes EN 16931, which is what docproc checks and writes.
  if (o.customization !== "source" || !source || !/^urn:cen\.eu:en16931:2017/.test(data.values["BT-24"] ?? "")) {
    const spec = SPECIFICATION_IDS[o.customization === "source" ? "en16931" : o.customization];
    data.values["BT-24"] = spec.bt24;
    if (spec.bt23) data.values["BT-23"] ??= spec.bt23;
  }
  const problems = [...missingTerms(data, specificationOf(data)), ...brokenTotals(data)].map((f) => f.message);
  if (problems.length) return { problems };
  const xml = writeEInvoice(data, syntax);
  try {
    parseXml(xml);
  } catch (err) {
    return { problems: [`the written XML is not well-formed: ${(err as Error).message}`] };
  }
  const verdict = await (ctx.validateEInvoice ?? officialRules)(xml);
  if (!verdict.valid) {
    const fatal = verdict.results.filter((r) => r.severity === "fatal" || r.severity === "error");
    return {
      problems: (fatal.length ? fatal : verdict.results).map(
        (r) => `${r.rule_id}: ${r.message}${r.xpath ? ` (${r.xpath})` : ""}`,
      ),
    };
  }
  return { xml, data, problems: [] };
}

/** Runs `write` for every billing document whose e-invoice passes; see the module comment for failures. */
export async function forEachEInvoice(
  ctx: ExportContext,
  o: EInvoiceOptions,
  syntax: Syntax,
  out: ExportWriter,
  write: (doc: DocumentResult, built: Required<BuiltEInvoice>) => Promise<void>,
): Promise<void> {
  checkDefaults(o.defaults);
  // Types are class ids (document_type is the class's display name).
  const docs = ctx.results.documents.filter(
    (d) => o.document_types.includes(d.classification.class_id) || o.document_types.includes(d.document_type),
  );
  if (!docs.length) {
    throw new DocprocError(
      "export_failed",
      `no document of type ${o.document_types.join(", ")} to write as an e-invoice`,
      { stage: "export" },
    );
  }
  const failures: string[] = [];
  for (const doc of docs) {
    throwIfAborted(ctx.signal, "export");
    const built = await buildEInvoice(ctx, doc, o, syntax);
    if (built.problems.length) {
      failures.push(
        `document ${doc.document_index} (${doc.document_id}) cannot be written as a valid e-invoice: ${built.problems.join("; ")}`,
      );
      continue;
    }
    await write(doc, built as Required<BuiltEInvoice>);
  }
  if (failures.length === docs.length)
    throw new DocprocError("export_failed", failures.join(" | "), { stage: "export" });
  for (const f of failures) out.warn(f);
}
