/**
 * Phone photos of till receipts as people really take them (the receipts-hard/photo-real corpus), harder than
 * photos.ts's: the receipt fills only 40–60% of a 1–2 MP frame (about 120–160 pixels per inch of paper), lies on a
 * textured surface (wood grain or a woven cloth), often beside another sheet of paper and with a thumb-like blob at
 * an edge; the phone is held sideways or upside down (a quarter or half turn plus a few degrees); the paper is
 * crumpled (a smooth non-linear warp with its facets lit differently) and curled; a hard shadow falls across part of
 * it, a flash glare spot washes out the print under it; the hand moved (motion blur); sensor grain; JPEG.
 *
 * Deterministic: every draw comes from a mulberry32 seeded with `real:<name>` (photos.ts's recipes are untouched);
 * cached like the scans, keyed by the source bytes, the name and the recipe.
 */
import sharp from "sharp";
import { Rng } from "../../fixtures/varied/generator/random";
import { bilinear, homography, thermalPage, type Grey } from "./photos";
import { cachedImage, seedOf } from "./scans";

/** Bump when the recipe below changes, so cached photos are made anew. */
const REAL_RECIPE = 2;

/** The real-conditions photo of page 1 of `pdf`, as a JPEG file path; made once, then read from the cache. */
export function realPhotoOf(pdf: Uint8Array, name: string): Promise<string> {
  return cachedImage(pdf, name, { realPhoto: REAL_RECIPE }, "jpg", () => takeRealPhoto(pdf, name));
}

async function takeRealPhoto(pdf: Uint8Array, name: string): Promise<Uint8Array> {
  const r = new Rng(seedOf(`real:${name}`));
  const ppi = 120 + r.next() * 40;
  const paper = await thermalPage(pdf, name, ppi, r);
  const fade = 0.85 + r.next() * 0.15;
  for (let i = 0; i < paper.data.length; i++) paper.data[i] = 255 - (255 - paper.data[i]!) * fade;
  const shot = motionBlur(compose(paper, r), r);
  const jpeg = await sharp(shot.data, { raw: { width: shot.width, height: shot.height, channels: 1 } })
    .jpeg({ quality: 70 + r.int(0, 15), mozjpeg: false })
    .toBuffer();
  return new Uint8Array(jpeg);
}

type P = [number, number];

/** Where and how the paper lies in the frame. */
interface Placement {
  W: number;
  H: number;
  /** Frame → paper homography. */
  h: number[];
  /** The placed paper's corners in the frame. */
  corners: P[];
}

function place(paper: Grey, r: Rng): Placement {
  const quarter = r.pick([0, 0, 90, 90, 180, 270, 270]);
  const turn = ((quarter + (r.next() * 2 - 1) * 8) * Math.PI) / 180;
  const [c, s] = [Math.cos(turn), Math.sin(turn)];
  const [bw, bh] = [
    Math.abs(paper.width * c) + Math.abs(paper.height * s),
    Math.abs(paper.width * s) + Math.abs(paper.height * c),
  ];
  // A 4:3 frame (portrait when the paper stands) in which the paper covers 40–60% of the area when it fits.
  const aspect = bw > bh ? 4 / 3 : 3 / 4;
  const area = (paper.width * paper.height) / (0.4 + r.next() * 0.2);
  let H = Math.sqrt(area / aspect);
  H = Math.max(H, bh / 0.9, bw / 0.9 / aspect);
  const W = Math.round(H * aspect);
  H = Math.round(H);
  const cx = bw / 2 + (W - bw) * (0.25 + r.next() * 0.5);
  const cy = bh / 2 + (H - bh) * (0.25 + r.next() * 0.5);
  const jitter = () => (r.next() * 2 - 1) * paper.width * 0.06;
  const own: P[] = [
    [0, 0],
    [paper.width, 0],
    [paper.width, paper.height],
    [0, paper.height],
  ];
  const corners = own.map(([x, y]): P => {
    const [dx, dy] = [x - paper.width / 2 + jitter(), y - paper.height / 2 + jitter()];
    return [cx + dx * c - dy * s, cy + dx * s + dy * c];
  });
  return { W, H, h: homography(corners, own), corners };
}

