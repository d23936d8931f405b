/** What `docproc watch` (watcher.ts) is given, and the events it reports (watch-run.ts and watch-log.ts read them). */
import type { ProjectSettings } from "../core/project";

export interface WatchOptions {
  dirs: string[];
  outDir: string;
  dataDir: string;
  project: ProjectSettings;
  poll: boolean;
  stableMs: number;
  /** Default: `<watched dir>/processed` and `<watched dir>/failed`. */
  processedDir?: string;
  failedDir?: string;
  /** Leave originals where they are (the ledger alone prevents reprocessing). */
  keep: boolean;
  /** Content the ledger recorded as failed is processed again when it appears (after fixing the cause). */
  retryFailed?: boolean;
  concurrency: number;
  rescanMs?: number;
  /** Default: the project's `ocr.engine`, else auto. */
  ocrEngine?: "auto" | "wasm" | "native";
  /** Result names: by transaction id (default) or by source stem (`--name-by source`; src/batch/output-names.ts). */
  nameBy?: "transaction" | "source";
  /** The pipeline's progress for a file's transaction (step timings in the log: src/batch/watch-log.ts). */
  onProgress?: (transactionId: string, step: string, done: number, total: number) => void;
}

export type WatchEvent =
  | { event: "watching"; dirs: string[]; polling: boolean; reason: string }
  | { event: "taken"; file: string; transaction_id: string; retaken: boolean }
  | {
      event: "done" | "failed";
      file: string;
      transaction_id: string;
      results_file: string | null;
      documents: number;
      seconds: number;
      error: string | null;
      /** The error's stable code (docs/api.md), null when done. */
      error_code: string | null;
      warnings: string[];
      moved_to: string | null;
    }
  | {
      event: "skipped";
      file: string;
      reason: "already_processed" | "duplicate";
      status: string;
      transaction_id: string;
      moved_to: string | null;
    }
  /** A settled file that is no document (an .xml that is no UBL or CII e-invoice): left where it is. */
  | { event: "skipped"; file: string; reason: "not_a_document"; detail: string }
  | { event: "error"; file?: string; message: string }
  /** The file changed (or vanished) while it was processed: left in place, taken again once stable. */
  | { event: "changed"; file: string; transaction_id: string }
  | { event: "stopped" };

export interface WatchHandle {
  /** Resolves once the initial scan has been queued and the watcher is live. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/** A watched folder and where its originals go. */
export interface Root {
  dir: string;
  processed: string;
  failed: string;
}
