/**
 * The stages' vocabulary: stage names, the one stage signature, the state stages share and the signals a stage
 * throws (pause, checkpoint). The runner (core/runner/) runs them; contract in docs/ARCHITECTURE.md
 * ("Transaction runner").
 */
import type { ExportManifest, ExportSink } from "../exporters";
import type { OcrEngine } from "../engines/ocr";
import type {
  ConvertedFile,
  DocumentResult,
  DocumentSpan,
  Page,
  ProgressFn,
  ResultsFile,
  RuleResult,
  SourceInput,
  TransactionInput,
} from "../model";
import type { ProjectSettings } from "../project";
import type { TransactionMeta } from "../results";
import type { NotificationActivity } from "../project/notify";

/**
 * Every stage the runner knows. `convert` and `ocr` always run first (they are not workflow nodes); the others are
 * the types of the project's workflow nodes, run in the order the workflow lists them (a Notification node is the
 * `notify` stage).
 */
export type StageName =
  | "convert"
  | "ocr"
  | "split"
  | "classify"
  | "extract"
  | "validate"
  | "review"
  | "export"
  | "notify";
export const STAGE_NAMES: readonly StageName[] = [
  "convert",
  "ocr",
  "split",
  "classify",
  "extract",
  "validate",
  "review",
  "export",
  "notify",
];

/** One entry of the run's stage sequence: a stage and, for workflow nodes, the node and its workflow position. */
export interface StageStep {
  stage: StageName;
  /** Position in the project's workflow (-1 for convert and ocr). */
  step_index: number;
  /** The node's `id`, when it has one. */
  id: string | null;
  /** `enabled: false` nodes are in the sequence but their stage is skipped (split: one document per file, rule 5). */
  enabled: boolean;
  /** Notification nodes only. */
  activity?: NotificationActivity | null;
}

/**
 * A file after conversion, as stages see it (`close` frees the PDF document; `suspend` frees its memory until the
 * next render, see suspendFiles in run-state.ts).
 */
export type OpenFile = ConvertedFile & { close?: () => Promise<void>; suspend?: () => Promise<void> };

/**
 * What the stages share and change, in the order they fill it. Everything but `sources` and the pages' `render`
 * survives `saveRun` / `restoreRun`, so a paused or finished run can continue without converting or OCR-ing again.
 */
export interface RunState {
  /** Sources after e-mail expansion (re-created from the input on resume, never stored). */
  sources: SourceInput[];
  files: OpenFile[];
  pages: Page[];
  spans: DocumentSpan[] | null;
  documents: DocumentResult[];
  transactionRules: RuleResult[];
  /** Empty until Export ran: a Notification node before Export reports no files. */
  manifest: ExportManifest;
  warnings: string[];
  errors: Array<{ source_file_index?: number; stage: string; code: string; message: string }>;
  /**
   * The results file the Export step just wrote, reused as the run's outcome while nothing has changed since (500
   * pages: ~25 ms to build again). The runner drops it before any other stage but a Notification node runs.
   */
  exported?: ResultsFile;
}

/** A notification node's trigger, handed to the caller's delivery function. */
export type NotifyEvent =
  | { event: "reached"; step: StageStep & { activity: NotificationActivity }; manifest: ExportManifest }
  | { event: "failed"; step: StageStep & { activity: NotificationActivity }; error: string };

/**
 * Delivers (CLI: inline with retries) or enqueues (server: a durable job) one notification. Returning `failWorkflow`
 * (a `fail_workflow_on_error` delivery finally failed) aborts the run with `delivery_failed` at this node.
 */
export type NotifyFn = (e: NotifyEvent) => Promise<{ failWorkflow?: string | null; warnings?: string[] } | void>;

export interface StageContext {
  meta: TransactionMeta;
  project: ProjectSettings;
  ocr: OcrEngine;
  sink: ExportSink;
  input: TransactionInput;
  progress: ProgressFn;
  signal?: AbortSignal;
  /** The run's checkpoint request (RunOptions.checkpoint): a long stage MAY stop early by throwing StageInterrupted. */
  checkpoint?: AbortSignal;
  password?: string;
  profiles?: ProjectSettings["export_profiles"];
  /** The run's state is stored at its end (RunOptions.keepState): conversion prepares the pages' words for it. */
  keepsState?: boolean;
  now: () => Date;
  notify: NotifyFn;
  /** The step being run (its node, for workflow stages). */
  step: StageStep;
}

/** One signature for every stage: read and change the state; throw `AwaitInput` to pause, anything else to abort. */
export type Stage = (state: RunState, ctx: StageContext) => Promise<void>;

/** The spec's `review_metadata`; a stage may add keys of its own. */
export type ReviewMetadata = { step_name: string; instructions: string; timeout_hours: number } & Record<
  string,
  unknown
>;

/** Thrown by a stage that needs external input (human review): the run stops in `awaiting_input`. */
export class AwaitInput extends Error {
  constructor(readonly review: ReviewMetadata) {
    super(`awaiting input at ${review.step_name}`);
    this.name = "AwaitInput";
  }
}

/**
 * Thrown by a stage that honoured a checkpoint request part-way (OCR: the pages in flight finished, the others were
 * not started): the run stops with `next` at this same stage, which then does only what is left.
 */
export class StageInterrupted extends Error {
  constructor(stage: StageName) {
    super(`${stage} interrupted at a checkpoint`);
    this.name = "StageInterrupted";
  }
}
