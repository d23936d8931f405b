/**
 * Print that tesseract's binarisation breaks apart: dot-matrix receipts (strokes as chains of separate dots) and
 * narrow till rolls read at low resolution. Units of the preprocessing, then generated receipts (fixtures/varied, the
 * real renderer, a dot-matrix and a narrow thermal look) read by the OCR stage with the real engine.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { createOcrEngine, type OcrEngine } from "../../../../src/core/engines/ocr/index.ts";
import { keepDecimalPoints } from "../../../../src/core/engines/ocr/decimals.ts";
import { paperTone, smooth, type GreyImage } from "../../../../src/core/imaging/grey.ts";
import { renderUpright, uprightTransform } from "../../../../src/core/imaging/upright.ts";
import type { Box, Word } from "../../../../src/core/model.ts";
import { defaultProject } from "../../../../src/core/project/index.ts";
import { classifyDocument } from "../../../../src/core/stages/classify/index.ts";
import { convertSource } from "../../../../src/core/stages/convert/index.ts";
import { extractFields } from "../../../../src/core/stages/extract/index.ts";
import { ocrPages } from "../../../../src/core/stages/ocr.ts";
import { generateSet, toNoisyPng, toPdf } from "../../../../fixtures/varied/generator";
import { OCR_TIMEOUT } from "./helpers.ts";

describe("preprocessing", () => {
  test("smooth averages over a (2r+1)² square with edges repeated, so a row of dots becomes one grey stroke", () => {
    const flat: GreyImage = { data: new Uint8Array(25).fill(200), width: 5, height: 5 };
    expect([...smooth(flat, 1).data]).toEqual(new Array(25).fill(200));
    expect(smooth(flat, 0)).toBe(flat);
    // dots every third pixel on a line: apart before, one continuous stroke (no paper-white gap) after
    const w = 30;
    const dots: GreyImage = { data: new Uint8Array(w * 5).fill(255), width: w, height: 5 };
    for (let x = 1; x < w; x += 3) dots.data[2 * w + x] = 0;
    const row = [...smooth(dots, 1).data.subarray(2 * w + 1, 3 * w - 2)];
    expect(Math.max(...row)).toBeLessThan(230);
    expect(Math.min(...row)).toBeGreaterThan(150);
    const single: GreyImage = { data: Uint8Array.from([0, 90, 255]), width: 3, height: 1 };
    // r = 1 at x = 0: (0 + 0 + 90) / 3 rows of the same (edge repeated) -> 30
    expect([...smooth(single, 1).data]).toEqual([30, 115, 200]);
  });

  test("a deskewed page's uncovered corners take the paper's tone, not white", () => {
    const w = 200,
      h = 300;
    const data = new Uint8Array(w * h).fill(231);
    for (let y = 100; y < 110; y++) data.fill(40, y * w + 20, y * w + 180);
    const img: GreyImage = { data, width: w, height: h };
    expect(paperTone(img)).toBe(230);
    const up = renderUpright(img, uprightTransform(w, h, 0, 2));
    expect(up.data[0]).toBe(230);
    expect(up.data[up.data.length - 1]).toBe(230);
    expect(Math.max(...up.data)).toBeLessThanOrEqual(231);
  });
});

describe("decimal points tesseract dropped", () => {
  /** A 40 px high line: "127" at x 100–160, "35" at x 178–218, and whatever `gap` paints between them. */
  function line(gap: (data: Uint8Array, w: number) => void): { image: GreyImage; words: Word[] } {
    const w = 300,
      h = 80;
    const data = new Uint8Array(w * h).fill(235);
    const ink = (x1: number, y1: number, x2: number, y2: number) => {
      for (let y = y1; y < y2; y++) data.fill(60, y * w + x1, y * w + x2);
    };
    for (const x of [100, 120, 140, 178, 198]) ink(x + 2, 20, x + 14, 60); // digit-like strokes
    gap(data, w);
    const word = (text: string, box: Box, line = 1): Word => ({ text, confidence: 0.9, bounding_box: box, line });
    return {
      image: { data, width: w, height: h },
      words: [
        word("TOTAL", [10, 20, 80, 60]),
        word("127", [100, 20, 160, 60]),
        word("35", [178, 20, 218, 60]),
        word("next", [10, 70, 60, 79], 2),
      ],
    };
  }
  const dot = (data: Uint8Array, w: number) => {
    for (let y = 54; y < 60; y++) data.fill(70, y * w + 166, y * w + 172);
  };
  const colon = (data: Uint8Array, w: number) => {
    dot(data, w);
    for (let y = 28; y < 34; y++) data.fill(70, y * w + 166, y * w + 172);
  };
  const read = (l: ReturnType<typeof line>) =>
    keepDecimalPoints(l.image, { words: l.words, text: "", confidence: 0.9 });

  test("a point of ink low in the gap joins units and cents; the text is rebuilt", () => {
    const r = read(line(dot));
    expect(r.words.map((w) => w.text)).toEqual(["TOTAL", "127.35", "next"]);
    expect(r.words[1]!.bounding_box).toEqual([100, 20, 218, 60]);
    expect(r.text).toBe("TOTAL 127.35\nnext");
  });

  test("a blank gap (a real space) or ink above the point too (a colon: a time of day) changes nothing", () => {
    for (const l of [line(() => {}), line(colon)]) {
      const r = read(l);
      expect(r.words.map((w) => w.text)).toEqual(["TOTAL", "127", "35", "next"]);
    }
  });

  test("a point read as a word of its own is joined; three digits after it are no cents", () => {
    const l = line(dot);
    const words = [
      l.words[0]!,
      l.words[1]!,
      { ...l.words[1]!, text: ".", bounding_box: [165, 52, 172, 60] as Box },
      l.words[2]!,
      l.words[3]!,
    ];
    expect(keepDecimalPoints(l.image, { words, text: "", confidence: 0.9 }).words.map((w) => w.text)).toEqual([
      "TOTAL",
      "127.35",
      "next",
    ]);
    const thousands = l.words.map((w) => (w.text === "35" ? { ...w, text: "350" } : w));
    expect(
      keepDecimalPoints(l.image, { words: thousands, text: "", confidence: 0.9 }).words.map((w) => w.text),
    ).toEqual(["TOTAL", "127", "350", "next"]);
  });
});

