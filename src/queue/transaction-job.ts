/**
 * The name of the job that runs a transaction and what its end reports. Its own module so the modules that enqueue
 * the job (submit.ts) or react to its end (review-resume.ts, deliveries.ts, learn.ts) do not import the job's
 * handler (process-transaction.ts), which imports some of them.
 */
import type { StoredManifest } from "../storage/files/export-files";

export const PROCESS_TRANSACTION = "process_transaction";

export type FinishedOutcome =
  | { transaction_id: string; status: "completed"; manifest: StoredManifest; run?: number }
  | { transaction_id: string; status: "failed"; error: string; failedStage: string | null; run?: number };
