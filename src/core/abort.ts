/**
 * Cancellation checks for the pipeline's loops (job timeout, shutdown, transaction deletion all abort one signal).
 * Every loop over pages, documents or export files MUST call `throwIfAborted` before each unit of work, so an abort
 * stops the work within one unit instead of at the next stage boundary.
 */
import { DocprocError } from "./errors";

/** The error an aborted signal stands for: its reason when that is a DocprocError (a job timeout says so itself). */
export function abortError(signal: AbortSignal, stage: string): DocprocError {
  if (signal.reason instanceof DocprocError) return signal.reason;
  return new DocprocError("timeout", `${stage} was aborted`, { stage, retryable: true, cause: signal.reason });
}

export function throwIfAborted(signal: AbortSignal | undefined, stage: string): void {
  if (signal?.aborted) throw abortError(signal, stage);
}
