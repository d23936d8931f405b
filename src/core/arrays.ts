/**
 * Array helpers that never put an array's elements on the call stack. `a.push(...xs)`, `Math.max(...xs)` and
 * `String.fromCharCode(...xs)` pass every element as an argument: an input-sized array overflows the stack, and a
 * worker thread's stack is smaller than the main thread's (a 4.7 MB text's 622k word boxes in `Math.max(...)` failed
 * classification in `serve` only, issue 38). test/architecture/stack-safe.test.ts keeps such spreads out of src/.
 */

/** Appends every item of `items` to `target` (what `target.push(...items)` does); returns `target`. */
export function pushAll<T>(target: T[], items: Iterable<T>): T[] {
  for (const item of items) target.push(item);
  return target;
}

/** `Math.max(...xs)`: -Infinity for none, NaN when any is NaN. */
export function maxOf(xs: Iterable<number>): number {
  let max = -Infinity;
  for (const x of xs) max = Math.max(max, x);
  return max;
}

/** `Math.min(...xs)`: Infinity for none, NaN when any is NaN. */
export function minOf(xs: Iterable<number>): number {
  let min = Infinity;
  for (const x of xs) min = Math.min(min, x);
  return min;
}
