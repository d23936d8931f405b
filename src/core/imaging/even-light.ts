/**
 * Light evened out over a photographed sheet or page: every pixel divided by the paper tone around it, so text under
 * a shadow, in a flash's glare or where the light falls off reads as dark on white as the rest (tesseract thresholds
 * a page with one global threshold: a shadowed half goes black or its text white). `unevenlyLit` says when a frame
 * needs it at all: a scan's paper has one tone everywhere.
 */
import type { GreyImage } from "./grey.ts";

/** The paper tone is measured over about this share of the sheet's shorter side (wider than any stroke). */
const REACH_SHARE = 1 / 100;
/** At most this many pixels: wider than a bold stroke of text a phone photo can still read. */
const MAX_REACH = 8;
/** Tones are never taken below this share of the sheet's own paper tone: a dark printed band stays dark, while a
 * hard shadow (paper at 40-55% of its lit tone) is still lifted to white. */
const MIN_TONE_SHARE = 0.3;

/**
 * Every pixel divided by the paper tone around it, scaled to white = 255. Two estimates of the tone: a grid of cell
 * tones (a high percentile per cell, interpolated: smooth light falling off), and the image's closing (the brightest
 * value within a few pixels, then the darkest of those: strokes vanish, the sharp edge of a shadow band stays where
 * it crosses a line of text). The darker of the two is the tone: the closing where a shadow falls, the grid elsewhere.
 */
export function evenLight(img: GreyImage): GreyImage {
  const { width, height, data } = img;
  const r = Math.max(3, Math.min(MAX_REACH, Math.round(Math.min(width, height) * REACH_SHARE)));
  const closed = boxBlur(
    extreme(extreme(data, width, height, r, Math.max), width, height, r, Math.min),
    width,
    height,
    r,
  );
  const grid = cellTones(img);
  const sorted = Uint8Array.from(closed).sort();
  const floor = Math.max(1, sorted[Math.floor(sorted.length * 0.75)]! * MIN_TONE_SHARE);
  const out = new Uint8Array(data.length);
  for (let i = 0; i < data.length; i++) {
    const tone = Math.max(floor, Math.min(grid[i]!, closed[i]!));
    out[i] = Math.min(255, Math.round((data[i]! * 255) / tone));
  }
  return { data: out, width, height };
}

/** Cells of the tone grid are about this share of the sheet's shorter side. */
const CELL_SHARE = 1 / 24;
/** A cell's paper tone is this percentile of its pixels: text is sparse, paper is most of a cell. */
const TONE_PERCENTILE = 0.9;

/** Per pixel, the tone of the grid of cells (a cell all text takes its neighbours' brightest), interpolated. */
function cellTones({ width, height, data }: GreyImage): Float32Array {
  const cell = Math.max(8, Math.round(Math.min(width, height) * CELL_SHARE));
  const [gw, gh] = [Math.ceil(width / cell), Math.ceil(height / cell)];
  const tones = new Float32Array(gw * gh);
  const counts = new Uint32Array(256);
  for (let gy = 0; gy < gh; gy++)
    for (let gx = 0; gx < gw; gx++) {
      counts.fill(0);
      let n = 0;
      for (let y = gy * cell; y < Math.min(height, (gy + 1) * cell); y++)
        for (let x = gx * cell; x < Math.min(width, (gx + 1) * cell); x++, n++) counts[data[y * width + x]!]!++;
      let seen = 0;
      let v = 0;
      while (v < 255 && (seen += counts[v]!) < n * TONE_PERCENTILE) v++;
      tones[gy * gw + gx] = v;
    }
  const grid = new Float32Array(tones.length);
  for (let gy = 0; gy < gh; gy++)
    for (let gx = 0; gx < gw; gx++) {
      let best = 0;
      for (let dy = -1; dy <= 1; dy++)
        for (let dx = -1; dx <= 1; dx++) {
          const [x, y] = [gx + dx, gy + dy];
          if (x >= 0 && y >= 0 && x < gw && y < gh) best = Math.max(best, tones[y * gw + x]!);
        }
      grid[gy * gw + gx] = best;
    }
  const out = new Float32Array(width * height);
  for (let y = 0; y < height; y++) {
    const fy = Math.min(gh - 1, Math.max(0, (y + 0.5) / cell - 0.5));
    const [y0, ty] = [Math.floor(fy), fy - Math.floor(fy)];
    const y1 = Math.min(gh - 1, y0 + 1);
    for (let x = 0; x < width; x++) {
      const fx = Math.min(gw - 1, Math.max(0, (x + 0.5) / cell - 0.5));
      const [x0, tx] = [Math.floor(fx), fx - Math.floor(fx)];
      const x1 = Math.min(gw - 1, x0 + 1);
      const top = grid[y0 * gw + x0]! + (grid[y0 * gw + x1]! - grid[y0 * gw + x0]!) * tx;
      const bottom = grid[y1 * gw + x0]! + (grid[y1 * gw + x1]! - grid[y1 * gw + x0]!) * tx;
      out[y * width + x] = top + (bottom - top) * ty;
    }
  }
  return out;
}

