import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import { createCanvas } from "@napi-rs/canvas";
import sharp, { type Sharp } from "sharp";
import { createOcrEngine, type OcrEngine } from "../../../../src/core/engines/ocr/index.ts";
import { orderByLayout } from "../../../../src/core/engines/ocr/reading-order.ts";
import { drawFontFamily } from "../../../../src/core/imaging/draw-font.ts";
import type { Word } from "../../../../src/core/model.ts";
import { ocrPages } from "../../../../src/core/stages/ocr.ts";
import { characterErrorRate, loadRaster, OCR_TIMEOUT, pageOf, TESSERACT_TEST } from "./helpers.ts";

const VOCABULARY =
  "the quick brown fox jumps over lazy dog while seven wizards quietly judge boxing matches near old harbour walls and many pale sailors count golden coins under bright lanterns every evening before winter storms arrive".split(
    " ",
  );

/** Deterministic prose: `count` words picked by a linear congruential generator from `seed`. */
function prose(seed: number, count: number): string[] {
  const out: string[] = [];
  let s = seed;
  for (let i = 0; i < count; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out.push(VOCABULARY[s % VOCABULARY.length]!);
  }
  return out;
}

/** Lines of `words` no wider than `width` characters. */
function wrap(words: string[], width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const w of words) {
    if (line && line.length + 1 + w.length > width) {
      lines.push(line);
      line = w;
    } else line = line ? `${line} ${w}` : w;
  }
  if (line) lines.push(line);
  return lines;
}

/**
 * Words of a two-column page as tesseract reports them when it runs its lines across the gutter: boxes on a page
 * turned `degrees` clockwise, one line id per row of both columns. Character width 12 px, word height 24 px, gutter
 * 40 px.
 */
function interleavedReading(left: string[], right: string[], degrees: number): Word[] {
  const a = (degrees * Math.PI) / 180;
  const words: Word[] = [];
  const rows = Math.max(left.length, right.length);
  for (let row = 0; row < rows; row++) {
    for (const [column, x0] of [
      [left, 100],
      [right, 100 + 36 * 12 + 40],
    ] as const) {
      let x = x0;
      for (const text of (column[row] ?? "").split(" ").filter(Boolean)) {
        const cx = x + (text.length * 12) / 2;
        const cy = 212 + row * 36;
        const [rx, ry] = [cx * Math.cos(a) - cy * Math.sin(a), cx * Math.sin(a) + cy * Math.cos(a)];
        words.push({
          text,
          confidence: 0.95,
          bounding_box: [rx - text.length * 6, ry - 12, rx + text.length * 6, ry + 12],
          line: row + 1,
        });
        x += (text.length + 1) * 12;
      }
    }
  }
  return words;
}

