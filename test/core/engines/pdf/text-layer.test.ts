/** Text-layer building blocks: word boxes from text runs, the usable/garbage verdict, reading order. */
import { describe, expect, test } from "bun:test";
import type { Word } from "../../../../src/core/model.ts";
import { orderWordsIntoLines } from "../../../../src/core/word-lines.ts";
import { wordsOfRun, type TextRun } from "../../../../src/core/engines/pdf/text-layer.ts";
import { judgeTextLayer } from "../../../../src/core/engines/pdf/text-layer-verdict.ts";

// Viewport of a 600 × 800 pt page at scale 1: flips y (top-left origin).
const VIEWPORT = [1, 0, 0, -1, 0, 800];
const STYLE = { fontFamily: "sans-serif", ascent: 0.75, descent: -0.25 };

function run(str: string, width: number, glyphs?: Array<string | number>): TextRun {
  return { str, dir: "ltr", width, height: 10, transform: [10, 0, 0, 10, 100, 700], fontName: "f1", glyphs };
}

describe("wordsOfRun", () => {
  test("places words at the glyph offsets pdf.js measured, with the box spanning ascent to descent", () => {
    // "ab cd": glyph advances a=5, b=5, space=3, c=4, d=6.
    const glyphs = ["a", 0, 5, "b", 5, 10, "c", 13, 17, "d", 17, 23];
    const words = wordsOfRun(run("ab cd", 23, glyphs), STYLE, VIEWPORT);
    expect(words.map((w) => [w.text, w.bounding_box])).toEqual([
      ["ab", [100, 92.5, 110, 102.5]],
      ["cd", [113, 92.5, 123, 102.5]],
    ]);
  });

  test("splits a ligature glyph between its letters", () => {
    const words = wordsOfRun(run("fix", 15, ["ﬁ", 0, 10, "x", 10, 15]), STYLE, VIEWPORT);
    expect(words[0].bounding_box[0]).toBe(100);
    expect(words[0].bounding_box[2]).toBe(115);
  });

  test("without glyph offsets, estimates positions inside the run but keeps its ends exact", () => {
    const words = wordsOfRun(run("Total amount", 60), STYLE, VIEWPORT);
    expect(words.map((w) => w.text)).toEqual(["Total", "amount"]);
    expect(words[0].bounding_box[0]).toBe(100);
    expect(words[1].bounding_box[2]).toBe(160);
    expect(words[0].bounding_box[2]).toBeLessThan(words[1].bounding_box[0]);
  });

  test("an implausibly small em box from the font is replaced by typical metrics", () => {
    const [word] = wordsOfRun(run("x", 5, ["x", 0, 5]), { ascent: 0.35, descent: -0.13 }, VIEWPORT);
    expect(word.bounding_box[3] - word.bounding_box[1]).toBeCloseTo(10, 5); // a full em, not 4.8
  });
});

describe("judgeTextLayer", () => {
  const words = (...texts: string[]): Word[] =>
    texts.map((text) => ({ text, confidence: 1, bounding_box: [0, 0, 1, 1] }));

  test("accepts ordinary text, including non-Latin letters", () => {
    expect(judgeTextLayer(words("Rechnung", "Nr.", "2024-001", "Größe")).usable).toBe(true);
    expect(judgeTextLayer(words("Օղին", "حبيبي")).usable).toBe(true);
  });

  test("rejects private-use and replacement characters (fonts without a Unicode map)", () => {
    const verdict = judgeTextLayer(words("\uE001\uE002\uE003", "ab"));
    expect(verdict.usable).toBe(false);
    expect(verdict.reason).toContain("unmappable");
  });

  test("dot, dash and underscore leaders do not make a text page look like symbols", () => {
    const leaders = words(
      "Subtotal",
      "..........................",
      "10,00",
      "VAT",
      "............................",
      "2,10",
      "Total",
      "..........................",
      "12,10",
      "Sign:",
      "______________",
    );
    expect(judgeTextLayer(leaders).usable).toBe(true);
    // a lone dot or dash is still punctuation, not a leader
    expect(judgeTextLayer(words(".", "-", ".", "-", "a")).usable).toBe(false);
  });

  test("rejects punctuation soup and an empty layer", () => {
    expect(judgeTextLayer(words("!#%&", "*+", "a")).usable).toBe(false);
    expect(judgeTextLayer([]).usable).toBe(false);
  });
});

describe("orderWordsIntoLines", () => {
  test("groups words into lines by vertical overlap, top to bottom, left to right", () => {
    const list: Word[] = [
      { text: "second", confidence: 1, bounding_box: [10, 50, 60, 62] },
      { text: "world", confidence: 1, bounding_box: [70, 11, 120, 23] },
      { text: "hello", confidence: 1, bounding_box: [10, 10, 60, 22] },
    ];
    expect(orderWordsIntoLines(list)).toBe("hello world\nsecond");
    expect(list.map((w) => [w.text, w.line])).toEqual([
      ["hello", 1],
      ["world", 1],
      ["second", 2],
    ]);
  });

  test("the same order as a stable sort by vertical centre, ties and unsorted columns included", () => {
    // The reference: what orderWordsIntoLines did before it sorted precomputed keys.
    const reference = (words: Word[]): string => {
      const centre = (w: Word) => (w.bounding_box[1] + w.bounding_box[3]) / 2;
      const byTop = [...words].sort((p, q) => centre(p) - centre(q));
      const lines: Word[][] = [];
      let current: Word[] = [];
      let top = 0,
        bottom = 0;
      for (const w of byTop) {
        const [, y1, , y2] = w.bounding_box;
        const c = (y1 + y2) / 2;
        if (current.length && c >= top && c <= bottom) {
          current.push(w);
          top = Math.min(top, y1 + (y2 - y1) * 0.25);
          bottom = Math.max(bottom, y2 - (y2 - y1) * 0.25);
          continue;
        }
        if (current.length) lines.push(current);
        current = [w];
        top = y1 + (y2 - y1) * 0.25;
        bottom = y2 - (y2 - y1) * 0.25;
      }
      lines.push(current);
      return lines
        .map((l) =>
          l
            .sort((p, q) => p.bounding_box[0] - q.bounding_box[0])
            .map((w) => w.text)
            .join(" "),
        )
        .join("\n");
    };
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let page = 0; page < 200; page++) {
      // Two or three columns printed one after the other, rows on a coarse grid (many equal centres).
      const words: Word[] = Array.from({ length: 20 + Math.floor(random() * 200) }, (_, i) => {
        const row = Math.floor(random() * 40),
          x = Math.floor(random() * 3) * 200 + Math.floor(random() * 150);
        const h = 10 + Math.floor(random() * 3);
        return { text: `w${i}`, confidence: 1, bounding_box: [x, row * 14, x + 30, row * 14 + h] };
      });
      expect(orderWordsIntoLines(words.map((w) => ({ ...w })))).toBe(reference(words.map((w) => ({ ...w }))));
    }
  });
});
