/**
 * The accuracy gate: `docproc eval` over every corpus with expected values (test/accuracy/corpora.ts says which,
 * and which slice of the OCR-heavy ones), each per-corpus, per-field figure checked against its floor in
 * fixtures/accuracy/floors.json. A figure below its floor fails; one well above it is reported so the floor is
 * raised. `UPDATE_FIXTURES=1 bun test test/accuracy/gate.test.ts` records the measured figures as floors where they
 * are better (and regenerates the table in docs/accuracy.md); `ACCURACY_ALLOW_LOWER=1` also lets a floor go down,
 * which needs a commit that says why.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { CORPORA_LIST } from "./corpora";
import { ACCURACY_DOC, compareFigures, raisedFloors, readFloors, withTable, writeFloors } from "./floors";
import { measure, type Measured } from "./measure";
import { CACHE_DIR } from "./scans";

const UPDATE = process.env.UPDATE_FIXTURES === "1";
const ALLOW_LOWER = process.env.ACCURACY_ALLOW_LOWER === "1";
const floors = readFloors();
const root = mkdtempSync(path.join(os.tmpdir(), "docproc-gate-"));
const measured: Measured[] = [];

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
  if (!measured.length) return;
  // The last run's figures and times, for a look without running the gate again (the committed table shows floors).
  mkdirSync(CACHE_DIR, { recursive: true });
  const last = Object.fromEntries(measured.map((m) => [m.id, { seconds: Math.round(m.seconds), figures: m.figures }]));
  writeFileSync(path.join(CACHE_DIR, "last-measured.json"), JSON.stringify(last, null, 2) + "\n");
  if (!UPDATE) return;
  for (const m of measured) {
    const about = CORPORA_LIST.find((c) => c.id === m.id)!.about;
    floors.corpora[m.id] = { about, figures: raisedFloors(floors.corpora[m.id]?.figures, m.figures, ALLOW_LOWER) };
  }
  const order = CORPORA_LIST.map((c) => c.id);
  floors.corpora = Object.fromEntries(
    Object.entries(floors.corpora).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)),
  );
  writeFloors(floors);
  writeFileSync(ACCURACY_DOC, withTable(readFileSync(ACCURACY_DOC, "utf8"), floors));
});

describe("accuracy gate: docproc eval over the corpora, every figure at or above its floor", () => {
  test("every corpus has floors and every floor has its corpus", () => {
    const ids = CORPORA_LIST.map((c) => c.id);
    expect(Object.keys(floors.corpora).filter((id) => !ids.includes(id))).toEqual([]);
    if (!UPDATE) expect(ids.filter((id) => !floors.corpora[id])).toEqual([]);
  });

  for (const corpus of CORPORA_LIST) {
    test(`${corpus.id}: ${corpus.about}`, async () => {
      const m = await measure(corpus, root);
      measured.push(m);
      const { failures, raise } = compareFigures(floors.corpora[corpus.id]?.figures ?? {}, m.figures);
      const misses = m.report.fields.flatMap((f) =>
        f.misses.map(
          (x) =>
            `    ${f.field} ${x.file}: expected ${JSON.stringify(x.expected)}, got ${JSON.stringify(x.got ?? null)}`,
        ),
      );
      const cer = m.report.text?.files.map((f) => `    cer ${f.file}: ${(100 * f.cer).toFixed(2)}%`) ?? [];
      const more = misses.length > 40 ? [`    … and ${misses.length - 40} more misses`] : [];
      console.log(
        [
          `${corpus.id} (${m.seconds.toFixed(0)} s)`,
          ...failures.map((f) => `  BELOW FLOOR ${f}`),
          ...misses.slice(0, 40),
          ...more,
          ...cer,
        ].join("\n"),
      );
      if (raise.length && !UPDATE)
        console.log(
          `  above the floor, raise it (UPDATE_FIXTURES=1 bun test test/accuracy/gate.test.ts):\n${raise.map((r) => `    ${r}`).join("\n")}`,
        );
      if (!UPDATE || !ALLOW_LOWER) expect(failures).toEqual([]);
    }, 900_000);
  }
});
