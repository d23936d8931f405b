/**
 * Long polls on transaction status. A waiter wakes at once when this process changes the status (notifier), and
 * within `recheckMs` when another process does (one shared timer re-reads the statuses of every watched
 * transaction in a single query, so 1,000 waiting clients cost one query per tick, not 1,000 timers). Both the
 * timeout and the re-check run on the injected clock (tests advance it instead of waiting).
 */
import type { Notifier } from "../queue/notifier";
import { after, every, systemClock, type Clock } from "../core/clock";
import type { Db } from "../storage/schema/db";
import { statusesOf, TERMINAL_STATUSES, type TransactionStatus } from "../storage/transactions/transactions";

interface Waiter {
  id: string;
  status: TransactionStatus;
  done: () => void;
}

export interface LongPoll {
  /** Resolves when the status differs from `status`, on timeout, or when `signal` aborts. */
  wait(id: string, status: TransactionStatus, timeoutMs: number, signal?: AbortSignal): Promise<void>;
  waiting(): number;
  close(): void;
}

export function createLongPoll(db: Db, notifier: Notifier, recheckMs = 1000, clock: Clock = systemClock): LongPoll {
  const waiters = new Set<Waiter>();
  let stopRecheck: (() => void) | null = null;
  let closed = false;

  const recheck = () => {
    if (waiters.size === 0) {
      stopRecheck?.();
      stopRecheck = null;
      return;
    }
    const now = statusesOf(db, [...new Set([...waiters].map((w) => w.id))]);
    for (const w of [...waiters]) if (now.get(w.id) !== w.status) w.done();
  };

  return {
    wait(id, status, timeoutMs, signal) {
      if (closed || timeoutMs <= 0 || (TERMINAL_STATUSES as readonly string[]).includes(status))
        return Promise.resolve();
      return new Promise<void>((resolve) => {
        let cancel = () => {};
        let unsubscribe = () => {};
        const waiter: Waiter = {
          id,
          status,
          done: () => {
            if (!waiters.delete(waiter)) return;
            cancel();
            unsubscribe();
            signal?.removeEventListener("abort", waiter.done);
            resolve();
          },
        };
        waiters.add(waiter);
        cancel = after(clock, timeoutMs, waiter.done);
        unsubscribe = notifier.subscribe(id, () => {
          if (statusesOf(db, [id]).get(id) !== status) waiter.done();
        });
        signal?.addEventListener("abort", waiter.done, { once: true });
        stopRecheck ??= every(clock, recheckMs, recheck);
      });
    },
    waiting: () => waiters.size,
    /** Answers every waiting poll now, and every later one at once (shutdown). */
    close() {
      closed = true;
      for (const w of [...waiters]) w.done();
      stopRecheck?.();
      stopRecheck = null;
    },
  };
}
