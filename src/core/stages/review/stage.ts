/**
 * The Review workflow step (docs/review.md): `{ type: "review", enabled, when, classes, instructions, timeout_hours,
 * timeout_action }`. When the run reaches an enabled node whose condition holds, the run stops in `awaiting_input`
 * with `review_metadata` (step_name, instructions, timeout_hours, timeout_action); the steps after it (export,
 * later notifications) wait until a reviewer finishes or the timeout acts. Otherwise the run passes through.
 *
 * `when`: `review_required` (default: any split, classification or field flagged for review and not confirmed),
 * `validation_errors` (any document or transaction rule with status `error`), `always`, `never`. `classes` limits
 * the check to documents of those class ids. The CLI never pauses (the runner's built-in `noReviewStage`): `process`
 * marks files that need review in its summary and `docproc review` opens them.
 */
import type { DocumentResult, RuleResult } from "../../model";
import type { ProjectSettings } from "../../project";
import { AwaitInput, type Stage } from "../types";
import { isReadinessRule } from "../../einvoice/readiness-rule";
import { UNREADABLE_PAGE_RULE } from "../validate";

export interface ReviewNode {
  when: "review_required" | "validation_errors" | "always" | "never";
  classes?: string[];
  instructions: string;
  timeout_hours: number;
  timeout_action: "continue" | "fail";
}

const DEFAULT_INSTRUCTIONS =
  "Check the fields flagged for review, correct them on the page, confirm the document and finish.";

/** The node at `stepIndex` of the workflow with its defaults (a node the list leaves out gets the defaults). */
export function reviewNodeOf(project: ProjectSettings, stepIndex: number): ReviewNode {
  const node = (project.workflow[stepIndex] ?? {}) as Partial<ReviewNode> & { type?: string };
  return {
    when: node.when ?? "review_required",
    ...(node.classes ? { classes: node.classes } : {}),
    instructions: node.instructions ?? DEFAULT_INSTRUCTIONS,
    timeout_hours: node.timeout_hours ?? 24,
    timeout_action: node.timeout_action ?? "continue",
  };
}

function flagged(doc: DocumentResult): boolean {
  if (doc.split.review_required) return true;
  if (doc.classification.review_required && doc.classification.confirmed !== true) return true;
  // Data an e-invoice export profile needs and the document lacks (core/einvoice/readiness.ts).
  if (doc.validation?.rule_results.some(isReadinessRule)) return true;
  // A page that could not be read stands in as empty: a person looks at the file.
  if (doc.validation?.rule_results.some((r) => r.rule_id === UNREADABLE_PAGE_RULE)) return true;
  return Object.values(doc.fields).some((f) => f.review_required && f.is_confirmed !== true);
}

/** Whether the node's condition holds for these documents. */
export function reviewNeeded(node: ReviewNode, documents: DocumentResult[], transactionRules: RuleResult[]): boolean {
  const docs = node.classes ? documents.filter((d) => node.classes!.includes(d.classification.class_id)) : documents;
  switch (node.when) {
    case "never":
      return false;
    case "always":
      return docs.length > 0 || !node.classes;
    case "validation_errors":
      return (
        docs.some((d) => d.validation?.overall_status === "error") ||
        (!node.classes && transactionRules.some((r) => r.status === "error"))
      );
    default:
      return docs.some(flagged);
  }
}

/** The server's Review step: pauses the run when the node's condition holds. */
export const reviewStage: Stage = async (state, ctx) => {
  // Only a node the project lists pauses: a workflow without one (the runner adds the step) passes through.
  if (ctx.step.step_index < 0) return;
  const node = reviewNodeOf(ctx.project, ctx.step.step_index);
  if (!reviewNeeded(node, state.documents, state.transactionRules)) return;
  throw new AwaitInput({
    step_name: ctx.step.id ?? "review",
    instructions: node.instructions,
    timeout_hours: node.timeout_hours,
    timeout_action: node.timeout_action,
  });
};

/**
 * The built-in Review slot passes through: the server plugs in `reviewStage` (above, pauses for a
 * reviewer) through `RunOptions.stages.review`; the CLI never pauses (`docproc review` opens marked files later).
 */
export const noReviewStage: Stage = async () => {};
