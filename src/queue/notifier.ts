/**
 * In-process change notifications (transaction id → listeners). Long polls subscribe here; the queue emits after
 * every status change it commits. Other processes learn of it through `broadcast` (PostgreSQL NOTIFY), and in
 * any case through the long poll's own database re-check.
 */
export interface Notifier {
  /** Wakes this process's listeners, and (unless `local`) tells the other processes through `broadcast`. */
  emit(id: string, opts?: { local?: boolean }): void;
  /** Returns an unsubscribe function. */
  subscribe(id: string, fn: () => void): () => void;
  /** Number of live subscriptions (tests, health). */
  size(): number;
}

export function createNotifier(broadcast?: (id: string) => void): Notifier {
  const listeners = new Map<string, Set<() => void>>();
  let count = 0;
  return {
    emit(id, opts) {
      if (broadcast && !opts?.local) {
        try {
          broadcast(id);
        } catch {
          // Best effort: the other servers' long polls re-check the database on their own timer anyway.
        }
      }
      const set = listeners.get(id);
      if (!set) return;
      for (const fn of [...set]) fn();
    },
    subscribe(id, fn) {
      let set = listeners.get(id);
      if (!set) listeners.set(id, (set = new Set()));
      set.add(fn);
      count++;
      return () => {
        if (set!.delete(fn)) count--;
        if (set!.size === 0) listeners.delete(id);
      };
    },
    size: () => count,
  };
}
