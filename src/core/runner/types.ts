/**
 * The transaction runner's own vocabulary: the saved state of a run, the outcome every entry point (CLI process,
 * watch, queue worker) gets back and the run's options. The stages' vocabulary (Stage, RunState, StageName, the
 * pause signal) is in core/stages/types.ts. Contract in docs/ARCHITECTURE.md ("Transaction runner").
 */
import type { DocprocError } from "../errors";
import type { ExportManifest, ExportSink } from "../exporters";
import type { OcrEngine } from "../engines/ocr";
import type { ConvertedFile, DocumentResult, DocumentSpan, Page, ProgressFn, ResultsFile, RuleResult } from "../model";
import type { ProjectSettings } from "../project";
import type { TransactionMeta } from "../results";
import type { NotifyFn, ReviewMetadata, RunState, Stage, StageName } from "../stages/types";

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
