/**
 * Deterministic "phone photos" of till receipts for the accuracy gate: the receipt PDF rendered by docproc's own
 * pdf.js path, printed on thermal paper (faded grey ink, worn bands, lost dots), then photographed: lying on a
 * darker table, seen at an angle (a perspective warp of the paper's four corners), turned a few degrees, lit
 * unevenly (light falling off across the paper, a soft shadow band), slightly out of focus and JPEG-compressed.
 * The result is a JPEG about as sharp as a phone photo of a receipt filling most of the frame (~230 pixels per
 * inch of paper).
 *
 * `harsh` photos (the receipts-hard corpus) add what real phone photos of receipts suffer: print faded further,
 * low light with more sensor noise, a stronger angle of view, a fold across the paper (a shadow line and one half
 * lit differently) and paper that does not lie flat (lines bowed). The ordinary recipe's draws are untouched.
 *
 * Deterministic: every random choice comes from a seeded mulberry32 keyed by the name; cached like the scans
 * (scans.ts), keyed by the source bytes, the name and the versions of the renderer and image library.
 */
import sharp from "sharp";
import { Rng } from "../../fixtures/varied/generator/random";
import { convertSource } from "../../src/core/stages/convert";
import { cachedImage, seedOf } from "./scans";

/** Bump when the recipe below changes, so cached photos are made anew. */
const RECIPE = 1;
/** Pixels per inch of paper in the photo. */
const PHOTO_PPI = 230;

/** The photo of page 1 of `pdf` (bytes), as a JPEG file path; made once, then read from the cache. */
export function photoOf(pdf: Uint8Array, name: string, harsh = false): Promise<string> {
  const variant = harsh ? { photo: RECIPE, harsh: HARSH_RECIPE } : { photo: RECIPE };
  return cachedImage(pdf, name, variant, "jpg", () => takePhoto(pdf, name, harsh ? harshOf(name) : null));
}

/** Bump when the harsh conditions change. */
const HARSH_RECIPE = 1;

/** The harsh conditions of one photo (drawn from their own seed, so the ordinary recipe stays as it was). */
interface Harsh {
  fade: number;
  light: number;
  noise: number;
  jitter: number;
  turn: number;
  /** Fold line across the paper (fraction of its height) and the light step across it. */
  fold: number;
  step: number;
  /** Bow of the paper's lines, in pixels at mid-width. */
  bow: number;
}

function harshOf(name: string): Harsh {
  const r = new Rng(seedOf(`harsh:${name}`));
  return {
    fade: 0.55 + r.next() * 0.2,
    light: 0.6 + r.next() * 0.2,
    noise: 26 + r.next() * 10,
    jitter: 0.05 + r.next() * 0.03,
    turn: 3 + r.next() * 4,
    fold: 0.3 + r.next() * 0.4,
    step: 0.08 + r.next() * 0.1,
    bow: (r.next() < 0.5 ? -1 : 1) * (4 + r.next() * 8),
  };
}

export interface Grey {
  data: Uint8Array;
  width: number;
  height: number;
}

async function takePhoto(pdf: Uint8Array, name: string, harsh: Harsh | null): Promise<Uint8Array> {
  const r = new Rng(seedOf(`photo:${name}`));
  const paper = await thermalPage(pdf, name, PHOTO_PPI, r);
  if (harsh) for (let i = 0; i < paper.data.length; i++) paper.data[i] = 255 - (255 - paper.data[i]!) * harsh.fade;
  const shot = photograph(paper, r, harsh);
  const jpeg = await sharp(shot.data, { raw: { width: shot.width, height: shot.height, channels: 1 } })
    .blur(0.8)
    .jpeg({ quality: 72, mozjpeg: false })
    .toBuffer();
  return new Uint8Array(jpeg);
}

/** Page 1 of `pdf` rendered by docproc's own path at `ppi` pixels per inch and printed on thermal paper (draws from `r`). */
export async function thermalPage(pdf: Uint8Array, name: string, ppi: number, r: Rng): Promise<Grey> {
  const converted = await convertSource(
    { index: 0, filename: `${name}.pdf`, data: pdf, split_policy: "inherit" },
    { firstPageNumber: 1, maxPages: 1 },
  );
  try {
    const page = converted.pages[0]!;
    const t = page.image_transform;
    const raster = await page.render!();
    return thermal(await toGrey(raster, ppi / (t.effective_dpi ?? 72 * t.render_scale)), r);
  } finally {
    await converted.close();
  }
}

export async function toGrey(
  raster: { data: Uint8Array; width: number; height: number; channels: number },
  scale: number,
): Promise<Grey> {
  const [width, height] = [Math.round(raster.width * scale), Math.round(raster.height * scale)];
  const { data } = await sharp(raster.data, {
    raw: { width: raster.width, height: raster.height, channels: raster.channels as 1 | 2 | 3 | 4 },
  })
    .removeAlpha()
    .resize(width, height, { kernel: "lanczos3" })
    .toColourspace("b-w")
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, width * height), width, height };
}

