/**
 * Validation stage: the project's rules over a document's fields and over the whole transaction. The run's Stage
 * (`validateStage`) is in stage.ts beside this file; one rule's evaluation is in core/validate/rules.ts.
 *
 * Contracts:
 * - `validateDocument` MUST return undefined when no applicable rule warns or fails (the results file shows a
 *   document's `validation` only then); otherwise every applicable rule's result, successes included.
 * - A rule with `class_ids` applies only to documents of those classes; a rule whose fields a document does not
 *   have does not apply to it.
 * - `validateTransaction` runs the transaction rules (`unique_in_transaction`) and MUST NOT throw.
 * - `overallStatus` is `error` if any result is an error, else `warning` if any is a warning, else `success`.
 */
import type { DocumentResult, Page, RuleResult, ValidationResult } from "../../model";
import type { ProjectSettings, ValidationRule } from "../../project";
import { evaluateRule, uniqueInTransaction } from "../../validate/rules";
import { EINVOICE_FORMATS } from "../../einvoice/readiness-rule";
import { pushAll } from "../../arrays";

export type Status = "success" | "warning" | "error";

export function overallStatus(results: Array<{ status: Status } | { overall_status: Status } | undefined>): Status {
  let status: Status = "success";
  for (const r of results) {
    const s = r === undefined ? "success" : "status" in r ? r.status : r.overall_status;
    if (s === "error") return "error";
    if (s === "warning") status = "warning";
  }
  return status;
}

const appliesTo = (rule: ValidationRule, doc: DocumentResult) =>
  !rule.class_ids || rule.class_ids.includes(doc.classification?.class_id ?? doc.document_type);

/**
 * Per-document rules; undefined when all applicable rules succeed (or none applies). `einvoice`: the results of the
 * document's e-invoice XML (core/einvoice/validate), listed first; a fatal one makes the status `error`.
 */
export function validateDocument(
  doc: DocumentResult,
  project: ProjectSettings,
  einvoice: RuleResult[] = [],
): ValidationResult | undefined {
  const results: RuleResult[] = [...einvoice];
  for (const rule of project.validation_rules) {
    if (!appliesTo(rule, doc)) continue;
    const r = evaluateRule(rule, doc.fields, project.validation_rules);
    if (r) results.push(r);
  }
  // What the project's e-invoice profiles would miss, so that a Review step shows it before Export fails on it
  // (loaded only for such a project: a literal require() is bundled into the compiled binary).
  if (project.export_profiles.some((p) => EINVOICE_FORMATS.has(p.output_format))) {
    const { einvoiceReadiness } = require("../../einvoice/readiness") as typeof import("../../einvoice/readiness");
    pushAll(results, einvoiceReadiness(doc, project));
  }
  const overall = overallStatus(results);
  return overall === "success" ? undefined : { overall_status: overall, rule_results: results };
}

/** The rule id of a document page that could not be read (a truncated or damaged PDF page, `Page.unreadable`). */
export const UNREADABLE_PAGE_RULE = "page_unreadable";

/**
 * A warning per page of the document that could not be read, naming the page and the reason: the page stands in as
 * an empty page, so the document is never a plain success and a Review step (when review_required) stops for it.
 */
export function unreadablePageResults(pages: Page[]): RuleResult[] {
  return pages
    .filter((p) => p.unreadable !== undefined)
    .map((p) => ({
      rule_id: UNREADABLE_PAGE_RULE,
      status: "warning" as const,
      message: `page ${p.page_number} (${p.source_filename} p.${p.source_file_page_number}) could not be read: ${p.unreadable}`,
    }));
}

/** `validation` with `more` results added (its overall status recomputed); `validation` itself when none. */
export function withResults(
  validation: ValidationResult | undefined,
  more: RuleResult[],
): ValidationResult | undefined {
  if (more.length === 0) return validation;
  const results = (validation?.rule_results ?? []).concat(more);
  return { overall_status: overallStatus(results), rule_results: results };
}

/** Transaction rules (`validation.transaction_rule_results` of the results file). */
export function validateTransaction(docs: DocumentResult[], project: ProjectSettings): RuleResult[] {
  const out: RuleResult[] = [];
  for (const rule of project.validation_rules) {
    if (rule.type !== "unique_in_transaction") continue;
    const r = uniqueInTransaction(
      rule,
      docs.filter((d) => appliesTo(rule, d)),
    );
    if (r) out.push(r);
  }
  return out;
}

/** The transaction's overall status: its own rules and every document's validation. */
export function transactionStatus(docs: DocumentResult[], transactionResults: RuleResult[]): Status {
  return overallStatus([...transactionResults, ...docs.map((d) => d.validation)]);
}
