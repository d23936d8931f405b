/**
 * Running the `webhook_delivery` jobs planned by deliveries.ts: one job = one attempt (`deliverOnce`). The attempt
 * is recorded and the next one, if `planNextAttempt` says so, is enqueued as a new job whose run_at is the backoff:
 * a job MUST NOT sleep, and a restart loses nothing. The end of a fail_workflow_on_error delivery settles the
 * transaction it holds in `processing` (see deliveries.ts).
 */
import { after, isoAt, sleep, type Clock } from "../core/clock";
import { DocprocError } from "../core/errors";
import { deliverOnce, type AttemptRecord } from "../core/notify/deliver";
import { planNextAttempt } from "../core/notify/retry";
import { deliveryFailure, type PlannedDelivery } from "../core/stages/notify";
import type { Db } from "../storage/schema/db";
import * as store from "../storage/jobs/deliveries";
import * as tx from "../storage/transactions/transactions";
import { enqueueAttempt, planTransactionDeliveries, WEBHOOK_DELIVERY, type WebhookSettings } from "./deliveries";
import type { JobHelpers } from "./job-handler";
import type { Notifier } from "./notifier";
import type { FinishedOutcome } from "./transaction-job";
import type { WorkerPool } from "./worker";

/**
 * Ends a fail_workflow_on_error delivery's hold on its transaction: a failure fails the transaction at once; a
 * success completes it when no other such delivery is still running. Returns true when the status changed.
 */
function settleTransaction(
  db: Db,
  clock: Clock,
  d: store.DeliveryRecord,
  attempts: number,
  ok: boolean,
  error: string | null,
): boolean {
  if (!d.fail_workflow_on_error) return false;
  const t = tx.getTransaction(db, d.transaction_id);
  if (!t || t.status !== "processing" || t.current_step !== "notify") return false;
  const now = isoAt(clock);
  const seconds = t.started_at ? Math.max(0, (clock.now() - Date.parse(t.started_at)) / 1000) : null;
  if (!ok) {
    const planned = {
      activity_index: d.activity_index,
      event: d.event,
      fail_workflow_on_error: true,
      request: d.request,
    } as PlannedDelivery;
    const failure = deliveryFailure(planned, {
      ok: false,
      error: error ?? undefined,
      attempts: new Array<AttemptRecord>(attempts),
    });
    tx.markFailed(db, t.transaction_id, now, failure!.message, seconds);
    store.releaseHold(db, t.transaction_id, "failed", now);
    return true;
  }
  if (store.pendingBlockingDeliveries(db, t.transaction_id) > 0) return false;
  tx.markCompleted(db, t.transaction_id, now, seconds ?? 0);
  store.releaseHold(db, t.transaction_id, "completed", now);
  return true;
}

/** Ends a delivery (guarded: only once) and settles its transaction. */
function endDelivery(
  db: Db,
  clock: Clock,
  d: store.DeliveryRecord,
  attempts: number,
  ok: boolean,
  error: string | null,
): boolean {
  if (!store.markEnded(db, d.delivery_id, ok, error, isoAt(clock))) return false;
  return settleTransaction(db, clock, d, attempts, ok, error);
}

export interface DeliveryDeps {
  db: Db;
  clock: Clock;
  notifier: Notifier;
  settings: WebhookSettings;
  log?: (msg: string) => void;
}

