/**
 * XML profile (fast-xml-parser XMLBuilder). The structure is documented in docs/exports.md. Field ids and item
 * keys are attribute values, never element names, so any id yields well-formed XML. Text is escaped by the
 * builder; characters XML 1.0 cannot carry at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF) are stripped.
 */
import { XMLBuilder } from "fast-xml-parser";
import type { DocumentResult, FieldResult, FieldValue, ResultsFile, RuleResult } from "../model";
import type { ProfileOf } from "../project/exports";
import { documentValues, transactionValues, type ExportContext, type ExportWriter } from "./context";
import { renderTemplate, withExtension } from "./filename";
import { templateOf } from "./names";

type XmlOptions = ProfileOf<"xml">["options"];
type Node = Record<string, unknown>;

const INVALID_XML = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlSafe(text: string): string {
  return text.replace(INVALID_XML, "");
}

function text(value: unknown): string {
  return value === null || value === undefined ? "" : xmlSafe(String(value));
}

function rules(list: RuleResult[]): Node[] {
  return list.map((r) => ({
    "@_id": text(r.rule_id),
    "@_status": r.status,
    ...(r.field_ids?.length ? { "@_field_ids": text(r.field_ids.join(" ")) } : {}),
    "#text": text(r.message),
  }));
}

function valueNode(value: FieldValue): Node {
  if (!Array.isArray(value)) return value === null ? { "@_null": "true" } : { "#text": text(value) };
  return {
    item: value.map((item, i) => ({
      "@_index": i + 1,
      cell: Object.entries(item).map(([key, v]) => ({
        "@_key": text(key),
        "#text": text(Array.isArray(v) ? JSON.stringify(v) : v),
      })),
    })),
  };
}

function fieldNode(id: string, f: FieldResult): Node {
  return {
    "@_id": text(id),
    "@_name": text(f.name),
    "@_confidence": f.confidence,
    "@_review_required": f.review_required,
    "@_is_confirmed": f.is_confirmed === null ? "" : f.is_confirmed,
    value: valueNode(f.value),
    ...(f.bounding_boxes.length
      ? {
          box: f.bounding_boxes.map((b) => ({
            "@_page": b.page_index,
            "@_x1": b.coordinates[0],
            "@_y1": b.coordinates[1],
            "@_x2": b.coordinates[2],
            "@_y2": b.coordinates[3],
          })),
        }
      : {}),
  };
}

function documentNode(doc: DocumentResult, o: XmlOptions): Node {
  const ids = o.field_ids ?? Object.keys(doc.fields);
  const c = doc.classification;
  return {
    "@_id": text(doc.document_id),
    "@_index": doc.document_index,
    "@_type": text(doc.document_type),
    "@_classification_confidence": doc.classification_confidence,
    classification: {
      "@_class_id": text(c.class_id),
      "@_type": text(c.type),
      "@_confidence": c.confidence,
      "@_review_required": c.review_required,
      "#text": text(c.reasoning),
    },
    pages: { page: doc.split.page_numbers },
    fields: { field: ids.filter((id) => doc.fields[id]).map((id) => fieldNode(id, doc.fields[id]!)) },
    ...(o.include_validation && doc.validation
      ? { validation: { "@_overall_status": doc.validation.overall_status, rule: rules(doc.validation.rule_results) } }
      : {}),
  };
}

export function buildXml(results: ResultsFile, documents: DocumentResult[], o: XmlOptions, exportedAt: Date): string {
  const t = results.transaction;
  const root: Node = {
    "@_id": text(results.transaction_id),
    "@_tenant_id": text(results.tenant_id),
    "@_project_id": text(results.project_id),
    "@_project_version": t.project_version,
    "@_created_at": text(t.created_at),
    "@_exported_at": exportedAt.toISOString(),
    ...(t.correlation_id ? { "@_correlation_id": text(t.correlation_id) } : {}),
    source_files: { file: t.source_file_names.map(text) },
    ...(o.include_validation
      ? {
          validation: {
            "@_overall_status": results.validation.overall_status,
            rule: rules(results.validation.transaction_rule_results),
          },
        }
      : {}),
    documents: { document: documents.map((d) => documentNode(d, o)) },
  };
  const builder = new XMLBuilder({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    format: true,
    suppressEmptyNode: true,
    suppressBooleanAttributes: false,
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ transaction: root })}`;
}

export async function exportXml(
  ctx: ExportContext,
  profile: ProfileOf<"xml">,
  out: ExportWriter,
  now: Date,
): Promise<void> {
  const o = profile.options;
  const docs = ctx.results.documents;
  if (o.scope === "per_transaction") {
    const name = renderTemplate(templateOf(profile), transactionValues(ctx, profile.id));
    await out.file(
      withExtension(name, "xml"),
      buildXml(ctx.results, docs, o, now),
      docs.map((d) => d.document_id),
    );
    return;
  }
  for (const doc of docs) {
    const name = renderTemplate(templateOf(profile), documentValues(ctx, profile.id, doc));
    await out.file(withExtension(name, "xml"), buildXml(ctx.results, [doc], o, now), [doc.document_id]);
  }
}
