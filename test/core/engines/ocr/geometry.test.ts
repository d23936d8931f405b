import { describe, expect, test } from "bun:test";
import sharp from "sharp";
import { analyzeLayout, textLikeness } from "../../../../src/core/engines/ocr/layout.ts";
import { unreadLines } from "../../../../src/core/engines/ocr/recover.ts";
import { toGrey, upscale, type GreyImage } from "../../../../src/core/imaging/grey.ts";
import { boxToSource, renderUpright, uprightTransform } from "../../../../src/core/imaging/upright.ts";
import { rotateBox } from "../../../../src/core/geometry.ts";
import type { Box, Word } from "../../../../src/core/model.ts";

/** A fake text page: lines of dark bars of varying length ("words") on white, ragged like print. */
function fakeTextPage(width: number, height: number): GreyImage {
  const data = new Uint8Array(width * height).fill(255);
  let seed = 7;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let y = 40; y + 12 < height - 40; y += 30) {
    let x = 40 + Math.floor(rand() * 30);
    while (true) {
      const w = 15 + Math.floor(rand() * 70);
      if (x + w > width - 40) break;
      for (let yy = y; yy < y + 12; yy++) data.fill(0, yy * width + x, yy * width + x + w);
      x += w + 10 + Math.floor(rand() * 8);
    }
  }
  return { data, width, height };
}

async function turned(img: GreyImage, degrees: number): Promise<GreyImage> {
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 1 } })
    .rotate(degrees, { background: "#ffffff" })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return toGrey({
    data: new Uint8Array(data),
    width: info.width,
    height: info.height,
    channels: info.channels as 1 | 3,
  });
}

describe("upright transform", () => {
  test("quarter turns move pixels exactly and boxes map back to where they came from", () => {
    const img: GreyImage = { data: Uint8Array.from([1, 2, 3, 4, 5, 6]), width: 3, height: 2 };
    expect([...renderUpright(img, uprightTransform(3, 2, 90, 0)).data]).toEqual([4, 1, 5, 2, 6, 3]);
    expect([...renderUpright(img, uprightTransform(3, 2, 180, 0)).data]).toEqual([6, 5, 4, 3, 2, 1]);
    expect([...renderUpright(img, uprightTransform(3, 2, 270, 0)).data]).toEqual([3, 6, 2, 5, 1, 4]);
    const box: Box = [10, 20, 60, 35];
    for (const r of [0, 90, 180, 270]) {
      expect(boxToSource(uprightTransform(200, 100, r, 0), rotateBox(box, 200, 100, r))).toEqual(box);
    }
  });

  test("a deskewed image maps its centre and corners back inside the source", () => {
    const t = uprightTransform(1000, 500, 0, 4);
    expect(t.width).toBeGreaterThan(1000);
    expect(boxToSource(t, [t.width / 2 - 1, t.height / 2 - 1, t.width / 2 + 1, t.height / 2 + 1])).toEqual([
      499, 249, 501, 251,
    ]);
    const all = boxToSource(t, [0, 0, t.width, t.height]);
    expect(all).toEqual([0, 0, 1000, 500]);
  });

  test("rejects a rotation that is not a quarter turn", () => {
    expect(() => rotateBox([0, 0, 1, 1], 10, 10, 45)).toThrow("multiple of 90");
  });
});

describe("layout analysis", () => {
  test("finds lines running across, their skew, and lines running down on a page on its side", async () => {
    const page = fakeTextPage(900, 700);
    const flat = analyzeLayout(page);
    expect(flat.lineAxis).toBe("across");
    expect(flat.skew).toBe(0);
    // The bars start at 40 px from each edge: the content box keeps a margin of about 32 px around them.
    const [x1, y1, x2, y2] = flat.contentBox!;
    expect(x1).toBeGreaterThanOrEqual(0);
    expect(x1).toBeLessThanOrEqual(40 - 30);
    expect(y1).toBeLessThanOrEqual(40 - 30);
    expect(x2).toBeGreaterThanOrEqual(900 - 40 + 30 - 30);
    expect(y2).toBeLessThanOrEqual(700);
    const skewed = analyzeLayout(await turned(page, 2));
    expect(skewed.lineAxis).toBe("across");
    expect(skewed.skew).toBeGreaterThan(1.7);
    expect(skewed.skew).toBeLessThan(2.3);
    const side = analyzeLayout(await turned(page, 90));
    expect(side.lineAxis).toBe("down");
    const sideSkewed = analyzeLayout(await turned(page, 92));
    expect(sideSkewed.skew).toBeGreaterThan(1.7);
    expect(sideSkewed.skew).toBeLessThan(2.3);
  });

  test("measures the height of text lines across them, and on a page on its side along them", async () => {
    const page = fakeTextPage(900, 700); // bars 12 px high every 30 px
    expect(analyzeLayout(page).lineHeight).toBe(12);
    expect(analyzeLayout(await turned(page, 90)).lineHeight).toBe(12);
    // A large page is analysed on a copy reduced by an integer factor: the height comes back in source pixels.
    const big = fakeTextPage(2700, 2100);
    const h = analyzeLayout(big).lineHeight!;
    expect(h).toBeGreaterThanOrEqual(9);
    expect(h).toBeLessThanOrEqual(15);
  });

  test("a white page has no ink and no skew", () => {
    const blank = analyzeLayout({ data: new Uint8Array(500 * 400).fill(255), width: 500, height: 400 });
    expect(blank).toEqual({ inkBox: null, contentBox: null, lineAxis: null, skew: 0, lineHeight: null });
  });
});

