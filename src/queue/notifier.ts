/**
 * In-process change notifications (transaction id → listeners). Long polls subscribe here; the queue emits after
 * every status change it commits. Changes made by other processes are caught by the long poll's DB re-check.
 */
export interface Notifier {
  emit(id: string): void;
  /** Returns an unsubscribe function. */
  subscribe(id: string, fn: () => void): () => void;
  /** Number of live subscriptions (tests, health). */
  size(): number;
}

export function createNotifier(): Notifier {
  const listeners = new Map<string, Set<() => void>>();
  let count = 0;
  return {
    emit(id) {
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