/** Max (or min) over a (2r+1)² square, as a row pass then a column pass. */
function extreme(src: Uint8Array, w: number, h: number, r: number, pick: (a: number, b: number) => number) {
  const rows = new Uint8Array(src.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let v = src[y * w + x]!;
      for (let k = Math.max(0, x - r); k <= Math.min(w - 1, x + r); k++) v = pick(v, src[y * w + k]!);
      rows[y * w + x] = v;
    }
  const out = new Uint8Array(src.length);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let v = rows[y * w + x]!;
      for (let k = Math.max(0, y - r); k <= Math.min(h - 1, y + r); k++) v = pick(v, rows[k * w + x]!);
      out[y * w + x] = v;
    }
  return out;
}

/** Mean over a (2r+1)² square (running sums per row, then per column). */
function boxBlur(src: Uint8Array, w: number, h: number, r: number): Uint8Array {
  const rows = new Float32Array(src.length);
  for (let y = 0; y < h; y++) {
    let sum = 0;
    for (let x = -r; x <= r; x++) sum += src[y * w + Math.min(w - 1, Math.max(0, x))]!;
    for (let x = 0; x < w; x++) {
      rows[y * w + x] = sum / (2 * r + 1);
      sum += src[y * w + Math.min(w - 1, x + r + 1)]! - src[y * w + Math.max(0, x - r)]!;
    }
  }
  const out = new Uint8Array(src.length);
  for (let x = 0; x < w; x++) {
    let sum = 0;
    for (let y = -r; y <= r; y++) sum += rows[Math.min(h - 1, Math.max(0, y)) * w + x]!;
    for (let y = 0; y < h; y++) {
      out[y * w + x] = Math.round(sum / (2 * r + 1));
      sum += rows[Math.min(h - 1, y + r + 1) * w + x]! - rows[Math.max(0, y - r) * w + x]!;
    }
  }
  return out;
}

/** Cells of the unevenness test: about this many across the frame's shorter side. */
const TEST_CELLS = 16;
/** A frame is unevenly lit when a quarter of its cells' paper tones lie below this share of its bright paper's. */
const SHADOW_SHARE = 0.6;

/**
 * Whether the frame's paper tone varies as under a shadow or light falling off across a photo: the tone of each
 * cell (its TONE_PERCENTILE brightness) at the lower quartile below SHADOW_SHARE of the tone at the ninetieth
 * percentile. A scan's or a rendered page's paper is one tone; a dark picture on it covers few cells.
 */
export function unevenlyLit({ width, height, data }: GreyImage): boolean {
  const cell = Math.max(8, Math.floor(Math.min(width, height) / TEST_CELLS));
  if (surelyEven({ width, height, data }, cell)) return false;
  const tones: number[] = [];
  const counts = new Uint32Array(256);
  for (let y0 = 0; y0 + cell <= height; y0 += cell)
    for (let x0 = 0; x0 + cell <= width; x0 += cell) {
      counts.fill(0);
      for (let y = y0; y < y0 + cell; y++) for (let x = x0; x < x0 + cell; x++) counts[data[y * width + x]!]!++;
      let [seen, v] = [0, 0];
      while (v < 255 && (seen += counts[v]!) < cell * cell * TONE_PERCENTILE) v++;
      tones.push(v);
    }
  if (tones.length < 4) return false;
  tones.sort((a, b) => a - b);
  return tones[Math.floor(tones.length * 0.25)]! < SHADOW_SHARE * tones[Math.floor(tones.length * 0.9)]!;
}

/** A paper tone this bright is at least SHADOW_SHARE of any tone, white's included. */
const SURELY_EVEN = Math.ceil(SHADOW_SHARE * 255);

/**
 * `unevenlyLit`'s answer is no when at most a quarter of the cells have a tone below SURELY_EVEN: the lower quartile
 * is then at least SHADOW_SHARE of the ninetieth percentile, whatever that is. A cell's tone is that bright as soon as
 * too few of its pixels are left to make TONE_PERCENTILE of it darker, so on a scan's white paper a tenth of each cell
 * is read instead of all of it (the same answer, 15 ms less a 300-DPI page).
 */
function surelyEven({ width, height, data }: GreyImage, cell: number): boolean {
  const cells = Math.floor(width / cell) * Math.floor(height / cell);
  if (cells < 4) return false;
  const allowed = Math.floor(cells * 0.25);
  const need = cell * cell * TONE_PERCENTILE;
  let dim = 0;
  for (let y0 = 0; y0 + cell <= height; y0 += cell)
    for (let x0 = 0; x0 + cell <= width; x0 += cell)
      if (!toneAtLeast(data, width, x0, y0, cell, need) && ++dim > allowed) return false;
  return true;
}

/** Whether fewer than `need` of the cell's pixels are darker than SURELY_EVEN (its tone is at least that). */
function toneAtLeast(data: Uint8Array, width: number, x0: number, y0: number, cell: number, need: number): boolean {
  let darker = 0;
  let left = cell * cell;
  for (let y = y0; y < y0 + cell; y++) {
    const row = y * width;
    for (let x = x0; x < x0 + cell; x++) if (data[row + x]! < SURELY_EVEN) darker++;
    left -= cell;
    if (darker >= need) return false;
    if (darker + left < need) return true;
  }
  return darker < need;
}
