/**
 * Deterministic "scans" of text PDFs for the accuracy gate: every page rendered by docproc's own pdf.js path
 * (embedded fonts, pdf.js's bundled standard fonts, never the system's: see src/core/engines/pdf/pdf-worker.ts), then
 * degraded like an office scanner would: greyscale, the chosen resolution (200 or 300 DPI), a small skew or a
 * quarter/half turn, lower contrast with grain, and JPEG compression; written as an image-only PDF (no text layer,
 * no attachment), as a scanner's PDF output is.
 *
 * Deterministic: the noise comes from a seeded mulberry32 (fixtures/varied/generator/random.ts), the seed from the
 * file name and the variant; pdf-lib writes fixed dates. The result is cached under the OS temp folder, keyed by a
 * hash of the source bytes, the variant and the versions of the renderer and image library, so a second run (or
 * another test file) reuses it; nothing generated is committed.
 */
import { createHash } from "node:crypto";
import { mkdirSync, renameSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import sharp from "sharp";
import { convertSource } from "../../src/core/stages/convert";
import { Rng } from "../../fixtures/varied/generator/random";

export interface ScanVariant {
  /** Scanner resolution of the result. */
  dpi: 200 | 300;
  /** Skew in degrees (small, e.g. ±1.5) or a quarter/half turn (90, 180, 270). */
  angle: number;
  /** JPEG quality (lower: more block noise). */
  quality: number;
}

/** Bump when the degradation below changes, so cached scans are made anew. */
const RECIPE = 1;
const VERSIONS = [RECIPE, requireVersion("pdfjs-dist"), requireVersion("sharp"), requireVersion("pdf-lib")].join("/");

function requireVersion(pkg: string): string {
  return (require(path.resolve(import.meta.dir, `../../node_modules/${pkg}/package.json`)) as { version: string })
    .version;
}

export const CACHE_DIR = path.join(os.tmpdir(), "docproc-accuracy-cache");

/** A seed from a name (FNV-1a): the same file and variant always get the same noise. */
export function seedOf(name: string): number {
  let h = 0x811c9dc5;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 0x01000193) >>> 0;
  return h;
}

/** A skew in ±`max` degrees, seeded by the name (never 0: a real scan is never perfectly straight). */
export function skewOf(name: string, max = 1.5): number {
  const r = new Rng(seedOf(`skew:${name}`)).next();
  const a = (r * 2 - 1) * max;
  return Math.round((Math.abs(a) < 0.2 ? Math.sign(a || 1) * 0.2 : a) * 100) / 100;
}

/** The scan of `pdf` (bytes) in `variant`, as image-only PDF bytes; made once, then read from the cache. */
export function scanOf(pdf: Uint8Array, name: string, variant: ScanVariant): Promise<string> {
  return cachedImage(pdf, name, variant, "pdf", () => renderScan(pdf, name, variant));
}

/** The scan of an image file (its resolution from its metadata, else 300 DPI) in `variant`, as JPEG bytes. */
export function imageScanOf(image: Uint8Array, name: string, variant: ScanVariant): Promise<string> {
  return cachedImage(image, name, variant, "jpg", async () => {
    const { data, info } = await sharp(image)
      .removeAlpha()
      .toColourspace("b-w")
      .raw()
      .toBuffer({ resolveWithObject: true });
    const dpi = (await sharp(image).metadata()).density ?? 300;
    const raster = {
      data: new Uint8Array(data.buffer, data.byteOffset, data.length),
      width: info.width,
      height: info.height,
      channels: info.channels,
    };
    return (await degrade(raster, dpi, variant, new Rng(seedOf(`${name}:${JSON.stringify(variant)}`)))).data;
  });
}

