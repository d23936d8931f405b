/**
 * No spread of an array into call arguments in src/ (issue 38): `Math.max(...boxes)` over a 4.7 MB text's 622k word
 * boxes overflowed the stack of serve's pipeline thread. The scanner (spread-scan.ts) is tested on planted samples
 * first, then run over every file of src/; a provably small case is allowed with a `stack-safe: <why>` comment.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { SRC, sourceFiles } from "./source-files";
import { maxOf, minOf, pushAll } from "../../src/core/arrays";
import { findCallSpreads } from "./spread-scan";

describe("call-argument spreads", () => {
  test("the scanner finds planted spreads and leaves rest parameters, literals, strings and comments alone", () => {
    const planted = [
      "const a = Math.max(...xs);",
      "out.push(...more);",
      "f(1, ...rest);",
      "const s = new Set(...lists);",
      "s += String.fromCharCode(...bytes);",
      "call(x, `${y}`, ...z);",
      "go(/[(]/.test(a), ...z);",
      "api\n  .all(a,\n    ...many);",
    ];
    expect(planted.map((p) => findCallSpreads(p).length)).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
    expect(findCallSpreads(planted.at(-1)!)[0]!.line).toBe(3);
    const fine = [
      "function f(...args: number[]) { return args; }",
      "const g = (...args) => args;",
      "class A { m(...xs: string[]): void {} }",
      "const b = [...xs, ...ys];",
      "const o = { ...a, b: 1 };",
      "const t = 'f(...xs)' + \"g(...ys)\";",
      "// h(...zs)\n/* k(...ws) */",
      "const u = `m(...${'q'})`;",
      "f([...xs]);",
      "g({ ...o });",
      "f(...small); // stack-safe: two values",
      "// stack-safe: a handful\nf(...kinds);",
    ];
    expect(fine.flatMap((f) => findCallSpreads(f))).toEqual([]);
  });

  test("src/ has none (a small case needs a `stack-safe:` comment saying why)", () => {
    const files = sourceFiles(SRC);
    expect(files.length).toBeGreaterThan(100);
    const hits = files.flatMap((f) =>
      findCallSpreads(readFileSync(f, "utf8")).map((h) => `${path.relative(SRC, f)}:${h.line}: ${h.text}`),
    );
    expect(hits).toEqual([]);
  });

  test("the helpers match what the spreads did, on arrays far larger than any stack", () => {
    const big = Array.from({ length: 1_000_000 }, (_, i) => (i * 7919) % 1_000_003);
    expect(maxOf(big)).toBe(big.reduce((m, x) => (x > m ? x : m), -Infinity));
    expect(minOf(big)).toBe(0);
    expect([maxOf([]), minOf([]), maxOf([1, NaN]), minOf(new Set([3, 2]))]).toEqual([-Infinity, Infinity, NaN, 2]);
    const target = [1];
    expect(pushAll(target, big).length).toBe(1_000_001);
  });
});
