/**
 * What the OCR stage reads a phone photo of a receipt as (stages/ocr/geometry.ts), for the conditions of real photos
 * (the receipts-hard/photo-real corpus): a receipt photographed sideways is still a till roll (one block of lines,
 * whose rows no reading order parts into columns);
 * a sheet whose lines neither the frame nor the sheet shows is read squared up, not with its cluttered surround; a
 * frame without lines whose sheet measures as wide as a page offers that sheet to be read as well (the OCR stage
 * keeps the reading with more text); a frame in which no sheet is found but a hard shadow falls is read with its
 * light evened out; a hard shadow on a
 * found sheet is lifted to white (imaging/even-light.ts); a curled sheet's lines are straightened, so an amount flush
 * right stays on its label's row (imaging/sheet-lines.ts). Synthetic images (every figure known exactly), and one
 * real-conditions photo of a seed the gate does not use.
 */
import { describe, expect, test } from "bun:test";
import sharp from "sharp";
import { toPdf } from "../../../../fixtures/varied/generator";
import { generateHardReceipts } from "../../../../fixtures/varied/generator/hard-receipts";
import { realPhotoOf } from "../../../accuracy/photos-real.ts";
import type { GreyImage } from "../../../../src/core/imaging/grey.ts";
import { findSheet } from "../../../../src/core/imaging/sheet.ts";
import { squareUp } from "../../../../src/core/imaging/sheet-warp.ts";
import { straightenLines } from "../../../../src/core/imaging/sheet-lines.ts";
import { pageGeometry, SINGLE_BLOCK } from "../../../../src/core/stages/ocr/geometry.ts";

interface Scene {
  W: number;
  H: number;
  /** The paper: x0, y0, x1, y1 (null: no paper edge, the page fills the frame). */
  paper: number[] | null;
  /** Ink at paper-relative (u, v), where (u, v) runs along the lines and across them. */
  ink: (u: number, v: number) => boolean;
  /** Lines run down the frame (a receipt photographed sideways). */
  sideways?: boolean;
  /** Light multiplier at (x, y). */
  light?: (x: number, y: number) => number;
}

function draw({ W, H, paper, ink, sideways, light }: Scene): GreyImage {
  const data = new Uint8Array(W * H);
  const [x0, y0, x1, y1] = paper ?? [0, 0, W, H];
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const inside = x >= x0! && x < x1! && y >= y0! && y < y1!;
      const [u, v] = sideways ? [y - y0!, x1! - 1 - x] : [x - x0!, y - y0!];
      const tone = inside ? (ink(u, v) ? 60 : 235) : 80 + ((x * 7 + y * 13) % 11);
      data[y * W + x] = Math.round(tone * (light?.(x, y) ?? 1));
    }
  return { data, width: W, height: H };
}

/**
 * Rows of "words" `pitch` apart on a receipt `width` wide and `length` long (margins of 40 px): labels on the left,
 * amounts flush right; `curl` lifts the rows towards the right edge (by `curl` px there, as paper curling up).
 */
const receiptRows =
  (width: number, length: number, pitch: number, curl = 0) =>
  (u: number, v: number) => {
    const w = v - curl * (u / width) ** 2;
    const row = ((w % pitch) + pitch) % pitch;
    if (row < 4 || row >= 4 + Math.round(pitch * 0.45) || u < 40 || u > width - 40) return false;
    if (v < 40 || v > length - 40) return false;
    // Letters' gaps fall elsewhere on every row, as in print.
    const line = Math.floor(w / pitch);
    const label = u < width * 0.45 && (u + line * 5) % 14 < 9 && ((u >> 5) + line) % 4 !== 0;
    const amount = u > width * 0.75 && (u + line * 3) % 12 < 8;
    return label || amount;
  };

