import { describe, expect, test } from "bun:test";
import { scoreClass } from "../../../src/core/classify/cues";
import type { DocumentClass } from "../../../src/core/project";

const cls = (cue_patterns: string[], cue_words: string[] = []): DocumentClass =>
  ({ id: "x", name: "X", cue_words, cue_patterns, negative_cue_words: [] }) as unknown as DocumentClass;

/** What the hit count was when cues were counted with matchAll: every match, capped at 5. */
const reference = (pattern: string, text: string) => Math.min(5, [...text.matchAll(new RegExp(pattern, "giu"))].length);

describe("cue counting", () => {
  test("counts each pattern's matches as matchAll does, capped at five, empty matches included", () => {
    const texts = ["abc", "", "invoice 1 invoice 2", "😀a😀b", "aaaaaaaaaa", "rechnung\nrechnung"];
    const patterns = ["z*", "a", "invoice \\d", "(?:)", "\\p{L}?", "rechnung", "😀?"];
    for (const text of texts)
      for (const pattern of patterns) {
        const hits = scoreClass(cls([pattern]), text).hits;
        expect({ text, pattern, n: hits[0]?.count ?? 0 }).toEqual({ text, pattern, n: reference(pattern, text) });
      }
  });

  test("a cue word counted twice in a row gives the same count (the cached regex starts over)", () => {
    const c = cls([], ["invoice"]);
    const text = "Invoice\ninvoice no 1\ninvoices";
    const first = scoreClass(c, text).hits[0]!.count;
    expect(first).toBe(3);
    expect(scoreClass(c, text).hits[0]!.count).toBe(first);
  });

  test("a class whose cue lists change is scored with the new cues (cues are prepared per class object)", () => {
    const c = cls([], ["invoice"]);
    expect(scoreClass(c, "Receipt\nreceipt no 1").hits).toEqual([]);
    c.cue_words = ["receipt"];
    expect(scoreClass(c, "Receipt\nreceipt no 1").hits[0]).toMatchObject({ cue: "receipt", count: 2 });
    c.cue_words.push("no");
    expect(scoreClass(c, "Receipt\nreceipt no 1").hits.map((h) => h.cue)).toContain("no");
  });
});
