/**
 * No fixed waits in tests (issue 36): a test waits for the event (a promise that settles on it, `waitFor` of
 * test/support/wait.ts polling a condition with a deadline, or the injected clock of core/clock.ts), never a fixed
 * time "for something to have happened". This scan lists every `Bun.sleep`, `Bun.sleepSync`, `setTimeout` and
 * `setInterval` under test/; the ones that remain are in fixed-waits.json, each with its reason (the time IS the
 * behaviour under test, a measurement window, a deadline, a negative check). The list may only shrink: a new wait
 * fails, and so does an entry whose wait is gone, so the list is cleaned as the tests get better.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const TEST = path.resolve(import.meta.dir, "..");
const LIST: Record<string, Array<{ code: string; reason: string }>> = JSON.parse(
  readFileSync(path.join(import.meta.dir, "fixed-waits.json"), "utf8"),
);
/** The one sanctioned poll (waitFor's interval) and this scan's own planted cases. */
const EXEMPT = new Set(["support/wait.ts", "architecture/fixed-waits.test.ts"]);
const WAIT = /\bBun\.sleep(?:Sync)?\s*\(|\bset(?:Timeout|Interval)\s*\(/;

/** Each line of `text` that calls a timer, trimmed. */
export function waitsIn(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => WAIT.test(line))
    .map((line) => line.trim());
}

function tsFiles(dir: string, rel = ""): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const child = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return tsFiles(dir, child);
    return /\.tsx?$/.test(e.name) ? [child] : [];
  });
}

/** What breaks the list: a wait not on it (per file, as many times as it occurs), an entry no longer found. */
export function waitProblems(found: Record<string, string[]>, allowed: typeof LIST): string[] {
  const problems: string[] = [];
  for (const file of new Set([...Object.keys(found), ...Object.keys(allowed)])) {
    const left = [...(allowed[file] ?? []).map((e) => e.code)];
    for (const code of found[file] ?? []) {
      const i = left.indexOf(code);
      if (i >= 0) left.splice(i, 1);
      else problems.push(`new fixed wait in test/${file}: ${code} (wait for the event: test/support/wait.ts)`);
    }
    for (const code of left) problems.push(`stale entry for test/${file}: ${code} (remove it from fixed-waits.json)`);
  }
  return problems;
}

describe("fixed waits in tests", () => {
  test("the scan finds planted waits, and the list check reports new and stale ones", () => {
    const text = 'await Bun.sleep(300);\nconst t = setTimeout(() => x(), 5);\nBun.sleepSync(1)\nawait waitFor("x", f);';
    expect(waitsIn(text)).toEqual(["await Bun.sleep(300);", "const t = setTimeout(() => x(), 5);", "Bun.sleepSync(1)"]);
    const allowed = {
      "a.ts": [
        { code: "await Bun.sleep(300);", reason: "r" },
        { code: "gone();", reason: "r" },
      ],
    };
    expect(waitProblems({ "a.ts": ["await Bun.sleep(300);", "await Bun.sleep(300);"] }, allowed)).toEqual([
      "new fixed wait in test/a.ts: await Bun.sleep(300); (wait for the event: test/support/wait.ts)",
      "stale entry for test/a.ts: gone(); (remove it from fixed-waits.json)",
    ]);
  });

  test("every fixed wait under test/ is on the list, and every entry is still there", () => {
    const found: Record<string, string[]> = {};
    for (const file of tsFiles(TEST)) {
      if (EXEMPT.has(file)) continue;
      const waits = waitsIn(readFileSync(path.join(TEST, file), "utf8"));
      if (waits.length) found[file] = waits;
    }
    expect(Object.keys(found).length).toBeGreaterThan(5); // the scan really reads test/
    expect(waitProblems(found, LIST)).toEqual([]);
  });

  test("each entry says why its time is needed", () => {
    for (const [file, entries] of Object.entries(LIST))
      for (const e of entries) expect(e.reason.length, `${file}: ${e.code}`).toBeGreaterThan(20);
  });
});
