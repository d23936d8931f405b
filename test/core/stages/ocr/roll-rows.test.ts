/**
 * A photographed till roll keeps the rows tesseract read (stages/ocr/index.ts, geometry.ts `roll`): a roll is one
 * column of lines, each a label and its amounts flush right, and the reading order's gutter repair (which parts lines
 * run across a page's column gutter) would set all its amounts apart after its labels, so that no total has its
 * amount. The same reading of a page's frame (no roll) is still repaired. A synthetic photo (a roll on a dark table)
 * and an engine that reads every page image as tesseract read a receipt photo: labels left, a wide gap, the
 * quantities, prices and amounts right.
 */
import { expect, test } from "bun:test";
import type { OcrEngine, OcrResult } from "../../../../src/core/engines/ocr/types.ts";
import { textOfWords } from "../../../../src/core/engines/ocr/tsv.ts";
import type { Page, RasterImage, Word } from "../../../../src/core/model.ts";
import { ocrPages } from "../../../../src/core/stages/ocr/index.ts";
import { pageOf } from "../../engines/ocr/helpers.ts";
import { fakeEngine } from "./fake-engine.ts";

const ITEMS = [
  "BEURRE DOUX DEMI SEL",
  "POMMES GOLDEN VRAC KG",
  "EAU GAZEUSE 6 X 1.5L",
  "BAGUETTE TRADITION X2",
  "LAIT DEMI ECREME 1L",
  "CAFE MOULU ARABICA",
];

/** Rows of a receipt in `img`'s pixels: a label from 4% of the width, "1 x 3.26" from 62%, the amount flush right. */
function receiptWords(img: RasterImage): Word[] {
  const { width: W, height: H } = img;
  const h = Math.round(W / 40);
  const rows = [
    ...ITEMS.map((l, i) => [l, `${i + 1} x ${i + 3}.26`, `${i + 3},26`]),
    ["NET A PAYER CARTE BANCAIRE", "", "36,80"],
  ];
  return rows.flatMap(([label, price, amount], i) => {
    const y = Math.round(H * 0.2) + i * 2 * h;
    const line = i + 1;
    const placed = (text: string, x0: number) => {
      let x = x0;
      return text
        .split(" ")
        .filter(Boolean)
        .map((t) => {
          const w: Word = { text: t, bounding_box: [x, y, x + 0.6 * h * t.length, y + h], confidence: 0.95, line };
          x += 0.6 * h * (t.length + 1);
          return w;
        });
    };
    const right = placed(amount!, W * 0.96 - 0.6 * h * amount!.length);
    return [...placed(label!, W * 0.04), ...placed(price!, W * 0.62), ...right];
  });
}

function rollEngine(): OcrEngine {
  return fakeEngine((img: RasterImage): OcrResult => {
    const words = img.width * img.height > 200_000 ? receiptWords(img) : [];
    return { words, text: textOfWords(words), confidence: words.length ? 0.95 : null };
  });
}

/**
 * A frame `W` × `H`; inside `paper` ([x0, y0, x1, y1], or the whole frame) rows of print `pitch` apart: labels on
 * the left, amounts flush right, letters' gaps falling elsewhere on every row (as photo-geometry.test.ts draws them).
 */
function photo(W: number, H: number, paper: number[] | null, pitch: number): Page {
  const data = new Uint8Array(W * H);
  const [x0, y0, x1, y1] = paper ?? [0, 0, W, H];
  const [width, length] = [x1! - x0!, y1! - y0!];
  const ink = (u: number, v: number) => {
    const row = v % pitch;
    if (row < 4 || row >= 4 + Math.round(pitch * 0.45) || u < 40 || u > width - 40 || v < 40 || v > length - 40)
      return false;
    const line = Math.floor(v / pitch);
    const label = u < width * 0.45 && (u + line * 5) % 14 < 9 && ((u >> 5) + line) % 4 !== 0;
    return label || (u > width * 0.75 && (u + line * 3) % 12 < 8);
  };
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const inside = x >= x0! && x < x1! && y >= y0! && y < y1!;
      data[y * W + x] = inside ? (ink(x - x0!, y - y0!) ? 60 : 235) : 80 + ((x * 7 + y * 13) % 11);
    }
  return pageOf({ data, width: W, height: H, channels: 1 }, "roll.jpg");
}

test("a photographed till roll keeps its rows whole: each label with its price and amount", async () => {
  const page = photo(700, 1000, [110, 90, 590, 910], 24);
  await ocrPages([page], rollEngine());
  const lines = page.text.split("\n");
  expect(lines).toContain("BEURRE DOUX DEMI SEL 1 x 3.26 3,26");
  expect(lines).toContain("NET A PAYER CARTE BANCAIRE 36,80");
});

test("the same reading of a page's frame (no roll) has its lines parted at the gutter", async () => {
  // A page filling the frame, far wider than a till roll in line heights: read as it is, with the reading order.
  const page = photo(1600, 1000, null, 24);
  await ocrPages([page], rollEngine());
  expect(page.text.split("\n")).not.toContain("NET A PAYER CARTE BANCAIRE 36,80");
});