describe("reading order from the page's layout", () => {
  const left = wrap(prose(1, 160), 36);
  const right = wrap(prose(8, 160), 36);
  const truth = [...left, ...right].join("\n");

  for (const degrees of [0, 3, -2]) {
    test(`two columns tesseract interleaved on a page skewed ${degrees}° are read column by column`, () => {
      const words = interleavedReading(left, right, degrees);
      const before = { words, text: "", confidence: 0.95 };
      const after = orderByLayout(before);
      expect(after.text).toBe(truth);
      expect(after.words.map((w) => w.line)).toEqual([...after.words.map((w) => w.line)].sort((a, b) => a! - b!));
      expect(new Set(after.words.map((w) => w.line)).size).toBe(left.length + right.length);
    });
  }

  test("a heading across both columns stays above them, a footer line below", () => {
    const words = interleavedReading(left, right, 0).map((w) => ({
      ...w,
      bounding_box: [
        w.bounding_box[0],
        w.bounding_box[1] + 60,
        w.bounding_box[2],
        w.bounding_box[3] + 60,
      ] as Word["bounding_box"],
      line: w.line! + 1,
    }));
    const heading = ["a", "heading", "that", "runs", "right", "across", "both", "of", "the", "columns", "below", "it"];
    let x = 100;
    for (const text of heading) {
      words.push({ text, confidence: 0.9, bounding_box: [x, 200, x + text.length * 12, 224], line: 1 });
      x += (text.length + 1) * 12;
    }
    const bottom = 260 + Math.max(left.length, right.length) * 36 + 60;
    words.push({ text: "footer", confidence: 0.9, bounding_box: [400, bottom, 472, bottom + 24], line: 999 });
    words.push({ text: "spanning", confidence: 0.9, bounding_box: [484, bottom, 580, bottom + 24], line: 999 });
    const after = orderByLayout({ words: words.sort((a, b) => a.line! - b.line!), text: "", confidence: 0.9 });
    expect(after.text).toBe([heading.join(" "), truth, "footer spanning"].join("\n"));
  });

  test("a reading already column by column keeps that order, whatever tesseract numbered its lines", () => {
    const words = interleavedReading(left, right, 0);
    const leftWords = words.filter((w) => w.bounding_box[0] < 520).map((w) => ({ ...w }));
    const rightWords = words.filter((w) => w.bounding_box[0] >= 520).map((w) => ({ ...w, line: w.line! + 1000 }));
    const after = orderByLayout({ words: [...rightWords, ...leftWords], text: "as read", confidence: 0.9 });
    expect(after.text).toBe(truth);
  });

  test("a caption between two columns, under a picture, is read after both; a page footer last", () => {
    // Columns of 20 lines; rows 12-15 of each are shorter (a notch), leaving room for a caption across the gutter
    // (under a picture, as on the UNLV magazine page 8087_054: its zones put the caption after both columns).
    const words: Word[] = [];
    const put = (text: string, x0: number, y: number, line: number) => {
      let x = x0;
      for (const t of text.split(" ")) {
        words.push({ text: t, confidence: 0.9, bounding_box: [x, y, x + t.length * 12, y + 24], line });
        x += (t.length + 1) * 12;
      }
    };
    const notch = (row: number) => row >= 12 && row < 16;
    const l = wrap(prose(3, 170), 36).map((t, row) => (notch(row) ? wrap(t.split(" "), 20)[0]! : t));
    const r = wrap(prose(5, 170), 36).map((t, row) => (notch(row) ? wrap(t.split(" "), 24)[0]! : t));
    for (let row = 0; row < 20; row++) {
      put(l[row]!, 100, 200 + row * 36, row + 1);
      put(r[row]!, notch(row) ? 680 : 572, 200 + row * 36, row + 1);
    }
    const caption = ["the harbour", "walls at dusk", "from the old", "lantern tower"];
    caption.forEach((c, i) => put(c, 460, 200 + (12 + i) * 36, 12 + i));
    put("page seven of the harbour news", 100, 200 + 21 * 36, 99);
    const after = orderByLayout({ words, text: "", confidence: 0.9 });
    expect(after.text).toBe(
      [...l.slice(0, 20), ...r.slice(0, 20), ...caption, "page seven of the harbour news"].join("\n"),
    );
  });

  test("a table under two columns of prose keeps each row one line across its cells", () => {
    const words = interleavedReading(left, right, 0);
    const top = Math.max(...words.map((w) => w.bounding_box[3])) + 48;
    const rows = [
      ["Lantern repair", "2", "12.50", "25.00"],
      ["Harbour wall survey", "1", "340.00", "340.00"],
      ["Golden coins polish", "14", "3.20", "44.80"],
      ["Winter storm cover", "3", "18.00", "54.00"],
    ];
    rows.forEach((cells, row) => {
      const xs = [100, 600, 760, 900];
      cells.forEach((cell, c) => {
        let x = xs[c]!;
        for (const text of cell.split(" ")) {
          const y = top + row * 36;
          words.push({ text, confidence: 0.9, bounding_box: [x, y, x + text.length * 12, y + 24], line: 500 + row });
          x += (text.length + 1) * 12;
        }
      });
    });
    const after = orderByLayout({ words, text: "", confidence: 0.9 });
    expect(after.text).toBe([truth, ...rows.map((r) => r.join(" "))].join("\n"));
  });

  test("labels and values of a form (short lines on each side) are not cut into columns", () => {
    const words: Word[] = [];
    const labels = [
      "Invoice number:",
      "Invoice date:",
      "Due date:",
      "Customer number:",
      "Order reference:",
      "Payment terms:",
      "Currency:",
      "Sales contact:",
    ];
    labels.forEach((label, row) => {
      let x = 100;
      for (const text of [...label.split(" "), "ABC-12345"]) {
        if (text === "ABC-12345") x = 700;
        words.push({
          text,
          confidence: 0.9,
          bounding_box: [x, 200 + row * 36, x + text.length * 12, 224 + row * 36],
          line: row + 1,
        });
        x += (text.length + 1) * 12;
      }
    });
    for (let i = 0; i < 30; i++)
      words.push({
        text: `item${i}`,
        confidence: 0.9,
        bounding_box: [100, 600 + i * 36, 172, 624 + i * 36],
        line: 100 + i,
      });
    const result = { words, text: "as read", confidence: 0.9 };
    expect(orderByLayout(result)).toBe(result);
  });
});