/** `make()`'s bytes for this source, name and variant, from the cache when made before (photos.ts uses it too). */
export async function cachedImage(
  source: Uint8Array,
  name: string,
  variant: unknown,
  ext: string,
  make: () => Promise<Uint8Array>,
): Promise<string> {
  const key = createHash("sha256")
    .update(source)
    .update(JSON.stringify({ name, variant, VERSIONS }))
    .digest("hex")
    .slice(0, 24);
  const file = path.join(CACHE_DIR, "scans", `${key}.${ext}`);
  if (await Bun.file(file).exists()) return file;
  const bytes = await make();
  mkdirSync(path.dirname(file), { recursive: true });
  // Written aside and renamed: a parallel test file never reads half a scan.
  const tmp = `${file}.${process.pid}.tmp`;
  await Bun.write(tmp, bytes);
  renameSync(tmp, file);
  return file;
}

/** The scan of `pdf` made now (no cache). */
export async function renderScan(pdf: Uint8Array, name: string, variant: ScanVariant): Promise<Uint8Array> {
  const converted = await convertSource(
    { index: 0, filename: name, data: pdf, split_policy: "inherit" },
    { firstPageNumber: 1, maxPages: null },
  );
  const out = await PDFDocument.create();
  out.setCreationDate(new Date(Date.UTC(2024, 0, 1)));
  out.setModificationDate(new Date(Date.UTC(2024, 0, 1)));
  out.setProducer("docproc accuracy gate");
  out.setCreator("docproc accuracy gate");
  try {
    for (const [i, page] of converted.pages.entries()) {
      const t = page.image_transform;
      // Pages render at 300 DPI unless a limit shrank them: the degradation scales from what was rendered.
      const renderedDpi = t.effective_dpi ?? 72 * t.render_scale;
      const jpeg = await degrade(
        await page.render!(),
        renderedDpi,
        variant,
        new Rng(seedOf(`${name}:${i}:${JSON.stringify(variant)}`)),
      );
      const img = await out.embedJpg(jpeg.data);
      const [w, h] = [(jpeg.width * 72) / variant.dpi, (jpeg.height * 72) / variant.dpi];
      out.addPage([w, h]).drawImage(img, { x: 0, y: 0, width: w, height: h });
    }
  } finally {
    await converted.close();
  }
  return out.save({ useObjectStreams: false });
}

interface Raster {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

/** One page: grey at the variant's DPI, turned, grain and lower contrast, JPEG. */
async function degrade(
  raster: Raster,
  sourceDpi: number,
  variant: ScanVariant,
  r: Rng,
): Promise<{ data: Uint8Array; width: number; height: number }> {
  const scale = variant.dpi / sourceDpi;
  const [width, height] = [Math.round(raster.width * scale), Math.round(raster.height * scale)];
  let img = sharp(raster.data, {
    raw: { width: raster.width, height: raster.height, channels: raster.channels as 1 | 2 | 3 | 4 },
    limitInputPixels: 80_000_000,
  })
    .removeAlpha()
    .resize(width, height, { kernel: "lanczos3" })
    .toColourspace("b-w");
  const quarter = variant.angle % 90 === 0;
  const small = await img.raw().toBuffer({ resolveWithObject: true });
  img = sharp(small.data, { raw: { width, height, channels: small.info.channels } });
  img = quarter ? img.rotate(variant.angle) : img.rotate(variant.angle, { background: { r: 250, g: 250, b: 250 } });
  const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
  const grey = new Uint8Array(info.width * info.height);
  for (let i = 0; i < grey.length; i++) {
    // Paper is never white, ink never black; grain on both; a dust speck now and then.
    let g = data[i * info.channels]! * 0.82 + 28 + (r.next() - 0.5) * 36;
    if (r.next() < 0.0005) g = 60;
    grey[i] = Math.max(0, Math.min(255, Math.round(g)));
  }
  const jpeg = await sharp(grey, { raw: { width: info.width, height: info.height, channels: 1 } })
    .toColourspace("b-w")
    .jpeg({ quality: variant.quality, mozjpeg: false })
    .toBuffer();
  return { data: new Uint8Array(jpeg), width: info.width, height: info.height };
}
