/**
 * Garbage paced while a long document is extracted (issue 18, memory bounded by design).
 *
 * Extraction allocates far more than it keeps: every line searched for a label, a date or an amount leaves match
 * arrays and strings behind. JavaScriptCore collects its young generation only once the bytes allocated since the
 * last collection reach the room left under its heap limit, and that limit is twice what was alive at the last full
 * collection. While a document of a thousand pages is extracted, its lines are alive (~150 MB for 999 pages of
 * prose), so the young garbage could pile up to another 150-250 MB before a collection: most of the run's peak RSS.
 *
 * Inside `paced(work)` the searches call `tick()` per line they scan, and every TICKS_PER_COLLECTION ticks a young
 * (eden) collection runs (2-5 ms: it visits what was allocated since the last one, not the document's lines). Outside
 * it `tick()` does nothing, so documents below the caller's threshold never pay for it. Collections never change
 * what extraction computes: only unreachable objects go (the memos hold lines weakly, and a line nobody holds is
 * never looked up again).
 */

/** Line scans between two young collections (2,000 cost 0.5-1 CPU-s more on 2,000 prose pages for no lower peak). */
export const TICKS_PER_COLLECTION = 5000;

let depth = 0;
let ticks = 0;
let collections = 0;

/** Runs `work` with paced collections when `on`. */
export function paced<T>(on: boolean, work: () => T): T {
  if (!on) return work();
  depth++;
  try {
    return work();
  } finally {
    depth--;
  }
}

/** One line scanned: a young collection every TICKS_PER_COLLECTION of them inside `paced`. */
export function tick(): void {
  if (depth === 0 || ++ticks < TICKS_PER_COLLECTION) return;
  ticks = 0;
  collections++;
  Bun.gc(false);
}

/** Young collections run so far by the pacing (tests compare runs by it). */
export function pacedCollections(): number {
  return collections;
}
