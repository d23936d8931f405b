/**
 * The orientation search (src/core/stages/ocr/orientation.ts) with an engine that reads text only where the whole
 * upright page shows it: a probe window that reads every turn as fragments alike decides nothing, and whole-page
 * readings pick the turn (a sideways receipt photo read upside down was the failure: its central window cut each
 * line mid-word at both turns of the line axis).
 */
import { expect, test } from "bun:test";
import type { PageLayout } from "../../../../src/core/engines/ocr/layout.ts";
import type { OcrEngine, OcrResult } from "../../../../src/core/engines/ocr/types.ts";
import type { GreyImage } from "../../../../src/core/imaging/grey.ts";
import type { RasterImage, Word } from "../../../../src/core/model.ts";
import { readUpright } from "../../../../src/core/stages/ocr/orientation.ts";

const [W, H] = [1600, 1000];
/** A mark in the page's top-right corner: the top-left one of the page turned 270° clockwise (its upright view). */
const MARK = 7;

function page(): GreyImage {
  const data = new Uint8Array(W * H).fill(255);
  data[W - 1] = MARK;
  return { data, width: W, height: H };
}

const words = (texts: string[]): Word[] =>
  texts.map((text, i) => ({ text, bounding_box: [10 + 120 * i, 10, 100 + 120 * i, 40], confidence: 0.9 }));

/** Upright text where the mark is at the image's top-left corner, letter soup (likeness ~0.2) anywhere else. */
function engine(log: string[]): OcrEngine {
  const read = (img: RasterImage): OcrResult => {
    const upright = img.data[0] === MARK;
    log.push(`${img.width}x${img.height}${upright ? " upright" : ""}`);
    const texts = upright
      ? ["HOMETOWN", "GROCERS", "TOTAL", "28.89", "CASH", "40.00"]
      : ["Tac", "xq9r", "vv!r", "Zzk]", "8Gq", "ooO", "1l1l|", "qPz"];
    const w = words(texts);
    return { words: w, text: texts.join(" "), confidence: 0.5 };
  };
  return { name: "stub", workers: 1, recognize: async (img) => read(img), close: async () => {} };
}

test("a window that reads both turns of the line axis as fragments decides nothing: whole-page readings do", async () => {
  const layout: PageLayout = {
    inkBox: [0, 0, W, H],
    contentBox: [0, 0, W, H],
    lineAxis: "down",
    skew: 0,
    lineHeight: 30,
  };
  const log: string[] = [];
  const reading = await readUpright(page(), layout, engine(log));
  expect(reading.transform.rotation).toBe(270);
  expect(reading.likeness).toBeGreaterThan(0.55);
  // First guess (90°), its smoothed pass, the window at 90° and 270°, then 270° in full, which is strong: five.
  expect(log.length).toBe(5);
  expect(log.filter((l) => l.endsWith("upright"))).toEqual([`${H}x${W} upright`]);
});

test("where no turn reads strongly, a turn reading several times the first guess's plausible text wins", async () => {
  // Small faint print read at the wrong scale: the right turn (270°) reads many fragments with some words among them,
  // likeness 0.25 against the first guess's 0.18 (less than the margin), but four times as many good characters.
  const [w, h] = [600, 400];
  const data = new Uint8Array(w * h).fill(255);
  data[w - 1] = MARK;
  const log: string[] = [];
  const read = (img: RasterImage): OcrResult => {
    const upright = img.data[0] === MARK;
    log.push(`${img.width}x${img.height}${upright ? " upright" : ""}`);
    const texts = upright
      ? Array.from({ length: 10 }, () => ["HOMETOWN", "x9q!", "28.89", "Zq]]"]).flat()
      : ["TOTAL", "xq9r", "vv!r", "Zzk]"];
    const found = words(texts).map((x) => ({ ...x, confidence: upright ? 0.4 : 0.6 }));
    return { words: found, text: texts.join(" "), confidence: 0.5 };
  };
  const stub: OcrEngine = { name: "stub", workers: 1, recognize: async (img) => read(img), close: async () => {} };
  const layout: PageLayout = {
    inkBox: [0, 0, w, h],
    contentBox: [0, 0, w, h],
    lineAxis: "across",
    skew: 0,
    lineHeight: 20,
  };
  const reading = await readUpright({ data, width: w, height: h }, layout, stub);
  expect(reading.likeness).toBeLessThan(0.55);
  expect(reading.transform.rotation).toBe(270);
  // The first guess, its smoothed pass, then 180°, 90° and 270° in full: the winner is one of them, not read again.
  expect(log.length).toBe(5);
});