/** Thermal paper: faded grey print on a tinted roll, lighter bands where the head wore, dots it did not print. */
export function thermal(img: Grey, r: Rng): Grey {
  const out = new Uint8Array(img.data.length);
  const band = 25 + r.int(0, 20);
  for (let i = 0; i < out.length; i++) {
    const y = Math.floor(i / img.width);
    let g = 255 - (255 - img.data[i]!) * 0.7 - 10 + (Math.floor(y / band) % 6 === 3 ? 30 : 0);
    if (g < 200 && r.next() < 0.08) g = 210;
    out[i] = Math.max(0, Math.min(255, Math.round(g + (r.next() - 0.5) * 20)));
  }
  return { ...img, data: out };
}

/**
 * The paper on a table, photographed: its corners placed in a larger frame (margins, a few degrees of turn, each
 * corner pulled in or out for the angle of view), pixels taken back through the homography of that placement,
 * light falling off from one side plus a soft shadow band, grain.
 */
function photograph(paper: Grey, r: Rng, harsh: Harsh | null): Grey {
  const margin = Math.round(paper.width * 0.18);
  const [W, H] = [paper.width + 2 * margin, paper.height + 2 * margin];
  const turn = ((r.next() * 2 - 1) * (harsh?.turn ?? 3) * Math.PI) / 180;
  const [cx, cy] = [W / 2, H / 2];
  const jitter = () => (r.next() * 2 - 1) * paper.width * (harsh?.jitter ?? 0.035);
  const corners: Array<[number, number]> = [
    [margin, margin],
    [margin + paper.width, margin],
    [margin + paper.width, margin + paper.height],
    [margin, margin + paper.height],
  ].map(([x, y]) => {
    const [dx, dy] = [x! - cx + jitter(), y! - cy + jitter()];
    return [cx + dx * Math.cos(turn) - dy * Math.sin(turn), cy + dx * Math.sin(turn) + dy * Math.cos(turn)];
  });
  // Photo → paper: the homography taking the placed corners back to the paper's own corners.
  const h = homography(corners, [
    [0, 0],
    [paper.width, 0],
    [paper.width, paper.height],
    [0, paper.height],
  ]);
  const light = { angle: r.next() * 2 * Math.PI, fall: 0.25 + r.next() * 0.2, shadow: r.next() * H };
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const w = h[6]! * x + h[7]! * y + 1;
      const u = (h[0]! * x + h[1]! * y + h[2]!) / w;
      let v = (h[3]! * x + h[4]! * y + h[5]!) / w;
      // Paper not lying flat: its lines bow (most at mid-width).
      if (harsh) v += harsh.bow * Math.sin((Math.PI * u) / paper.width);
      const inside = u >= 0 && v >= 0 && u < paper.width - 1 && v < paper.height - 1;
      let g = inside ? bilinear(paper, u, v) : 95 + (r.next() - 0.5) * 30;
      // Light: brighter on one side of the frame, darker on the other; a soft shadow band across.
      const along = ((x - cx) * Math.cos(light.angle) + (y - cy) * Math.sin(light.angle)) / Math.max(W, H);
      g *= 1 - light.fall * (along + 0.5) - (Math.abs(y - light.shadow) < H * 0.08 ? 0.12 : 0);
      if (harsh) g = creased(g, inside ? v / paper.height : -1, paper.height, harsh);
      out[y * W + x] = Math.max(0, Math.min(255, Math.round(g + (r.next() - 0.5) * (harsh?.noise ?? 16))));
    }
  }
  return { data: out, width: W, height: H };
}

/** Low light over the whole frame; on the paper a fold: a dark line and the far half lit differently. */
function creased(g: number, at: number, height: number, harsh: Harsh): number {
  let out = g * harsh.light;
  if (at < 0) return out;
  const d = Math.abs(at - harsh.fold) * height;
  if (d < 3) out *= 0.55 + d * 0.12;
  if (at > harsh.fold) out *= 1 - harsh.step;
  return out;
}

export function bilinear(img: Grey, u: number, v: number): number {
  const [x0, y0] = [Math.floor(u), Math.floor(v)];
  const [fx, fy] = [u - x0, v - y0];
  const at = (x: number, y: number) => img.data[y * img.width + x]!;
  const top = at(x0, y0) * (1 - fx) + at(x0 + 1, y0) * fx;
  const bottom = at(x0, y0 + 1) * (1 - fx) + at(x0 + 1, y0 + 1) * fx;
  return top * (1 - fy) + bottom * fy;
}

/** The 8 coefficients of the homography taking `from[i]` to `to[i]` (four point pairs). */
export function homography(from: Array<[number, number]>, to: Array<[number, number]>): number[] {
  const a: number[][] = [];
  for (let i = 0; i < 4; i++) {
    const [x, y] = from[i]!;
    const [u, v] = to[i]!;
    a.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    a.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  }
  // Gaussian elimination with partial pivoting on the 8×9 augmented matrix.
  for (let c = 0; c < 8; c++) {
    let best = c;
    for (let k = c + 1; k < 8; k++) if (Math.abs(a[k]![c]!) > Math.abs(a[best]![c]!)) best = k;
    [a[c], a[best]] = [a[best]!, a[c]!];
    for (let k = 0; k < 8; k++) {
      if (k === c) continue;
      const f = a[k]![c]! / a[c]![c]!;
      for (let j = c; j < 9; j++) a[k]![j]! -= f * a[c]![j]!;
    }
  }
  return a.map((row, i) => row[8]! / row[i]!);
}