describe("reading order on real OCR", () => {
  let engine: OcrEngine;
  beforeAll(async () => {
    engine = await createOcrEngine({ engine: "wasm", workers: 2 });
  });
  afterAll(() => engine.close());

  /** A two-column page drawn with the bundled font at about 150 DPI; the true text column by column. */
  async function twoColumnPage(): Promise<{ png: Buffer; truth: string }> {
    const canvas = createCanvas(1275, 1650);
    const ctx = canvas.getContext("2d");
    ctx.fillStyle = "#ffffff";
    ctx.fillRect(0, 0, 1275, 1650);
    ctx.fillStyle = "#000000";
    ctx.font = `26px ${drawFontFamily()}`;
    const truth: string[] = [];
    for (const [column, x0] of [
      [0, 90],
      [1, 675],
    ] as const) {
      // The right column starts half a line lower: its lines fall between the left column's.
      let y = 160 + column * 17;
      for (const line of wrap(prose(column * 7 + 1, 130), 34)) {
        ctx.fillText(line, x0, y);
        truth.push(line);
        y += 36;
      }
    }
    return { png: await canvas.encode("png"), truth: truth.join("\n") };
  }

  const turns: Array<[string, (s: Sharp) => Sharp]> = [
    ["upright", (s) => s],
    ["skewed 2°", (s) => s.rotate(2, { background: "#ffffff" })],
    ["skewed -2°", (s) => s.rotate(-2, { background: "#ffffff" })],
    ["turned 90°", (s) => s.rotate(90)],
    ["turned 180°", (s) => s.rotate(180)],
    ["turned 270°", (s) => s.rotate(270)],
  ];
  for (const [name, turn] of turns) {
    test(
      `a generated two-column page ${name} reads column by column with CER ≤ 0.02`,
      async () => {
        const { png, truth } = await twoColumnPage();
        const raster = await loadRaster(await turn(sharp(png).greyscale()).png().toBuffer());
        const page = pageOf(raster, "two-columns.png");
        await ocrPages([page], engine);
        expect(characterErrorRate(page.text, truth)).toBeLessThanOrEqual(0.02);
      },
      2 * OCR_TIMEOUT,
    ); // a turned page is read at several orientations
  }

  test(
    "a magazine page turned 3° anticlockwise, whose skew the page analysis misjudges, is read column by column",
    async () => {
      // Before the layout order: tesseract ran its lines across the gutters, CER 0.24 against the zone-ordered text.
      const file = path.join(TESSERACT_TEST, "8071_093.3B.tif");
      const raster = await loadRaster(
        await sharp(file).greyscale().rotate(-3, { background: "#ffffff" }).png().toBuffer(),
      );
      const page = pageOf(raster, "8071_093.3B-skewed.png");
      await ocrPages([page], engine);
      const truth = fs.readFileSync(path.join(TESSERACT_TEST, "8071_093.3B.txt"), "utf8");
      expect(characterErrorRate(page.text, truth)).toBeLessThanOrEqual(0.1);
      expect(page.text).toContain("wandered around the house\nwith the look of an injured");
    },
    4 * OCR_TIMEOUT,
  );
});
