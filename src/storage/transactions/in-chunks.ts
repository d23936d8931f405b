/**
 * `IN (?, ?, …)` lists read in slices: SQLite refuses more than 32,766 parameters, and each parameter is an argument
 * of the statement call (`.all(...chunk)`), so a list as long as the input (documents of a per-page split) must not
 * become one call.
 */
export const IN_CHUNK = 500;

/** Runs `read` on slices of at most IN_CHUNK ids, with their placeholder list; the rows in slice order. */
export function inChunks<T>(ids: readonly string[], read: (chunk: string[], marks: string) => T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < ids.length; i += IN_CHUNK) {
    const chunk = ids.slice(i, i + IN_CHUNK);
    for (const r of read(chunk, chunk.map(() => "?").join(","))) out.push(r);
  }
  return out;
}
