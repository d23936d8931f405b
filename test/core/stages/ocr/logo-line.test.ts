/**
 * The second look for large type (stages/ocr/recover.ts addLargeLines) puts a logo's line into the reading as a line
 * of its own: on a crumpled or curled roll the logo dips into the row of the address below it, and joined to that
 * row its words interleaved with the street's ("BOULANGERIE 47 BD VOLTAIRE MARTIN", receipts-hard/photo-real). The
 * rest of a logo tesseract read in part still joins the part it read. A synthetic page (the logo's letters as ink,
 * the small lines as words already read) and an engine that reads the logo's line.
 */
import { expect, test } from "bun:test";
import { textOfWords } from "../../../../src/core/engines/ocr/tsv.ts";
import type { OcrEngine, OcrResult } from "../../../../src/core/engines/ocr/types.ts";
import type { GreyImage } from "../../../../src/core/imaging/grey.ts";
import type { RasterImage, Word } from "../../../../src/core/model.ts";
import { addLargeLines } from "../../../../src/core/stages/ocr/recover.ts";
import { fakeEngine } from "./fake-engine.ts";

/** A white page with a logo's letters (26 px tall, 14 wide, 6 apart) from x = 60 to 280 at y = 70. */
function page(): GreyImage {
  const [W, H] = [600, 400];
  const data = new Uint8Array(W * H).fill(250);
  for (let x0 = 60; x0 + 14 <= 280; x0 += 20)
    for (let y = 70; y < 96; y++) for (let x = x0; x < x0 + 14; x++) data[y * W + x] = 30;
  return { data, width: W, height: H };
}

const word = (text: string, [x1, y1, x2, y2]: number[], line: number): Word => ({
  text,
  bounding_box: [x1!, y1!, x2!, y2!],
  confidence: 0.9,
  line,
});

/** Small type read already: an address row level with the logo's lower half, and lines below. */
const small = [
  word("47", [300, 80, 320, 92], 1),
  word("BD", [330, 80, 350, 92], 1),
  word("VOLTAIRE", [360, 80, 440, 92], 1),
  word("|", [450, 40, 456, 100], 1),
  word("TOULOUSE", [300, 110, 380, 122], 2),
  word("BEURRE", [60, 150, 120, 162], 3),
  word("DOUX", [130, 150, 170, 162], 3),
  word("3,26", [400, 150, 440, 162], 3),
];

function engine(answer: string): OcrEngine {
  const read = (img: RasterImage): OcrResult => {
    const words = answer.split(" ").map((t, k) => word(t, [4 + 110 * k, 6, 100 + 110 * k, img.height - 6], 1));
    return { words: words.map((w) => ({ ...w, confidence: 0.95 })), text: answer, confidence: 0.95 };
  };
  return fakeEngine(read);
}

test("a logo dipping into the address row below it is read as a line of its own", async () => {
  const first = { words: small, text: textOfWords(small), confidence: 0.9 };
  const out = await addLargeLines(page(), first, engine("BOULANGERIE MARTIN"));
  const lines = out.text.split("\n");
  expect(lines).toContain("BOULANGERIE MARTIN");
  expect(lines).toContain("47 BD VOLTAIRE |");
});

test("the rest of a logo read in part joins the part read, in its row", async () => {
  const read = [word("HARBOUR", [300, 70, 420, 96], 1), ...small.slice(4)];
  const first = { words: read, text: textOfWords(read), confidence: 0.9 };
  const out = await addLargeLines(page(), first, engine("FISH BAR"));
  expect(out.text.split("\n")).toContain("FISH BAR HARBOUR");
});