/** Crumpled and curled paper: a displacement field of a few smooth waves, its slope shading the facets. */
function crumple(paper: Grey, r: Rng) {
  const waves = Array.from({ length: 4 }, () => {
    const angle = r.next() * Math.PI;
    const length = paper.width * (0.35 + r.next() * 0.9);
    return {
      kx: (Math.cos(angle) * 2 * Math.PI) / length,
      ky: (Math.sin(angle) * 2 * Math.PI) / length,
      phase: r.next() * 2 * Math.PI,
      du: (r.next() * 2 - 1) * 3,
      dv: (r.next() * 2 - 1) * 4,
      shade: (r.next() * 2 - 1) * 0.07,
    };
  });
  const curl = (r.next() < 0.5 ? -1 : 1) * (4 + r.next() * 10);
  return (u: number, v: number): [number, number, number] => {
    let [du, dv, light] = [0, curl * Math.sin((Math.PI * u) / paper.width), 1];
    for (const w of waves) {
      const a = w.kx * u + w.ky * v + w.phase;
      du += w.du * Math.sin(a);
      dv += w.dv * Math.sin(a);
      light += w.shade * Math.cos(a);
    }
    return [u + du, v + dv, light];
  };
}

function compose(paper: Grey, r: Rng): Grey {
  const { W, H, h, corners } = place(paper, r);
  const warp = crumple(paper, r);
  const surface = background(W, H, corners, r);
  const [sx, sy] = [corners.reduce((a, p) => a + p[0], 0) / 4, corners.reduce((a, p) => a + p[1], 0) / 4];
  // A hard shadow (a phone or a hand between lamp and paper) over one side of a line through the paper.
  const sa = r.next() * 2 * Math.PI;
  const shadow = { nx: Math.cos(sa), ny: Math.sin(sa), at: (r.next() - 0.3) * paper.width * 0.6 };
  const shadowDepth = 0.45 + r.next() * 0.15;
  const shadowSoft = 4 + r.next() * 10;
  // A flash glare spot somewhere on the paper.
  const glare = r.chance(0.7)
    ? {
        x: sx + (r.next() - 0.5) * paper.width * 0.8,
        y: sy + (r.next() - 0.5) * paper.height * 0.6,
        rad: paper.width * (0.08 + r.next() * 0.1),
        strength: 0.45 + r.next() * 0.3,
      }
    : null;
  const light = { angle: r.next() * 2 * Math.PI, fall: 0.15 + r.next() * 0.2 };
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      const w = h[6]! * x + h[7]! * y + 1;
      const [u, v, facet] = warp((h[0]! * x + h[1]! * y + h[2]!) / w, (h[3]! * x + h[4]! * y + h[5]!) / w);
      const inside = u >= 0 && v >= 0 && u < paper.width - 1 && v < paper.height - 1;
      let g = inside ? bilinear(paper, u, v) * facet : surface[y * W + x]!;
      const along = ((x - W / 2) * Math.cos(light.angle) + (y - H / 2) * Math.sin(light.angle)) / Math.max(W, H);
      g *= 1 - light.fall * (along + 0.5);
      const d = (x - sx) * shadow.nx + (y - sy) * shadow.ny - shadow.at;
      g *= 1 - shadowDepth * Math.min(1, Math.max(0, 0.5 + d / shadowSoft));
      if (glare && inside) {
        const e = Math.exp(-((x - glare.x) ** 2 + (y - glare.y) ** 2) / glare.rad ** 2);
        g += (255 - g) * glare.strength * e;
      }
      out[y * W + x] = Math.max(0, Math.min(255, Math.round(g + (r.next() - 0.5) * 18)));
    }
  return { data: out, width: W, height: H };
}