async function runAttempt(
  payload: { delivery_id: string },
  deps: DeliveryDeps,
  pool: WorkerPool,
  helpers: JobHelpers,
): Promise<void> {
  const { db, clock } = deps;
  const d = store.getDelivery(db, payload.delivery_id);
  if (!d || d.state === "succeeded" || d.state === "failed") return;
  const attempt = d.attempts + 1;
  const outcome = await deliverOnce(d.request, {
    allowPrivate: deps.settings.allowPrivate,
    resolve: deps.settings.resolve,
    signal: helpers.signal,
    now: () => new Date(clock.now()),
  });
  // Stopping or a lost lease: the attempt does not count; the worker releases the job (or its new holder sends it).
  if (helpers.signal.aborted) throw helpers.signal.reason ?? new Error("delivery aborted");
  const next = planNextAttempt(attempt, outcome, d, new Date(clock.now()));
  const changed = helpers.finish(() => {
    store.recordAttempt(db, d.delivery_id, { attempt, ...outcome }, isoAt(clock));
    if (next.action === "retry") {
      store.markRetrying(db, d.delivery_id, next.run_at, isoAt(clock));
      enqueueAttempt(db, clock, d.delivery_id, next.next_attempt, Date.parse(next.run_at));
      return false;
    }
    return endDelivery(
      db,
      clock,
      d,
      attempt,
      next.action === "succeeded",
      next.action === "give_up" ? next.reason : null,
    );
  });
  if (next.action === "retry") {
    // Durability is the job's run_at; this timer (on the clock the run_at was computed from, so it never fires
    // before the job is due) only spares the wait for the next poll.
    after(clock, Date.parse(next.run_at) - clock.now(), () => pool.wake(), { unref: true });
    deps.log?.(
      `delivery ${d.delivery_id} attempt ${attempt} failed (${outcome.error}); attempt ${next.next_attempt} at ${next.run_at}`,
    );
  }
  if (changed) deps.notifier.emit(d.transaction_id);
}

/** Registers the `webhook_delivery` handler on a pool. */
export function registerWebhookDeliveries(pool: WorkerPool, deps: DeliveryDeps): void {
  pool.registerHandler(
    WEBHOOK_DELIVERY,
    (payload: { delivery_id: string }, helpers) => runAttempt(payload, deps, pool, helpers),
    {
      // An attempt is bounded by its own timeout_seconds (at most 300 s); this is the backstop.
      timeoutMs: 330_000,
      onFailure(payload: { delivery_id: string }, message, willRetry) {
        if (willRetry) return;
        const d = store.getDelivery(deps.db, payload.delivery_id);
        if (!d) return;
        const changed = deps.db
          .transaction(() => endDelivery(deps.db, deps.clock, d, d.attempts, false, `delivery job failed: ${message}`))
          .immediate();
        if (changed) deps.notifier.emit(d.transaction_id);
      },
    },
  );
}

/** The onFinished hook for ProcessDeps: plans deliveries and wakes the pool once the status is committed. */
export function deliveriesOnFinished(pool: WorkerPool, deps: DeliveryDeps): (db: Db, outcome: FinishedOutcome) => void {
  return (db, outcome) => {
    const res = planTransactionDeliveries(db, deps.clock, outcome, deps.settings);
    for (const w of res.warnings) deps.log?.(`transaction ${outcome.transaction_id}: ${w}`);
    if (res.enqueued > 0) setTimeout(() => pool.wake(), 0);
  };
}

/**
 * Runs due `webhook_delivery` jobs in this process until the given delivery has ended (the CLI's redeliver, which
 * may run with no server). Other due deliveries it meets are sent too: they are owed anyway.
 */
export async function runDeliveryToEnd(
  db: Db,
  clock: Clock,
  deliveryId: string,
  settings: WebhookSettings,
  log?: (m: string) => void,
): Promise<store.DeliveryRecord> {
  const { createWorkerPool } = await import("./worker");
  const { createNotifier } = await import("./notifier");
  const pool = createWorkerPool({ db, clock, concurrency: 0, log });
  registerWebhookDeliveries(pool, { db, clock, notifier: createNotifier(), settings, log });
  for (;;) {
    const d = store.getDelivery(db, deliveryId);
    if (!d) throw new DocprocError("not_found", `Delivery ${deliveryId} not found`);
    if (d.state === "succeeded" || d.state === "failed") return d;
    if (await pool.runOnce()) continue;
    const due = d.next_attempt_at ? Date.parse(d.next_attempt_at) - clock.now() : 100;
    await sleep(clock, Math.min(1000, Math.max(20, due)));
  }
}