describe("phone photos of receipts: what the OCR stage reads", () => {
  test("a receipt photographed sideways is read squared up as one block of lines (a till roll on its side)", () => {
    // 40 line heights across: a till roll whichever way it lies.
    const g = pageGeometry(
      draw({ W: 1300, H: 760, paper: [100, 120, 1180, 620], ink: receiptRows(500, 1080, 24), sideways: true }),
      undefined,
    );
    expect(g.sheet).not.toBeNull();
    expect(g.layout.lineAxis).toBe("down");
    expect(g.psm).toBe(SINGLE_BLOCK);
    // A till roll: its rows (label left, amount flush right) are never parted into columns by the reading order.
    expect(g.roll).toBe(true);
  });

  test("a sheet on which no lines are found, in a frame without them either, is read squared up, sized as a roll", () => {
    // Scattered specks of print: no line direction on the sheet nor on the frame.
    const specks = (u: number, v: number) => (u * 31 + v * 17) % 97 < 2 && (u * 7 + v * 3) % 13 < 6;
    const g = pageGeometry(draw({ W: 900, H: 1000, paper: [150, 120, 700, 880], ink: specks }), undefined);
    expect(g.sheet).not.toBeNull();
    expect(g.psm).toBe(SINGLE_BLOCK);
    // No line height measured: a till roll's (its width across the lines over 40) stands in, so small print is
    // enlarged.
    const across = g.layout.lineAxis === "down" ? g.grey.height : g.grey.width;
    expect(g.layout.lineHeight).toBe(Math.round(across / 40));
    // Nothing says it is a till roll (no lines measured, not long and narrow): the reading order may still find
    // columns on it.
    expect(g.roll).toBeUndefined();
  });

  test("a frame without lines whose sheet measures as wide as a page offers that sheet to be read as well", () => {
    // Rows 10 px apart on a sheet 700 px wide: ~140 line heights across, a page's width (a faint sideways receipt's
    // columns of characters measure so). The frame, most of it the table, shows no lines.
    const g = pageGeometry(
      draw({ W: 1000, H: 1000, paper: [150, 120, 850, 880], ink: receiptRows(700, 760, 10) }),
      undefined,
    );
    // The frame is read as it is (a page photographed on a desk reads well so), and its squared sheet as well.
    expect(g.sheet).toBeNull();
    expect(g.orSheet?.sheet).not.toBeNull();
    expect(g.orSheet?.psm).toBe(SINGLE_BLOCK);
    expect(g.orSheet?.orSheet).toBeUndefined();
    // A sheet whose lines the frame shows too is not offered: the frame's reading stands.
    const seen = pageGeometry(
      draw({ W: 1300, H: 760, paper: [100, 120, 1180, 620], ink: receiptRows(500, 1080, 24), sideways: true }),
      undefined,
    );
    expect(seen.orSheet).toBeUndefined();
  });

  test("a frame with a hard shadow and no sheet found is read with its light evened; a scan is read as it is", () => {
    const ink = receiptRows(1000, 1000, 30);
    const shade = (x: number, y: number) => (x + y > 1000 ? 0.45 : 1);
    const shadowed = draw({ W: 1000, H: 1000, paper: null, ink, light: shade });
    const g = pageGeometry(shadowed, undefined);
    expect(g.grey).not.toBe(shadowed);
    // Under the shadow the paper is white again and the ink dark.
    const at = (x: number, y: number) => g.grey.data[y * 1000 + x]!;
    let [paper, dark] = [0, 255];
    for (let y = 700; y < 900; y++)
      for (let x = 700; x < 900; x++) {
        paper = Math.max(paper, at(x, y));
        dark = Math.min(dark, at(x, y));
      }
    expect(paper).toBeGreaterThan(235);
    expect(dark).toBeLessThan(100);
    const scan = draw({ W: 1000, H: 1000, paper: null, ink });
    const asItIs = pageGeometry(scan, undefined);
    expect(asItIs.grey).toBe(scan);
    expect(asItIs.roll).toBeUndefined();
  });

  test("a hard shadow across a found sheet is lifted to white, its text kept dark", () => {
    const img = draw({
      W: 800,
      H: 1000,
      paper: [120, 100, 680, 900],
      ink: receiptRows(560, 800, 26),
      light: (x, y) => (y > 620 ? 0.45 : 1),
    });
    const { image } = squareUp(img, findSheet(img)!);
    const v: number[] = [];
    for (let y = Math.round(image.height * 0.75); y < image.height * 0.92; y++)
      for (let x = 0; x < image.width; x++) v.push(image.data[y * image.width + x]!);
    v.sort((a, b) => a - b);
    expect(v[Math.floor(v.length * 0.8)]!).toBeGreaterThan(230);
    expect(v[Math.floor(v.length * 0.03)]!).toBeLessThan(120);
  });

  test("a receipt in the shade on a light wooden table is found by the step across each of its edges", async () => {
    // A real-conditions photo (photos-real.ts) of a receipt of a seed the accuracy gate does not use: most of the
    // paper in a hard shadow on a lighter table, so the medians inside and outside the paper differ by less than a
    // step; across each of its edges, point by point, there still is one.
    const doc = generateHardReceipts(7, 1)[0]!;
    const file = await realPhotoOf(await toPdf(doc), `t7-${doc.id}`);
    const { data, info } = await sharp(file).toColourspace("b-w").raw().toBuffer({ resolveWithObject: true });
    const grey = {
      data: new Uint8Array(data.buffer, data.byteOffset, data.length),
      width: info.width,
      height: info.height,
    };
    const sheet = findSheet(grey);
    expect(sheet).not.toBeNull();
    const [tl, tr, br, bl] = sheet!.corners;
    const area = Math.abs((br[0] - tl[0]) * (bl[1] - tr[1]) - (bl[0] - tr[0]) * (br[1] - tl[1])) / 2;
    // The paper fills 40-60% of the frame.
    expect(area / (grey.width * grey.height)).toBeGreaterThan(0.3);
    expect(area / (grey.width * grey.height)).toBeLessThan(0.75);
  }, 60_000);

  test("a curled sheet's lines are straightened: a label and its amount flush right share their rows", () => {
    const [w, pitch, curl] = [480, 24, 12];
    const img = draw({ W: 700, H: 1000, paper: [110, 90, 110 + w, 910], ink: receiptRows(w, 820, pitch, curl) });
    const squared = squareUp(img, findSheet(img)!);
    const straight = straightenLines(squared, "across");
    expect(straight).not.toBe(squared);
    // Rows inked at the left labels' columns and at the right amounts' columns: on the curled sheet they lie a
    // good part of a line apart; straightened, they are the same rows.
    const rowsAt = (im: GreyImage, x1: number, x2: number) => {
      const rows: number[] = [];
      for (let y = 0; y < im.height; y++) {
        let n = 0;
        for (let x = x1; x < x2; x++) if (im.data[y * im.width + x]! < 150) n++;
        if (n >= 2) rows.push(y);
      }
      return new Set(rows);
    };
    const shared = (im: GreyImage) => {
      const [left, right] = [rowsAt(im, 40, 100), rowsAt(im, im.width - 100, im.width - 40)];
      return [...left].filter((y) => right.has(y)).length / Math.max(1, left.size);
    };
    expect(shared(squared.image)).toBeLessThan(0.5);
    expect(shared(straight.image)).toBeGreaterThan(0.8);
    // A flat sheet is left as it was.
    const flat = draw({ W: 700, H: 1000, paper: [110, 90, 110 + w, 910], ink: receiptRows(w, 820, pitch) });
    const flatSquared = squareUp(flat, findSheet(flat)!);
    expect(straightenLines(flatSquared, "across")).toBe(flatSquared);
  });
});