/** Smooth value noise in [0, 1) on a lattice of `cell` pixels. */
function valueNoise(r: Rng, cell: number) {
  const n = 64;
  const grid = Float32Array.from({ length: n * n }, () => r.next());
  const at = (i: number, j: number) => grid[(((j % n) + n) % n) * n + (((i % n) + n) % n)]!;
  return (x: number, y: number) => {
    const [gx, gy] = [x / cell, y / cell];
    const [i, j] = [Math.floor(gx), Math.floor(gy)];
    const [fx, fy] = [gx - i, gy - j];
    const top = at(i, j) * (1 - fx) + at(i + 1, j) * fx;
    return top * (1 - fy) + (at(i, j + 1) * (1 - fx) + at(i + 1, j + 1) * fx) * fy;
  };
}

/** The surface: wood grain or a woven cloth; maybe another sheet of paper under one corner, a thumb at an edge. */
function background(W: number, H: number, corners: P[], r: Rng): Uint8Array {
  const out = new Uint8Array(W * H);
  const wood = r.chance(0.6);
  const base = 95 + r.next() * 55;
  const noise = valueNoise(r, 24 + r.next() * 40);
  const ga = r.next() * Math.PI;
  const period = 5 + r.next() * 8;
  const other = r.chance(0.5) ? otherSheet(W, H, corners, r) : null;
  const thumb = r.chance(0.5) ? thumbAt(W, H, r) : null;
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      let g: number;
      if (wood) g = base + 28 * Math.sin((x * Math.cos(ga) + y * Math.sin(ga)) / period + 6 * noise(x, y));
      else g = base + 14 * Math.sin(x / 2.1) * Math.sin(y / 2.3) + 30 * (noise(x, y) - 0.5);
      if (other?.(x, y)) g = other(x, y)!;
      if (thumb) {
        const t = thumb(x, y);
        if (t !== null) g = t;
      }
      out[y * W + x] = Math.max(0, Math.min(255, g));
    }
  return out;
}

/** Another sheet (bright, faintly printed) lying past one corner of the receipt, touching its edge. */
function otherSheet(W: number, H: number, corners: P[], r: Rng) {
  const corner = corners[r.int(0, 3)]!;
  const [ox, oy] = [corner[0] + (r.next() - 0.5) * 60, corner[1] + (r.next() - 0.5) * 60];
  const [dx, dy] = [ox < W / 2 ? -1 : 1, oy < H / 2 ? -1 : 1];
  const tone = 195 + r.next() * 35;
  const spacing = 9 + r.int(0, 6);
  return (x: number, y: number): number | null => {
    if ((x - ox) * dx < 0 || (y - oy) * dy < 0) return null;
    return Math.floor(y / spacing) % 2 === 0 && (x * 7) % 11 < 6 ? tone - 70 : tone;
  };
}

/** A thumb-like blob coming in from the left or right edge of the frame. */
function thumbAt(W: number, H: number, r: Rng) {
  const left = r.chance(0.5);
  const [cx, cy] = [left ? -W * 0.02 : W * 1.02, H * (0.25 + r.next() * 0.5)];
  const [rx, ry] = [W * (0.09 + r.next() * 0.06), H * (0.07 + r.next() * 0.05)];
  const tone = 150 + r.next() * 30;
  return (x: number, y: number): number | null => {
    const d = ((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2;
    return d > 1 ? null : tone * (0.8 + 0.2 * (1 - d));
  };
}

/** The hand moved while the shutter was open: each pixel the mean of a short line of pixels along one direction. */
function motionBlur(img: Grey, r: Rng): Grey {
  const length = 1 + r.next() * 2;
  const a = r.next() * Math.PI;
  const taps = Math.max(2, Math.round(length));
  const offsets = Array.from({ length: taps }, (_, i) => {
    const t = (i / (taps - 1) - 0.5) * length;
    return [t * Math.cos(a), t * Math.sin(a)] as P;
  });
  const { width: W, height: H } = img;
  const out = new Uint8Array(W * H);
  for (let y = 0; y < H; y++)
    for (let x = 0; x < W; x++) {
      let sum = 0;
      for (const [ox, oy] of offsets) {
        const u = Math.min(W - 1.001, Math.max(0, x + ox));
        const v = Math.min(H - 1.001, Math.max(0, y + oy));
        sum += bilinear(img, u, v);
      }
      out[y * W + x] = Math.round(sum / taps);
    }
  return { data: out, width: W, height: H };
}
