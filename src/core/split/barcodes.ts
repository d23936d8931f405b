/**
 * Barcode detection for separator sheets with @zxing/library (pure JS): Code 39, Code 128 and QR.
 * The page raster is turned into a downscaled grey luminance source; decoding tries the upright image, then the
 * image turned by 90° (vertical 1D codes) and 180°, and repeats after whiting out each code found so several codes on
 * one page are all reported.
 */
import {
  BarcodeFormat,
  BinaryBitmap,
  DecodeHintType,
  HybridBinarizer,
  MultiFormatOneDReader,
  QRCodeReader,
  type Reader,
  RGBLuminanceSource,
  type Result,
} from "@zxing/library";
import type { Barcode, Box, RasterImage } from "../model";
import type { GreyImage } from "../imaging/grey";
import { greyThumbnail, rotateGrey, shrinkGrey } from "../imaging/grey-thumbnail";
import { throwIfAborted } from "../abort";
import { maxOf, minOf } from "../arrays";

const FORMAT_NAMES = new Map<BarcodeFormat, string>([
  [BarcodeFormat.CODE_39, "code39"],
  [BarcodeFormat.CODE_128, "code128"],
  [BarcodeFormat.QR_CODE, "qr"],
]);

/** How many codes one page may report; separator sheets carry one or two. */
const MAX_CODES_PER_PAGE = 4;
/** Longest side of the first, coarse decoding pass. */
const COARSE_SIDE = 1000;

const HINTS = new Map<DecodeHintType, unknown>([
  [DecodeHintType.POSSIBLE_FORMATS, [...FORMAT_NAMES.keys()]],
  [DecodeHintType.TRY_HARDER, true],
]);
// Only the readers we need: MultiFormatReader would also run Aztec, PDF417, MaxiCode... and log their failures.
let sharedReaders: Reader[] | null = null;
function readers(): Reader[] {
  sharedReaders ??= [new MultiFormatOneDReader(HINTS), new QRCodeReader()];
  return sharedReaders;
}

/**
 * Finds the barcodes on a page raster. MUST NOT throw on an undecodable image (returns []).
 * Passes, cheapest first, stopping at the first that finds something: coarse upright (large or distorted codes read
 * better small), full size upright (small codes), then both turned 90° (vertical 1D codes; 1D readers already read
 * rows both ways, so 180° adds nothing). Boxes are in the raster's own pixel space.
 */
export function detectBarcodes(img: RasterImage, opts: { maxSide?: number } = {}): Barcode[] {
  for (const pass of passes(img, opts.maxSide)) {
    const found = pass();
    if (found.length > 0) return found;
  }
  return [];
}

/**
 * `detectBarcodes` in turns: it yields to the event loop before each pass and stops when `signal` aborts. A pass is
 * up to ~0.5 s of synchronous decoding (seconds on a loaded machine); four in a row kept an abort from being seen.
 */
export async function detectBarcodesInTurns(
  img: RasterImage,
  opts: { maxSide?: number; signal?: AbortSignal } = {},
): Promise<Barcode[]> {
  for (const pass of passes(img, opts.maxSide)) {
    await new Promise((resolve) => setImmediate(resolve));
    throwIfAborted(opts.signal, "split");
    const found = pass();
    if (found.length > 0) return found;
  }
  return [];
}

function* passes(img: RasterImage, maxSide = 2000): Generator<() => Barcode[]> {
  const full = greyThumbnail(img, maxSide);
  const coarse = shrinkGrey(full, COARSE_SIDE);
  const list: Array<[GreyImage, 0 | 90]> = [
    [coarse, 0],
    [full, 0],
    [coarse, 90],
    [full, 90],
  ];
  for (const [i, [grey, rotation]] of list.entries()) {
    if (i % 2 === 1 && full === coarse) continue; // small raster: the coarse pass was the full one
    yield () => detectIn(grey, rotation, img.width / grey.width);
  }
}

function detectIn(grey: GreyImage, rotation: 0 | 90, scale: number): Barcode[] {
  const found: Barcode[] = [];
  let view = rotation === 0 ? grey : rotateGrey(grey, rotation);
  for (let i = 0; i < MAX_CODES_PER_PAGE; i++) {
    const result = decodeOnce(view);
    if (!result) break;
    const box = resultBox(result, view, rotation, grey, scale);
    const barcode: Barcode = {
      format: FORMAT_NAMES.get(result.getBarcodeFormat()) ?? "unknown",
      value: result.getText(),
      bounding_box: box,
    };
    if (!found.some((b) => b.value === barcode.value && overlaps(b.bounding_box!, box))) found.push(barcode);
    view = whiteOut(view, result);
  }
  return found;
}

function decodeOnce(img: GreyImage): Result | null {
  try {
    const bitmap = new BinaryBitmap(
      new HybridBinarizer(new RGBLuminanceSource(luminances(img), img.width, img.height)),
    );
    for (const r of readers()) {
      try {
        return r.decode(bitmap, HINTS);
      } catch {
        // NotFoundException, ChecksumException, FormatException: this reader found nothing readable
      }
    }
  } catch {
    // a degenerate image (e.g. a few pixels wide) cannot even be binarized
  }
  return null;
}

/** zxing reads a grey image as a Uint8ClampedArray: a view of the same bytes, no copy. */
const luminances = (img: GreyImage) => new Uint8ClampedArray(img.data.buffer, img.data.byteOffset, img.data.length);

/** Whites out the area of a decoded code so the next attempt finds another one. */
function whiteOut(img: GreyImage, result: Result): GreyImage {
  const [x1, y1, x2, y2] = pointsBox(result, img);
  const data = img.data.slice();
  for (let y = y1; y <= y2; y++) data.fill(255, y * img.width + x1, y * img.width + x2 + 1);
  return { data, width: img.width, height: img.height };
}

/** Bounding box of the result points, padded: 1D codes report points on one scan line only. */
function pointsBox(result: Result, img: GreyImage): Box {
  const pts = result.getResultPoints() ?? [];
  if (pts.length === 0) return [0, 0, img.width - 1, img.height - 1];
  const xs = pts.map((p) => p.getX());
  const ys = pts.map((p) => p.getY());
  const w = maxOf(xs) - minOf(xs);
  const padX = Math.max(10, w * 0.1);
  const padY = Math.max(pts.length <= 2 ? w * 0.5 : 10, 10);
  return [
    Math.max(0, Math.floor(minOf(xs) - padX)),
    Math.max(0, Math.floor(minOf(ys) - padY)),
    Math.min(img.width - 1, Math.ceil(maxOf(xs) + padX)),
    Math.min(img.height - 1, Math.ceil(maxOf(ys) + padY)),
  ];
}

/** Maps the box found in a rotated, downscaled view back to the original raster. */
function resultBox(result: Result, view: GreyImage, rotation: 0 | 90, grey: GreyImage, scale: number): Box {
  const [a, b, c, d] = pointsBox(result, view);
  let box: Box;
  if (rotation === 0) box = [a, b, c, d];
  // 90° clockwise view: view (x, y) came from grey (y, height - 1 - x).
  else box = [b, grey.height - 1 - c, d, grey.height - 1 - a];
  return box.map((v) => Math.round(v * scale)) as Box;
}

function overlaps(p: Box, q: Box): boolean {
  return p[0] <= q[2] && q[0] <= p[2] && p[1] <= q[3] && q[1] <= p[3];
}
