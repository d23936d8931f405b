/**
 * Long polls on transaction status. A waiter wakes at once when this process changes the status (notifier), and
 * within `recheckMs` when another process does (one shared timer re-reads the statuses of every watched
 * transaction in a single query, so 1,000 waiting clients cost one query per tick, not 1,000 timers).
 */
import type { Notifier } from "../queue/notifier";
import type { Db } from "../storage/db";
import { statusesOf, TERMINAL_STATUSES, type TransactionStatus } from "../storage/transactions";

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

export function createLongPoll(db: Db, notifier: Notifier, recheckMs = 1000): LongPoll {
  const waiters = new Set<Waiter>();
  let timer: ReturnType<typeof setInterval> | null = null;
  let closed = false;

  const recheck = () => {
    if (waiters.size === 0) {
      if (timer) clearInterval(timer);
      timer = null;
      return;
    }
    const now = statusesOf(db, [...new Set([...waiters].map((w) => w.id))]);
    for (const w of [...waiters]) if (now.get(w.id) !== w.status) w.done();
  };

  return {
    wait(id, status, timeoutMs, signal) {
      if (closed || timeoutMs <= 0 || (TERMINAL_STATUSES as readonly string[]).includes(status)) return Promise.resolve();
      return new Promise<void>((resolve) => {
        let t: ReturnType<typeof setTimeout>;
        let unsubscribe = () => {};
        const waiter: Waiter = {
          id,
          status,
          done: () => {
            if (!waiters.delete(waiter)) return;
            clearTimeout(t);
            unsubscribe();
            signal?.removeEventListener("abort", waiter.done);
            resolve();
          },
        };
        waiters.add(waiter);
        t = setTimeout(waiter.done, timeoutMs);
        unsubscribe = notifier.subscribe(id, () => {
          if (statusesOf(db, [id]).get(id) !== status) waiter.done();
        });
        signal?.addEventListener("abort", waiter.done, { once: true });
        if (!timer) timer = setInterval(recheck, recheckMs);
      });
    },
    waiting: () => waiters.size,
    /** Answers every waiting poll now, and every later one at once (shutdown). */
    close() {
      closed = true;
      for (const w of [...waiters]) w.done();
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}
