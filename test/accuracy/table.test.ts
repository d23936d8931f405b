/**
 * The pieces of the accuracy gate that need no OCR: the committed table in docs/accuracy.md is the one the floors
 * give (so it cannot go stale), the floor rules (below fails, ceilings for error rates, floors only go up), the
 * golden normaliser and diff, and the deterministic scans.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { scoreTexts, textEdits } from "../../src/eval/cer";
import {
  ACCURACY_DOC,
  README_DOC,
  README_GROUPS,
  compareFigures,
  raisedFloors,
  readFloors,
  renderAccuracyTable,
  withTable,
} from "./floors";
import { jsonDiff, normalizeResults } from "./golden";
import { CORPORA_LIST } from "./corpora";
import { renderScan, skewOf } from "./scans";

describe("docs/accuracy.md", () => {
  test("holds the table fixtures/accuracy/floors.json gives, and the README its invoice and OCR part (bun scripts/accuracy-table.ts regenerates them)", async () => {
    const doc = readFileSync(ACCURACY_DOC, "utf8");
    expect(doc).toBe(withTable(doc, readFloors()));
    const readme = readFileSync(README_DOC, "utf8");
    expect(readme).toBe(withTable(readme, readFloors(), README_GROUPS));
    expect(readme).toContain("| figure | text | scan-200 |");
    const check = Bun.spawnSync([process.execPath, "scripts/accuracy-table.ts", "--check"], {
      cwd: path.resolve(import.meta.dir, "../.."),
    });
    expect(check.exitCode).toBe(0);
  });

  test("the table has a column per variant and a row per figure, text and scans side by side", () => {
    const table = renderAccuracyTable({
      note: "",
      corpora: {
        "inv/text": {
          about: "PDFs",
          figures: { total_amount: { value: 1, correct: 4, total: 4 }, files_read: { value: 1, correct: 4, total: 4 } },
        },
        "inv/scan": { about: "scans", figures: { total_amount: { value: 0.75, correct: 3, total: 4 } } },
        "ocr/pages": { about: "pages", figures: { cer: { value: 0.0123, lower: true } } },
      },
    });
    expect(table).toContain("| figure | text | scan |");
    expect(table).toContain("| total_amount | 100.0% (4/4) | 75.0% (3/4) |");
    expect(table).toContain("| files_read | 100.0% (4/4) |  |");
    expect(table).toContain("| character error rate (lower is better) | 1.23% |");
  });

  test("every corpus of the gate has floors, and every floor a corpus", () => {
    expect(Object.keys(readFloors().corpora).sort()).toEqual(CORPORA_LIST.map((c) => c.id).sort());
  });
});

describe("floors", () => {
  const floor = { total_amount: { value: 0.9, correct: 9, total: 10 }, cer: { value: 0.05, lower: true as const } };

  test("a figure below its floor, an error rate above its ceiling, or a figure gone fails", () => {
    expect(
      compareFigures(floor, { total_amount: { value: 0.8, correct: 8, total: 10 }, cer: { value: 0.05, lower: true } })
        .failures,
    ).toEqual(["total_amount: 0.8 (8/10) is below its floor 0.9 (9/10)"]);
    expect(
      compareFigures(floor, { total_amount: { value: 0.9, correct: 9, total: 10 }, cer: { value: 0.06, lower: true } })
        .failures,
    ).toEqual(["cer: 0.06 is above its ceiling 0.05"]);
    expect(compareFigures(floor, { cer: { value: 0.01, lower: true } }).failures).toEqual([
      "total_amount: floor 0.9 (9/10), no longer measured",
    ]);
    expect(compareFigures(floor, floor)).toEqual({ failures: [], raise: [] });
  });

  test("a figure well above its floor asks for a higher floor", () => {
    const r = compareFigures(floor, {
      total_amount: { value: 1, correct: 10, total: 10 },
      cer: { value: 0.01, lower: true },
      iban: { value: 1, correct: 1, total: 1 },
    });
    expect(r.failures).toEqual([]);
    expect(r.raise).toEqual([
      "total_amount: 1 (10/10), floor 0.9 (9/10)",
      "cer: 0.01, floor 0.05",
      "iban: 1 (1/1), no floor recorded yet",
    ]);
  });

  test("updating keeps the better of floor and measurement unless lowering is allowed", () => {
    const got = { total_amount: { value: 0.8, correct: 8, total: 10 }, cer: { value: 0.02, lower: true as const } };
    expect(raisedFloors(floor, got, false)).toEqual({ total_amount: floor.total_amount, cer: got.cer });
    expect(raisedFloors(floor, got, true)).toEqual(got);
    expect(raisedFloors(floor, { cer: got.cer }, false)).toEqual({ cer: got.cer, total_amount: floor.total_amount });
  });
});

describe("eval's character error rate", () => {
  test("edits over reference characters after NFKC and whitespace collapsing, long pages weighing more", () => {
    expect(textEdits("ﬁne  day\n", "fine day")).toEqual({ edits: 0, length: 8 });
    expect(textEdits("fine dav", "fine day")).toEqual({ edits: 1, length: 8 });
    expect(textEdits("“It’s” ‘x’", "\"It's\" 'x'")).toEqual({ edits: 0, length: 10 });
    expect(textEdits("a – b", "a - b").edits).toBe(1);
    const s = scoreTexts([
      { file: "a", expected: "abcd", got: "abcx" },
      { file: "b", expected: "abcdefghijklmnop", got: undefined },
    ]);
    expect(s.documents).toBe(2);
    expect(s.cer).toBeCloseTo(17 / 20, 6);
    expect(s.files.map((f) => f.cer)).toEqual([0.25, 1]);
    expect(scoreTexts([]).cer).toBeNull();
  });
});

describe("golden normalisation", () => {
  test("ids become numbered placeholders (references still match), timestamps, durations and the repo path too", () => {
    const id = "5b0fe8aa-9d6e-4fc2-af6f-8be2a57af0f2";
    const n = normalizeResults(
      {
        transaction_id: id,
        ref: id,
        other: "b8583caa-4336-4a0c-a2ca-a642bb37a8cb",
        at: "2026-11-27T14:40:58.814Z",
        seconds: 1.2,
        stage_ms: 4,
        path: "/x/repo/a.pdf",
        conf: 0.93,
      },
      "/x/repo",
    );
    expect(n).toEqual({
      transaction_id: "<id 1>",
      ref: "<id 1>",
      other: "<id 2>",
      at: "<timestamp>",
      seconds: "<duration>",
      stage_ms: "<duration>",
      path: "<repo>/a.pdf",
      conf: 0.93,
    });
  });

  test("a difference reads as field path: expected → got", () => {
    const a = { documents: [{ fields: { total_amount: { value: 12.5 } }, class: "invoice" }] };
    const b = { documents: [{ fields: { total_amount: { value: 12 }, iban: { value: "X" } }, class: "invoice" }] };
    expect(jsonDiff(a, b)).toEqual([
      "documents[0].fields.total_amount.value: 12.5 → 12",
      'documents[0].fields.iban: (absent) → {"value":"X"}',
    ]);
    expect(jsonDiff(a, a)).toEqual([]);
    const long = jsonDiff({ r: [] }, { r: Array.from({ length: 40 }, (_, i) => ({ rule_id: `BR-${i}` })) });
    expect(long).toHaveLength(40);
    expect(jsonDiff({ v: "" }, { v: "x".repeat(400) })[0]).toMatch(/^v: "" → "x{149}… \(402 chars\)$/);
  });
});

describe("rendered scans", () => {
  test("deterministic bytes, image-only pages at the asked resolution, skews within ±1.5°", async () => {
    const pdf = new Uint8Array(
      readFileSync(path.resolve(import.meta.dir, "../../fixtures/corpora/invoice2data/AmazonWebServices.pdf")),
    );
    const variant = { dpi: 200 as const, angle: 1.2, quality: 60 };
    const [a, b] = [await renderScan(pdf, "a.pdf", variant), await renderScan(pdf, "a.pdf", variant)];
    expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);
    const dir = mkdtempSync(path.join(os.tmpdir(), "docproc-scan-"));
    try {
      writeFileSync(path.join(dir, "a.pdf"), a);
      expect(
        Bun.spawnSync(["pdftotext", path.join(dir, "a.pdf"), "-"])
          .stdout.toString()
          .trim(),
      ).toBe("");
      const list = Bun.spawnSync(["pdfimages", "-list", path.join(dir, "a.pdf")]).stdout.toString();
      expect(list).toMatch(/gray\s+1\s+8\s+jpeg.*\b200\s+200\b/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    for (const name of ["a", "b", "c", "oyo", "saeco"]) expect(Math.abs(skewOf(name))).toBeLessThanOrEqual(1.5);
  }, 60_000);
});