describe("receipts the OCR stage reads", () => {
  let engine: OcrEngine;
  beforeAll(async () => {
    engine = await createOcrEngine({ engine: "auto", workers: 1 });
  }, OCR_TIMEOUT);
  afterAll(() => engine?.close());

  // An untuned seed; development used 20261201.
  const docs = generateSet(20261130).filter((d) => d.id.startsWith("till-"));

  async function read(doc: (typeof docs)[number], look: "dotmatrix" | "thermal", scale: number) {
    const pdf = await convertSource(
      { index: 0, filename: `${doc.id}.pdf`, data: await toPdf(doc), split_policy: "inherit" },
      { firstPageNumber: 1, maxPages: 1 },
    );
    const png = await toNoisyPng(pdf, 5, look, scale).finally(() => pdf.close());
    const converted = await convertSource(
      { index: 0, filename: `${doc.id}.png`, data: png, split_policy: "inherit" },
      { firstPageNumber: 1, maxPages: 1 },
    );
    try {
      const report = await ocrPages(converted.pages, engine);
      expect(report.failed).toEqual([]);
      const cls = classifyDocument(converted.pages, defaultProject);
      const fields = extractFields(converted.pages, cls.class_id, defaultProject);
      return {
        page: converted.pages[0]!,
        raster: await converted.pages[0]!.render!(),
        class_id: cls.class_id,
        total: fields.total_amount?.value,
        date: fields.invoice_date?.value,
      };
    } finally {
      await converted.close();
    }
  }

  const AMOUNT = /^\D{0,3}\d+[.,]\d{2}$/;
  const confident = (words: Word[]) => words.filter((w) => w.confidence >= 0.6);

  test(
    "a dot-matrix till receipt: the OCR stage reads more words and amounts than one plain recognition of it",
    async () => {
      const doc = docs[0]!;
      const r = await read(doc, "dotmatrix", 1);
      const plain = await engine.recognize(r.raster);
      const stage = confident(r.page.words);
      expect(stage.length).toBeGreaterThan(40);
      expect(stage.length).toBeGreaterThan(confident(plain.words).length * 1.2);
      const amounts = r.page.words.filter((w) => AMOUNT.test(w.text)).length;
      expect(amounts).toBeGreaterThanOrEqual(6);
      expect(amounts).toBeGreaterThan(plain.words.filter((w) => AMOUNT.test(w.text)).length);
    },
    OCR_TIMEOUT * 2,
  );

  test(
    "a narrow thermal roll scanned at about 120 DPI: its total on one line with its label, decimal point kept; its date",
    async () => {
      const doc = docs[1]!;
      const r = await read(doc, "thermal", 0.4);
      expect(r.page.words.length).toBeGreaterThan(30);
      const total = (doc.truth.total_amount as number).toFixed(2).replace(".", "\\.");
      expect(r.page.text).toMatch(new RegExp(`^TOTAL\\b.*${total}$`, "m"));
      expect(r.date).toBe(doc.truth.invoice_date as string);
    },
    OCR_TIMEOUT * 2,
  );
});
