/**
 * Reading order by failure class, on word boxes laid out as OCR reports them (no OCR: each case is the geometry that
 * went wrong on the generated reading-order corpus, test/accuracy/columns-corpus.ts): a full-width note just under
 * the columns, a table's amounts beside the next column's prose (whose lines then fall between the table column's),
 * grain read as marks in a gutter, a word whose box grain made tall. Each page is two columns of prose, 12 px a
 * character, 24 px a word height, 36 px a line.
 */
import { describe, expect, test } from "bun:test";
import { orderByLayout } from "../../../../src/core/engines/ocr/reading-order.ts";
import type { Word } from "../../../../src/core/model.ts";

const VOCABULARY =
  "the harbour town keeps its old stone walls and narrow streets where fishermen mend their nets before dawn while merchants open small shops".split(
    " ",
  );

/** `count` lines of prose from `seed`, each about `width` characters. */
function lines(seed: number, count: number, width = 36): string[] {
  let s = seed;
  const out: string[] = [];
  while (out.length < count) {
    let line = "";
    for (;;) {
      s = (s * 1103515245 + 12345) % 2147483648;
      const w = VOCABULARY[s % VOCABULARY.length]!;
      if (line && line.length + 1 + w.length > width) break;
      line = line ? `${line} ${w}` : w;
    }
    out.push(line);
  }
  return out;
}

class Page {
  words: Word[] = [];
  /** Words of `text` from x at top y, in tesseract's line `line` (a whole row of the page, as when it interleaves). */
  put(text: string, x: number, y: number, line: number, confidence = 0.95): void {
    for (const t of text.split(" ")) {
      this.words.push({ text: t, confidence, bounding_box: [x, y, x + t.length * 12, y + 24], line });
      x += (t.length + 1) * 12;
    }
  }
  /** `text` ending at x (a right-aligned amount). */
  putRight(text: string, x: number, y: number, line: number): void {
    this.put(text, x - text.length * 12, y, line);
  }
  read(): string {
    const sorted = [...this.words].sort((a, b) => a.line! - b.line! || a.bounding_box[0] - b.bounding_box[0]);
    return orderByLayout({ words: sorted, text: "", confidence: 0.9 }).text;
  }
}

const [LEFT, RIGHT] = [100, 572];

