/**
 * Cancellation checks for the pipeline's loops (job timeout, shutdown, transaction deletion all abort one signal).
 * Every loop over pages, documents or export files MUST call `throwIfAborted` before each unit of work, so an abort
 * stops the work within one unit instead of at the next stage boundary.
 */
import { DocprocError } from "./errors";

/**
 * The error an aborted signal stands for: its reason when that is a DocprocError (a job timeout says so itself),
 * else a `timeout` carrying the reason's message (`AbortSignal.timeout()` aborts with a DOMException, which must
 * not surface as an internal error).
 */
export function abortError(signal: AbortSignal, stage: string): DocprocError {
  const reason = signal.reason as unknown;
  if (reason instanceof DocprocError) return reason;
  const message =
    typeof (reason as { message?: unknown } | null)?.message === "string"
      ? (reason as { message: string }).message
      : "";
  return new DocprocError("timeout", message || `${stage} was aborted`, { stage, retryable: true, cause: reason });
}

export function throwIfAborted(signal: AbortSignal | undefined, stage: string): void {
  if (signal?.aborted) throw abortError(signal, stage);
}
