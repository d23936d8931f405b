/**
 * Image conversion with sharp (BMP through our own decoder). Each image (each TIFF page) is one page; the EXIF
 * orientation is applied, so the page is the image as a viewer shows it and rotation stays 0.
 * Pixels are counted from the header and refused as `too_large` before anything is decoded.
 */
import type { Metadata, Sharp } from "sharp";
import { DocprocError } from "../errors.ts";
import type { ConvertedFile, Page, RasterImage, SourceInput } from "../model.ts";
import { checkBmpComplete, decodeBmp, readBmpHeader } from "./bmp.ts";
import { boundedScale, checkPageCount, makeTransform, type ConvertLimits } from "../convert-limits.ts";
import type { RenderOptions } from "../imaging/render.ts";
import { CONTENT_TYPES, type SniffedFormat } from "./sniff.ts";
import { readTiffPages } from "./tiff.ts";
import { toGrey } from "../imaging/grey.ts";
import { wholeBytes } from "../source-data.ts";

type SharpFactory = typeof import("sharp")["default"];
let sharpModule: Promise<SharpFactory> | undefined;
/** sharp (libvips, and some 60 modules with semver) is loaded at the first image: PDF-only runs never need it. */
function loadSharp(): Promise<SharpFactory> {
  sharpModule ??= import("sharp").then((m) => m.default);
  return sharpModule;
}

export interface ImageConvertOptions {
  firstPageNumber: number;
  maxPages: number | null;
  limits: ConvertLimits;
}

type ImageFormat = Exclude<SniffedFormat, "pdf" | "unknown">;

/** Where a page's pixels come from: encoded bytes for sharp (with a page index), or decoded BMP RGB. */
type PixelSource = { kind: "sharp"; data: Uint8Array; page: number } | { kind: "bmp"; data: Uint8Array };

export async function convertImage(
  src: SourceInput,
  format: ImageFormat,
  opts: ImageConvertOptions,
): Promise<ConvertedFile> {
  const warnings: string[] = [];
  const limit = opts.maxPages === null ? Number.MAX_SAFE_INTEGER : Math.max(0, opts.maxPages);
  const data = wholeBytes(src.data); // an image is never left in its file (readSourceFile)
  const { pageCount, sizes } =
    format === "bmp" ? bmpSizes(data, opts.limits) : await sharpSizes(data, format, limit, opts.limits, warnings);
  const wanted = Math.min(sizes.length, limit);
  // The first page is decoded now, so a broken image fails here as this file's error; that decoding is kept as the
  // grey render OCR asks for next, instead of decoding the image a second time.
  let firstGrey = await verifyDecodes(sizes[0], wanted > 0, opts.limits);
  const pages: Page[] = [];
  for (let i = 0; i < wanted; i++) {
    const { width, height, source } = sizes[i];
    const fileIndex = source.kind === "sharp" ? source.page : i;
    const scale = boundedScale(width, height, 1, opts.limits);
    if (scale < 1)
      warnings.push(
        `page ${i + 1}: ${width} × ${height} px image is downscaled by ${scale.toFixed(3)} to stay within the raster limits`,
      );
    const transform = makeTransform({ width, height }, "pixel", scale, null);
    pages.push({
      page_number: opts.firstPageNumber + i,
      source_file_index: src.index,
      source_filename: src.filename,
      source_file_page_number: fileIndex + 1,
      image_transform: transform,
      text_source: "none",
      words: [],
      text: "",
      ocr_confidence: null,
      render: (renderOpts?: RenderOptions) => {
        if (i === 0 && firstGrey && renderOpts?.grayscale) {
          const kept = firstGrey;
          firstGrey = null;
          return Promise.resolve(kept);
        }
        return renderPixels(
          source,
          transform.rasterized_width,
          transform.rasterized_height,
          renderOpts?.grayscale ?? false,
          opts.limits,
        );
      },
    });
  }
  return {
    source_file_index: src.index,
    filename: src.filename,
    content_type: CONTENT_TYPES[format],
    page_count: pageCount,
    pages,
    warnings,
  };
}

interface PageSize {
  width: number;
  height: number;
  source: PixelSource;
}

function checkPixels(width: number, height: number, limits: ConvertLimits): void {
  if (width * height > limits.maxInputPixels) {
    throw new DocprocError(
      "too_large",
      `image of ${width} × ${height} pixels exceeds the limit of ${Math.round(limits.maxInputPixels / 1e6)} megapixels`,
      {
        details: { width, height, max_pixels: limits.maxInputPixels },
      },
    );
  }
}

function bmpSizes(data: Uint8Array, limits: ConvertLimits): Sizes {
  const header = readBmpHeader(data);
  checkPixels(header.width, header.height, limits);
  checkBmpComplete(data, header);
  return { pageCount: 1, sizes: [{ width: header.width, height: header.height, source: { kind: "bmp", data } }] };
}