describe("reading order by failure class", () => {
  test("a full-width note just under two columns is read after both, not as the left column's last lines", () => {
    const page = new Page();
    const [l, r] = [lines(1, 20), lines(2, 20)];
    for (let row = 0; row < 20; row++) {
      page.put(l[row]!, LEFT, 200 + row * 36, row + 1);
      page.put(r[row]!, RIGHT, 200 + row * 36, row + 1);
    }
    // Less than a blank line under the columns, from the left column's edge across the gutter.
    const note = lines(3, 2, 76);
    note.forEach((t, i) => page.put(t, LEFT, 200 + 20 * 36 - 6 + i * 36, 30 + i));
    expect(page.read()).toBe([...l, ...r, ...note].join("\n"));
  });

  test("a table's amounts in the left column beside the right column's prose: rows whole, columns apart", () => {
    const page = new Page();
    const l = lines(4, 24);
    const r = lines(5, 24);
    const rows = [
      ["Cargo", "Tons", "Price"],
      ["Salt", "163", "53.47"],
      ["Timber", "264", "59.65"],
      ["Copper", "22", "82.33"],
      ["Wool", "197", "28.62"],
      ["Grain", "147", "16.85"],
    ];
    // The left column: 6 lines, the table (rows 30 px apart), 12 lines; after the table its lines fall between the
    // right column's (their own baselines): tesseract's rows run across the gutter.
    let y = 200;
    let line = 1;
    const leftText: string[] = [];
    for (const t of l.slice(0, 6)) {
      page.put(t, LEFT, y, line++);
      leftText.push(t);
      y += 36;
    }
    for (const [name, tons, price] of rows) {
      page.put(name!, LEFT, y, line);
      page.putRight(tons!, LEFT + 300, y, line);
      page.putRight(price!, LEFT + 432, y, line++);
      leftText.push(`${name} ${tons} ${price}`);
      y += 30;
    }
    for (const t of l.slice(6, 18)) {
      page.put(t, LEFT, y + 6, line++);
      leftText.push(t);
      y += 36;
    }
    // Tesseract's lines on the left's own rows until the table, then a line each (different baselines).
    for (let row = 0; row < 24; row++) page.put(r[row]!, RIGHT, 200 + row * 36, row < 6 ? row + 1 : 100 + row);
    expect(page.read()).toBe([...leftText, ...r].join("\n"));
  });

  test("grain read as doubtful marks in the gutter is left out and does not join the columns", () => {
    const page = new Page();
    const [l, r] = [lines(6, 20), lines(7, 20)];
    for (let row = 0; row < 20; row++) {
      page.put(l[row]!, LEFT, 200 + row * 36, row + 1);
      page.put(r[row]!, RIGHT, 200 + row * 36, row + 1);
      if (row % 3 === 1) {
        // A dot a fifth of a word height, and a tilde OCR doubts, in the gutter and at a line's end.
        page.words.push({
          text: ":",
          confidence: 0.3,
          bounding_box: [548, 210 + row * 36, 553, 215 + row * 36],
          line: row + 1,
        });
        page.words.push({
          text: "~",
          confidence: 0.2,
          bounding_box: [1030, 212 + row * 36, 1040, 222 + row * 36],
          line: row + 1,
        });
      }
    }
    expect(page.read()).toBe([...l, ...r].join("\n"));
  });

  test("a word whose box grain made tall stays on its line", () => {
    const page = new Page();
    const [l, r] = [lines(8, 20), lines(9, 20)];
    for (let row = 0; row < 20; row++) {
      page.put(l[row]!, LEFT, 200 + row * 36, row + 1);
      page.put(r[row]!, RIGHT, 200 + row * 36, row + 1);
    }
    // The middle word of the left column's 10th line: its box reaches 20 px above the line and 12 below (56 px tall).
    const row10 = page.words.filter((w) => w.line === 10 && w.bounding_box[0] < RIGHT);
    const w = row10[Math.floor(row10.length / 2)]!;
    w.bounding_box = [w.bounding_box[0], w.bounding_box[1] - 20, w.bounding_box[2], w.bounding_box[3] + 12];
    expect(page.read()).toBe([...l, ...r].join("\n"));
  });

  test("a running header with the page number on the right is read before the columns", () => {
    const page = new Page();
    const [l, r] = [lines(10, 20), lines(11, 20)];
    page.put("The Harbour Review", LEFT, 100, 1);
    page.put("Page 12", 920, 100, 1);
    for (let row = 0; row < 20; row++) {
      page.put(l[row]!, LEFT, 200 + row * 36, row + 2);
      page.put(r[row]!, RIGHT, 200 + row * 36, row + 2);
    }
    expect(page.read().replace(/\s+/g, " ")).toBe(["The Harbour Review Page 12", ...l, ...r].join(" "));
  });

  test("a title in large type whose word space lies over the gutter stays whole above both columns", () => {
    const page = new Page();
    const [l, r] = [lines(12, 20), lines(13, 20)];
    // Words 48 px high, 24 px a character, 24 px spaces: "over" ends at 532, "the" starts at 556, over the gutter.
    let x = LEFT - 24;
    for (const t of ["Harbour", "lights", "over", "the", "bay"]) {
      page.words.push({ text: t, confidence: 0.95, bounding_box: [x, 150, x + t.length * 24, 198], line: 1 });
      x += t.length * 24 + 24;
    }
    for (let row = 0; row < 20; row++) {
      page.put(l[row]!, LEFT, 220 + row * 36, row + 2);
      page.put(r[row]!, RIGHT, 220 + row * 36, row + 2);
    }
    expect(page.read().replace(/\s+/g, " ")).toBe(["Harbour lights over the bay", ...l, ...r].join(" "));
  });

  test("three columns on baselines a third of a line apart are not chained into one band of mixed lines", () => {
    const page = new Page();
    const cols = [lines(14, 20), lines(15, 20), lines(16, 20)];
    cols.forEach((col, c) =>
      col.forEach((t, row) => page.put(t, LEFT + c * 472, 200 + c * 12 + row * 36, 100 * c + row)),
    );
    expect(page.read()).toBe(cols.flat().join("\n"));
  });

  test("a wide mark OCR doubts in the gutter (noise of a 200-DPI scan read as ~~.) does not join the columns", () => {
    const page = new Page();
    const [l, r] = [lines(17, 20), lines(18, 20)];
    for (let row = 0; row < 20; row++) {
      page.put(l[row]!, LEFT, 200 + row * 36, row + 1);
      page.put(r[row]!, RIGHT, 200 + row * 36, row + 1);
    }
    // Wider than a word height, no letter, read at 0.62: ink to tesseract, but nothing a gutter should stop at.
    page.words.push({ text: "~~.", confidence: 0.62, bounding_box: [537, 416, 567, 440], line: 7 });
    expect(page.read().replace("~~.", "").replace(/\s+/g, " ")).toBe([...l, ...r].join(" "));
  });

  test("a word read at confidence 0 whose box took in grain of the gutter stays in its column", () => {
    const page = new Page();
    // A justified left column (each line's last word ends at 532) whose 9th line ends a paragraph early; the right
    // column's first word on that row was read with grain beside it: its box starts 12 px into the 40-px gutter,
    // leaving less free than a word space beside the column's edge, and it reads at confidence 0.
    const [l, r] = [lines(19, 20), lines(20, 20)];
    l[8] = "the harbour town";
    for (let row = 0; row < 20; row++) {
      const words = l[row]!.split(" ");
      // Justified: the spaces share what the line lacks of the column's 432 px.
      const space = row === 8 ? 12 : 12 + (432 - l[row]!.length * 12) / (words.length - 1);
      let x = LEFT;
      for (const t of words) {
        page.words.push({
          text: t,
          confidence: 0.95,
          bounding_box: [x, 200 + row * 36, x + t.length * 12, 224 + row * 36],
          line: row + 1,
        });
        x += t.length * 12 + space;
      }
      page.put(r[row]!, RIGHT, 200 + row * 36, row + 1);
    }
    const first = page.words.find((w) => w.line === 9 && w.bounding_box[0] === RIGHT)!;
    first.bounding_box = [RIGHT - 28, first.bounding_box[1], first.bounding_box[2], first.bounding_box[3]];
    first.confidence = 0;
    expect(page.read()).toBe([...l, ...r].join("\n"));
  });

  test("a picture's texture read as digits at almost no confidence is left out, the columns beside it intact", () => {
    const page = new Page();
    const [l, r] = [lines(21, 20), lines(22, 20)];
    // The left column's rows 8-13 are a picture; the right column runs on beside it.
    for (let row = 0; row < 20; row++) {
      if (row < 7 || row > 12) page.put(l[row]!, LEFT, 200 + row * 36, row + 1);
      page.put(r[row]!, RIGHT, 200 + row * 36, row + 1);
    }
    // The picture's grey read on row 10 as "1", "i" and "5" (the 5 up against the gutter), in the right column's line.
    const noise: Array<[string, number, number, number]> = [
      ["1", 210, 236, 0.19],
      ["5", 530, 556, 0.12],
    ];
    for (const [text, x1, x2, confidence] of noise)
      page.words.push({ text, confidence, bounding_box: [x1, 200 + 9 * 36, x2, 224 + 9 * 36], line: 10 });
    const left = l.filter((_, row) => row < 7 || row > 12);
    expect(page.read()).toBe([...left.slice(0, 7), ...left.slice(7), ...r].join("\n"));
  });

  test("a centred caption in small capitals under a drop cap is read line by line, its second line in place", () => {
    const page = new Page();
    const [l, r] = [lines(23, 10), lines(24, 20)];
    for (let row = 0; row < 20; row++) {
      if (row < 10) page.put(l[row]!, LEFT, 200 + row * 36, row + 1);
      page.put(r[row]!, RIGHT, 200 + row * 36, row + 1);
    }
    // Under the left column (centre x 316): "THE TERRA-COTTA" whose initial rises 28 px above its 19-px small
    // capitals (read "Thue", 56 px tall), then "ROOFS OF" (18 px), "DUBROVNIK," (29 px), "DAMAGED DURING".
    const y = 600;
    const caption: Array<[string, number, number, number, number]> = [
      ["Thue", 150, y - 28, 235, y + 28],
      ["TERRA-COTTA", 260, y, 480, y + 19],
      ["ROOFS", 226, y + 38, 341, y + 56],
      ["OF", 366, y + 38, 407, y + 56],
      ["DUBROVNIK,", 193, y + 62, 439, y + 91],
      ["DAMAGED", 170, y + 110, 350, y + 129],
      ["DURING", 375, y + 110, 462, y + 129],
    ];
    caption.forEach(([text, x1, y1, x2, y2], i) =>
      page.words.push({ text, confidence: 0.95, bounding_box: [x1, y1, x2, y2], line: 50 + [0, 0, 1, 1, 2, 3, 3][i]! }),
    );
    const read = page.read().split("\n");
    expect(read.slice(10, 14)).toEqual(["Thue TERRA-COTTA", "ROOFS OF", "DUBROVNIK,", "DAMAGED DURING"]);
    expect(read.join("\n")).toBe(
      [...l, "Thue TERRA-COTTA", "ROOFS OF", "DUBROVNIK,", "DAMAGED DURING", ...r].join("\n"),
    );
  });
});