describe("unread lines", () => {
  /** Letter-sized dark squares (12 px) in a row starting at x, baseline row y. */
  const row = (img: GreyImage, x: number, y: number, letters: number) => {
    for (let i = 0; i < letters; i++)
      for (let yy = y; yy < y + 12; yy++)
        img.data.fill(0, yy * img.width + x + i * 16, yy * img.width + x + i * 16 + 10);
  };
  const word = (x1: number, y1: number, x2: number, y2: number, confidence = 0.9): Word => ({
    text: "word",
    confidence,
    bounding_box: [x1, y1, x2, y2],
  });

  test("a row of letter-sized ink no confident word covers comes back as one padded line box", () => {
    const img: GreyImage = { data: new Uint8Array(600 * 300).fill(255), width: 600, height: 300 };
    row(img, 20, 20, 10); // read: covered by words
    row(img, 20, 60, 10);
    row(img, 20, 100, 10);
    row(img, 300, 200, 12); // left out by the page layout
    row(img, 20, 250, 2); // too short to be a line
    img.data.fill(0, 280 * 600 + 20, 280 * 600 + 580); // a rule: too thin
    const words = [word(18, 18, 180, 34), word(18, 58, 180, 74), word(18, 98, 180, 114)];
    const boxes = unreadLines(img, words);
    expect(boxes).toHaveLength(1);
    const [x1, y1, x2, y2] = boxes[0]!;
    expect(x1).toBeLessThanOrEqual(300);
    expect(x2).toBeGreaterThanOrEqual(300 + 11 * 16 + 10);
    expect(y1).toBeLessThanOrEqual(200);
    expect(y2).toBeGreaterThanOrEqual(212);
    expect(y2 - y1).toBeLessThan(40);
    // A guess at the same ink (confidence below 0.3) does not count as reading it; a confident word does.
    expect(unreadLines(img, [...words, word(298, 198, 500, 214, 0.1)])).toHaveLength(1);
    expect(unreadLines(img, [...words, word(298, 198, 500, 214, 0.8)])).toHaveLength(0);
  });

  test("faint grey print on a light shaded band, lighter than the page's threshold, still comes back as a line", () => {
    const img: GreyImage = { data: new Uint8Array(600 * 300).fill(255), width: 600, height: 300 };
    row(img, 20, 20, 10);
    row(img, 20, 60, 10);
    row(img, 20, 100, 10);
    img.data.fill(235, 170 * 600, 240 * 600); // the band
    const band = { data: new Uint8Array(600 * 300).fill(255), width: 600, height: 300 };
    row(band, 300, 200, 12);
    for (let i = 0; i < band.data.length; i++) if (band.data[i] === 0) img.data[i] = 205;
    const words = [word(18, 18, 180, 34), word(18, 58, 180, 74), word(18, 98, 180, 114)];
    const boxes = unreadLines(img, words);
    expect(boxes).toHaveLength(1);
    const [x1, y1, x2, y2] = boxes[0]!;
    expect([x1 <= 300, y1 <= 200, x2 >= 300 + 11 * 16 + 10, y2 >= 212, y2 - y1 < 40]).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
  });
});

describe("upscale", () => {
  test("bilinear over pixel centres: edges keep their values, in-between pixels blend, size is rounded", () => {
    const img: GreyImage = { data: Uint8Array.from([0, 200, 0, 200]), width: 2, height: 2 };
    const out = upscale(img, 2);
    expect([out.width, out.height]).toEqual([4, 4]);
    expect([...out.data.subarray(0, 4)]).toEqual([0, 50, 150, 200]);
    expect([...out.data.subarray(12, 16)]).toEqual([0, 50, 150, 200]);
    const odd = upscale({ data: new Uint8Array(9).fill(7), width: 3, height: 3 }, 2.5);
    expect([odd.width, odd.height]).toEqual([8, 8]);
    expect(odd.data.every((v) => v === 7)).toBe(true);
  });
});

describe("text likeness", () => {
  const words = (texts: string[], tall = false, confidence = 0.9): Word[] =>
    texts.map((text) => ({ text, confidence, bounding_box: tall ? [0, 0, 10, 40] : [0, 0, 40, 10] }));

  test("scores real words, numbers and amounts high and upside-down letter soup low", () => {
    expect(textLikeness(words(["Invoice", "No.", "2024-117", "Total:", "1.234,50", "EUR", "Müller"]))).toBeGreaterThan(
      0.8,
    );
    // What tesseract reads from phototest turned 180°, at the mean confidence it gives it (0.43).
    const soup = "‘x04 Aze| ay} Jano padwnl Bop umoiq yoinb ay] xo} Aze| ayy Joao padwni Bop umouq XaInb ay) xo} Aze|";
    expect(textLikeness(words(soup.split(" "), false, 0.43))).toBeLessThan(0.3);
  });

  test("counts words in tall boxes as misses, so a page read sideways cannot win", () => {
    expect(textLikeness(words(["Invoice", "Total", "amount"], true))).toBe(0);
    expect(textLikeness([])).toBe(0);
  });
});