async function sharpSizes(
  data: Uint8Array,
  format: ImageFormat,
  wanted: number,
  limits: ConvertLimits,
  warnings: string[],
): Promise<Sizes> {
  const first = await readMetadata(data, 0, limits);
  if (format !== "tiff") {
    // GIF/WebP frames are animation, so only the first frame counts.
    const sizes = [
      { width: first.width, height: first.height, source: { kind: "sharp", data, page: 0 } as PixelSource },
    ];
    return { pageCount: 1, sizes };
  }
  // TIFF pages are document pages: counted and sized from the IFD chain in one pass (see tiff.ts), only the
  // pages that will be converted are looked at, and an over-long file is refused before any of them is.
  const chain = readTiffPages(data, Math.min(wanted, limits.maxFilePages + 1), limits.maxTiffDirectories);
  if (chain?.overCap) {
    throw new DocprocError("too_large", `the TIFF has more than ${limits.maxTiffDirectories} pages`, {
      details: { max_pages: limits.maxTiffDirectories },
    });
  }
  const pageCount = chain?.pageCount ?? Math.max(1, first.pages ?? 1);
  checkPageCount(Math.min(wanted, pageCount), pageCount, limits);
  const sizes: PageSize[] = [];
  if (chain) {
    let expected = 0;
    for (const page of chain.pages) {
      for (; expected < page.index; expected++)
        warnings.push(`page ${expected + 1}: the TIFF directory has no image size; it is skipped`);
      expected = page.index + 1;
      checkPixels(page.width, page.height, limits);
      const swap = page.orientation >= 5; // 5-8 turn the image by 90°
      sizes.push({
        width: swap ? page.height : page.width,
        height: swap ? page.width : page.height,
        source: { kind: "sharp", data, page: page.index },
      });
    }
  } else {
    sizes.push({ width: first.width, height: first.height, source: { kind: "sharp", data, page: 0 } });
  }
  return { pageCount, sizes };
}

interface Sizes {
  pageCount: number;
  /** The pages to convert (at most `wanted`), each with its size after orientation. */
  sizes: PageSize[];
}

interface ImageMeta {
  width: number;
  height: number;
  pages?: number;
}

/** Header only: size after EXIF orientation. Refuses absurd sizes before any decoding. */
async function readMetadata(data: Uint8Array, page: number, limits: ConvertLimits): Promise<ImageMeta> {
  let meta: Metadata;
  const sharp = await loadSharp();
  try {
    meta = await sharp(data, { page, limitInputPixels: false }).metadata();
  } catch (err) {
    throw new DocprocError("corrupt_file", `the image could not be read: ${(err as Error).message}`, { cause: err });
  }
  if (!meta.width || !meta.height) throw new DocprocError("corrupt_file", "the image header has no size");
  checkPixels(meta.width, meta.height, limits);
  const swap = (meta.orientation ?? 1) >= 5; // EXIF 5-8 turn the image by 90°
  return { width: swap ? meta.height : meta.width, height: swap ? meta.width : meta.height, pages: meta.pages };
}

/**
 * A truncated or broken image should fail now, as this file's error, not later in the OCR stage. When the page will
 * be converted, the check is its grey render at its raster size (returned, for OCR to use); else a thumbnail.
 */
async function verifyDecodes(
  size: PageSize | undefined,
  render: boolean,
  limits: ConvertLimits,
): Promise<RasterImage | null> {
  if (!size || size.source.kind !== "sharp") return null;
  const sharp = await loadSharp();
  try {
    if (render) {
      const scale = boundedScale(size.width, size.height, 1, limits);
      const t = makeTransform({ width: size.width, height: size.height }, "pixel", scale, null);
      return await renderPixels(size.source, t.rasterized_width, t.rasterized_height, true, limits);
    }
    await sharp(size.source.data, {
      page: size.source.page,
      limitInputPixels: limits.maxInputPixels,
      failOn: "truncated",
    })
      .resize(64, 64, { fit: "inside" })
      .raw()
      .toBuffer();
    return null;
  } catch (err) {
    if (err instanceof DocprocError) throw err;
    throw new DocprocError("corrupt_file", `the image could not be decoded: ${(err as Error).message}`, { cause: err });
  }
}

async function renderPixels(
  source: PixelSource,
  width: number,
  height: number,
  grayscale: boolean,
  limits: ConvertLimits,
): Promise<RasterImage> {
  let image: Sharp;
  const sharp = await loadSharp();
  let size: { width: number; height: number };
  let grey = false;
  if (source.kind === "sharp") {
    image = sharp(source.data, {
      page: source.page,
      limitInputPixels: limits.maxInputPixels,
      failOn: "truncated",
    }).autoOrient();
    const meta = await image.metadata();
    size =
      (meta.orientation ?? 1) >= 5
        ? { width: meta.height!, height: meta.width! }
        : { width: meta.width!, height: meta.height! };
    grey = meta.channels !== undefined && meta.channels <= 2 && meta.space === "b-w";
  } else {
    const bmp = decodeBmp(source.data); // decoded on demand: a BMP is uncompressed and can be large
    image = sharp(bmp.data, {
      raw: { width: bmp.width, height: bmp.height, channels: 3 },
      limitInputPixels: limits.maxInputPixels,
    });
    size = { width: bmp.width, height: bmp.height };
  }
  // A page at the image's own size (the rule, unless the raster limits shrink it) needs no resampling pass.
  if (size.width !== width || size.height !== height) image = image.resize(width, height, { fit: "fill" });
  image = image.flatten({ background: "#ffffff" });
  // Grey asked of a grey scan: its one channel as it is, not expanded to RGB and averaged back.
  const oneChannel = grayscale && grey;
  image = oneChannel ? image.toColourspace("b-w") : image.toColourspace("srgb").removeAlpha();
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  const channels = oneChannel ? 1 : 3;
  if (
    info.channels !== channels ||
    info.width !== width ||
    info.height !== height ||
    data.length !== width * height * channels
  ) {
    throw new DocprocError("internal", `image render produced ${info.width} × ${info.height} × ${info.channels}`);
  }
  const raster: RasterImage = {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width,
    height,
    channels,
  };
  // A colour image asked for grey: luma with the OCR's weights (imaging/grey.ts), so its reading is the same
  // as from the RGB render.
  return grayscale && !oneChannel ? { ...toGrey(raster), channels: 1 } : raster;
}
