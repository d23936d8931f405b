/**
 * The one transaction runner (docs/ARCHITECTURE.md, "Transaction runner"): `runTransaction`, `resumeTransaction`,
 * the `Stage` type and `StageName` union, the `AwaitInput` pause signal, and the helpers every entry point shares
 * (transaction metadata, OCR engine choice, inline notification delivery, failure text).
 */
import type { OcrEngineKind } from "../engines/ocr";
import type { ProjectSettings } from "../project";
import type { TransactionMeta } from "../results";
import type { RunOutcome } from "./types";

export { runTransaction, resumeTransaction, stageSequence } from "./run";
export { saveRun, restoreRun } from "./state";
export { inlineNotifier, type InlineNotifySettings } from "./notify-inline";
export { BUILTIN_STAGES } from "./builtin-stages";
export * from "../stages/types";
export * from "./types";

/** The OCR engine of a run: the caller's override (the CLI's --ocr-engine) wins over the project's `ocr.engine`. */
export function ocrEngineOf(project: ProjectSettings, override?: OcrEngineKind): OcrEngineKind {
  return override ?? project.ocr.engine;
}

/** Metadata of a transaction that has no stored record (CLI process and watch): tenant `local`, the project's id. */
export function localMeta(opts: {
  transactionId: string;
  project: ProjectSettings;
  metadata: Record<string, unknown>;
  source: string;
  now?: Date;
}): TransactionMeta {
  return {
    transaction_id: opts.transactionId,
    tenant_id: "local",
    project_id: opts.project.id ?? "default",
    project_version: 1,
    correlation_id: null,
    metadata: opts.metadata,
    created_at: (opts.now ?? new Date()).toISOString(),
    source: opts.source,
  };
}

/** One line per error, `message [code, stage]`: what a failed local transaction reports (watch's error note, ledger). */
export function describeFailure(outcome: Pick<RunOutcome, "errors" | "error">): string {
  const errors = outcome.errors.length
    ? outcome.errors
    : outcome.error
      ? [{ message: outcome.error.message, code: outcome.error.code, stage: outcome.error.stage ?? "pipeline" }]
      : [];
  return errors.map((e) => `${e.message} [${e.code}, ${e.stage}]`).join("\n") || "processing failed";
}
