/**
 * The getUnicodeRangeFor speed patch (src/core/engines/pdf/pdfjs-speed-patches.ts, UNICODE_RANGES) answers exactly as
 * pdf.js's own scan: both versions are cut out of the shipped pdf.worker.mjs and compared on every code point, with
 * and without the `lastPosition` hint, and on codes that are no integers.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { UNICODE_RANGES } from "../../../../src/core/engines/pdf/pdfjs-font-patches.ts";
import { applyPatches } from "../../../../src/core/engines/pdf/pdfjs-speed-patches.ts";

type RangeOf = (value: number, lastPosition?: number) => number;

/** UnicodeRanges and getUnicodeRangeFor as pdf.worker.mjs (patched or not) defines them, as a callable function. */
function rangeFunction(source: string): RangeOf {
  const start = source.indexOf("const UnicodeRanges = [");
  const end = source.indexOf("const SpecialCharRegExp = ");
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  return new Function(`${source.slice(start, end)}\nreturn getUnicodeRangeFor;`)() as RangeOf;
}

test("the patched getUnicodeRangeFor gives pdf.js's answer for every code point and hint", () => {
  const source = readFileSync(Bun.resolveSync("pdfjs-dist/legacy/build/pdf.worker.mjs", import.meta.dir), "utf8");
  const patched = applyPatches(source, UNICODE_RANGES, []);
  expect(patched).not.toBeNull();
  const stock = rangeFunction(source);
  const fast = rangeFunction(patched!);
  const differing: Array<[number, number]> = [];
  for (let code = 0; code <= 0x110000; code++) {
    for (const hint of [-1, 0, 60, 122]) if (stock(code, hint) !== fast(code, hint)) differing.push([code, hint]);
  }
  for (const odd of [-1, 0.5, 127.5, 0xffff + 0.25, Number.NaN, Infinity])
    if (stock(odd) !== fast(odd)) differing.push([odd, -1]);
  expect(differing).toEqual([]);
  // Codes past the first private use area belong to no range: the case the table is for.
  expect(fast(0x100000)).toBe(-1);
}, 120_000);
