/**
 * The transaction runner's vocabulary: stage names, the one stage signature, the state stages share, the pause
 * signal and the outcome every entry point (CLI process, watch, queue worker) gets back. Contract in
 * docs/ARCHITECTURE.md ("Transaction runner").
 */
import type { DocprocError } from "../errors";
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
 * next render, see suspendFiles in convert-stages.ts).
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

/** The serialisable state of a run and where it stops; what `resumeTransaction` continues from. */
export interface SavedRun {
  version: 1;
  /** Index into the stage sequence of the next stage to run (the sequence's length once finished). */
  next: number;
  /** The stage the run stopped after, e.g. `review` (null: not started past OCR). */
  stopped_after: StageName | null;
  /** 0 for the first run; each rerun counts up (delivery ids stay unique per run). */
  run: number;
  files: Array<Omit<ConvertedFile, "attachments"> & { attachments?: Array<{ filename: string; data_base64: string }> }>;
  spans: DocumentSpan[] | null;
  documents: DocumentResult[];
  transaction_rules: RuleResult[];
  manifest: ExportManifest;
  warnings: string[];
  errors: RunState["errors"];
  /**
   * Set by the caller that stores the state (src/queue/process-transaction.ts): the run was stopped at a checkpoint
   * (graceful shutdown) and the next attempt continues from here instead of starting over.
   */
  checkpoint?: boolean;
  /** Seconds spent processing up to this state (stopped time, e.g. a shutdown or a review wait, excluded). */
  processing_seconds?: number;
}

/**
 * The one description of a run's result: every adapter (CLI batch and watch, queue, eval) gets this and maps it where
 * it must (docs/ARCHITECTURE.md, "One outcome").
 */
export interface RunOutcome {
  /**
   * failure: the run aborted (`error` says why); awaiting_input: a stage paused it (`review_metadata`);
   * interrupted: it stopped at a checkpoint on request (`opts.checkpoint`), `saved` continues it.
   */
  status: "success" | "partial" | "failure" | "awaiting_input" | "interrupted";
  results: ResultsFile;
  manifest: ExportManifest;
  files: ConvertedFile[];
  pages: Page[];
  warnings: string[];
  errors: RunState["errors"];
  error?: DocprocError;
  review_metadata?: ReviewMetadata;
  /**
   * The state to store for resume and rerun (null when the run failed before OCR finished, or when it finished and
   * `RunOptions.keepState` is false).
   */
  saved: SavedRun | null;
}

export interface RunOptions {
  meta: TransactionMeta;
  project: ProjectSettings;
  ocr: OcrEngine;
  sink: ExportSink;
  onProgress?: ProgressFn;
  signal?: AbortSignal;
  password?: string;
  /** Overrides the project's export profiles (the CLI's `--format`). */
  profiles?: ProjectSettings["export_profiles"];
  now?: () => Date;
  /** Where notifications go; default: none are sent. */
  notify?: NotifyFn;
  /**
   * A checkpoint request (graceful shutdown). Once it fires the run stops at the next safe point (MUST lose no
   * finished work): the OCR pages in flight finish and the others are not started; any other stage finishes. The
   * outcome is then `interrupted` with the state `resumeTransaction` continues from (converted and read pages kept).
   */
  checkpoint?: AbortSignal;
  /**
   * false: a finished or failed run returns no `saved` state (a caller that never resumes or re-runs, the CLI: the
   * state is a deep copy of every document, ~40 MB for 1,700 documents). A paused or interrupted run always has it.
   */
  keepState?: boolean;
  /** Replaces built-in stages (tests use a test-only pausing step; the review issue plugs its step in here). */
  stages?: Partial<Record<StageName, Stage>>;
}
