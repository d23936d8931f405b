/**
 * Retry policy as a pure function (for the durable queue, which persists state between attempts) and a blocking
 * loop over it (for the CLI, which has no queue).
 */
import type { NotificationActivity } from "../project/notify.ts";
import {
  buildDeliveryRequest,
  deliverOnce,
  newDeliveryId,
  type AttemptOutcome,
  type AttemptRecord,
  type SendOptions,
} from "./deliver.ts";
import type { WebhookPayload } from "./payload.ts";

export type NextAttempt =
  | { action: "succeeded" }
  | { action: "give_up"; reason: string }
  | { action: "retry"; next_attempt: number; delay_seconds: number; run_at: string };

/**
 * Decides what follows `attemptsSoFar` attempts whose last outcome is `last`.
 * The delay before attempt n+1 is retry_backoff_seconds × 2^(n−1) (2 s, 4 s, 8 s … by default); a Retry-After
 * from the receiver (already capped by deliverOnce) raises it, never lowers it.
 */
export function planNextAttempt(
  attemptsSoFar: number,
  last: Pick<AttemptOutcome, "ok" | "retryable" | "retry_after_seconds" | "error" | "status">,
  activity: Pick<NotificationActivity, "retry_max_attempts" | "retry_backoff_seconds">,
  now: Date,
): NextAttempt {
  if (last.ok) return { action: "succeeded" };
  const why = last.error ?? (last.status === null ? "failed" : `HTTP ${last.status}`);
  if (!last.retryable) return { action: "give_up", reason: `${why} (not retryable)` };
  if (attemptsSoFar >= activity.retry_max_attempts)
    return { action: "give_up", reason: `${why} after ${attemptsSoFar} attempt(s)` };
  const backoff = activity.retry_backoff_seconds * 2 ** Math.max(0, attemptsSoFar - 1);
  const delay = Math.max(backoff, last.retry_after_seconds ?? 0);
  return {
    action: "retry",
    next_attempt: attemptsSoFar + 1,
    delay_seconds: delay,
    run_at: new Date(now.getTime() + delay * 1000).toISOString(),
  };
}

export interface RetryOptions extends SendOptions {
  /** Same id for every attempt (webhook-id). Default: a fresh `msg_<uuid>`. */
  deliveryId?: string;
  sleep?: (ms: number) => Promise<void>;
  onAttempt?: (record: AttemptRecord) => void;
}

export interface DeliveryResult {
  delivery_id: string;
  ok: boolean;
  attempts: AttemptRecord[];
  /** Why the delivery finally failed; absent on success. */
  error?: string;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Sends one payload to one activity with the full retry policy. Never throws. */
export async function deliverWithRetries(
  activity: NotificationActivity,
  payload: WebhookPayload,
  opts: RetryOptions = {},
): Promise<DeliveryResult> {
  const request = buildDeliveryRequest(activity, payload, opts.deliveryId ?? newDeliveryId());
  const now = opts.now ?? (() => new Date());
  const sleep = opts.sleep ?? defaultSleep;
  const attempts: AttemptRecord[] = [];
  for (;;) {
    const outcome = await deliverOnce(request, opts);
    const record: AttemptRecord = { attempt: attempts.length + 1, ...outcome };
    attempts.push(record);
    opts.onAttempt?.(record);
    const next = planNextAttempt(attempts.length, outcome, activity, now());
    if (next.action === "succeeded") return { delivery_id: request.delivery_id, ok: true, attempts };
    if (next.action === "give_up") return { delivery_id: request.delivery_id, ok: false, attempts, error: next.reason };
    if (opts.signal?.aborted) return { delivery_id: request.delivery_id, ok: false, attempts, error: "aborted" };
    await sleep(next.delay_seconds * 1000);
  }
}
