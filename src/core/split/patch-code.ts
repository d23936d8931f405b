/**
 * Kodak PATCH-T sheet detection from the patch bars themselves (not the Code 39 "PATCHT" printed on paperless-ngx
 * sheets, which barcodes.ts reads). Patch bars are 0.2 in (wide) and 0.08 in (narrow) with 0.08 in gaps, long, and
 * parallel to a page edge; the T pattern reads narrow, wide, narrow, wide from the edge inward. They stay readable at
 * resolutions where the small Code 39 no longer is.
 */
import type { GreyImage } from "../imaging/grey";
import { rotateGrey } from "../imaging/grey-thumbnail";

/** Share of the page, from each edge, where patch bars may lie. */
const EDGE_ZONE = 0.3;
/** Scan lines across the bars, spread over the middle of the bar length. */
const SCAN_LINES = 11;
/** Scan lines that must agree: the bars run along most of the edge. */
const MIN_AGREEING = 8;
/** Grey level below which a pixel is ink; anti-aliased bar edges sit near 128, so count them in. */
const DARK = 160;

/** True when the image shows PATCH-T bars along its left or right edge, or (turned sheets) its top or bottom. */
export function hasPatchTBars(grey: GreyImage): boolean {
  return barsAlongSides(grey) || barsAlongSides(rotateGrey(grey, 90));
}

function barsAlongSides(img: GreyImage): boolean {
  let left = 0;
  let right = 0;
  for (let i = 0; i < SCAN_LINES; i++) {
    const y = Math.floor(img.height * (0.25 + (0.5 * i) / (SCAN_LINES - 1)));
    const row = img.data.subarray(y * img.width, (y + 1) * img.width);
    const zone = Math.floor(img.width * EDGE_ZONE);
    if (isPatchT(runsFrom(row, 0, zone, 1))) left++;
    if (isPatchT(runsFrom(row, img.width - 1, zone, -1))) right++;
  }
  return left >= MIN_AGREEING || right >= MIN_AGREEING;
}

/** Alternating dark/light run lengths walking from `start` inward for `length` pixels, starting at the first dark. */
function runsFrom(row: Uint8Array, start: number, length: number, step: 1 | -1): number[] {
  const runs: number[] = [];
  let x = start;
  const end = start + step * length;
  while (x !== end && row[x] >= DARK) x += step; // margin before the first bar
  let dark = true;
  let run = 0;
  for (; x !== end; x += step) {
    if (row[x] < DARK === dark) run++;
    else {
      runs.push(run);
      if (runs.length === 8) break;
      dark = !dark;
      run = 1;
    }
  }
  if (runs.length < 8 && run > 0) runs.push(run); // the run still open at the end of the zone
  return runs;
}

/**
 * runs = [bar, gap, bar, gap, bar, gap, bar, ...]: narrow, wide, narrow, wide bars (wide ≈ 2.5 × narrow),
 * gaps about one narrow unit, and white space (not another bar) right after the fourth bar.
 */
function isPatchT(runs: number[]): boolean {
  if (runs.length < 8) return false;
  const [b1, g1, b2, g2, b3, g3, b4, after] = runs;
  const narrow = (b1 + b3 + g1 + g2 + g3) / 5;
  const wide = (b2 + b4) / 2;
  if (narrow < 2) return false;
  const ratio = wide / narrow;
  if (ratio < 1.8 || ratio > 3.6) return false;
  const near = (v: number, target: number) => v >= target * 0.55 && v <= target * 1.6;
  return [b1, b3, g1, g2, g3].every((v) => near(v, narrow)) && near(b2, wide) && near(b4, wide) && after >= narrow * 2;
}
