/** Image conversion: formats by content, EXIF orientation, multi-page TIFF, BMP variants, raster sizes. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import sharp, { type Sharp } from "sharp";
import { DocprocError } from "../../../src/core/errors.ts";
import { convertSource, renderPageToRaster } from "../../../src/core/stages/convert/index.ts";

setDefaultTimeout(30_000); // sharp and canvas work: seconds on a loaded machine

const convert = (data: Uint8Array, filename = "image", maxPages: number | null = null) =>
  convertSource({ index: 2, filename, data, split_policy: "inherit" }, { firstPageNumber: 3, maxPages });

/** 200 × 100, white with a black square in the top-left corner: shows where "up" and "left" ended up. */
function marked(): Sharp {
  const square = {
    input: { create: { width: 40, height: 40, channels: 3 as const, background: "#000" } },
    left: 0,
    top: 0,
  };
  return sharp({ create: { width: 200, height: 100, channels: 3, background: "#fff" } }).composite([square]);
}

const bytes = async (s: Sharp) => new Uint8Array(await s.toBuffer());

describe("image formats", () => {
  for (const [format, make] of [
    ["png", () => marked().png()],
    ["jpeg", () => marked().jpeg()],
    ["webp", () => marked().webp({ lossless: true })],
    ["gif", () => marked().gif()],
    ["tiff", () => marked().tiff()],
  ] as const) {
    test(`${format}: one page, pixel geometry, render_scale 1, effective_dpi null, content type from the bytes`, async () => {
      // A misleading name on purpose: detection MUST go by content.
      const file = await convert(await bytes(make()), "scan.pdf");
      expect(file.content_type).toBe(`image/${format}`);
      expect(file.page_count).toBe(1);
      const [page] = file.pages;
      expect(page).toMatchObject({
        page_number: 3,
        source_file_index: 2,
        source_file_page_number: 1,
        text_source: "none",
        words: [],
        ocr_confidence: null,
      });
      expect(page.image_transform).toEqual({
        rasterized_width: 200,
        rasterized_height: 100,
        source_width: 200,
        source_height: 100,
        source_unit: "pixel",
        render_scale: 1,
        effective_dpi: null,
        coordinate_system: "top-left-origin",
        rotation: 0,
      });
      const raster = await renderPageToRaster(page, { grayscale: true });
      expect([raster.width, raster.height, raster.channels]).toEqual([200, 100, 1]);
      expect(raster.data[10 * 200 + 10]).toBeLessThan(60); // the black corner
      expect(raster.data[90 * 200 + 190]).toBeGreaterThan(200);
    });
  }

  test("a JPEG with EXIF orientation 6 becomes the upright (turned) image and rotation stays 0", async () => {
    const file = await convert(await bytes(marked().jpeg().withMetadata({ orientation: 6 })));
    const [page] = file.pages;
    expect([page.image_transform.rasterized_width, page.image_transform.rasterized_height]).toEqual([100, 200]);
    expect([page.image_transform.source_width, page.image_transform.source_height]).toEqual([100, 200]);
    expect(page.image_transform.rotation).toBe(0);
    const raster = await renderPageToRaster(page, { grayscale: true });
    expect([raster.width, raster.height]).toEqual([100, 200]);
    // Orientation 6 = turn 90° clockwise to view: the top-left square moves to the top-right.
    expect(raster.data[10 * 100 + 90]).toBeLessThan(60);
    expect(raster.data[10 * 100 + 10]).toBeGreaterThan(200);
  });

  test("a multi-page TIFF gives one page per TIFF page, in order, and page_limit keeps the real count", async () => {
    const colours = ["#ffffff", "#ff0000", "#0000ff"];
    const frames = await Promise.all(
      colours.map((c) =>
        sharp({ create: { width: 120, height: 80, channels: 3, background: c } })
          .png()
          .toBuffer(),
      ),
    );
    const tiff = new Uint8Array(
      await sharp(frames, { join: { animated: true } })
        .tiff()
        .toBuffer(),
    );
    const file = await convert(tiff);
    expect(file.page_count).toBe(3);
    expect(file.pages.map((p) => [p.page_number, p.source_file_page_number])).toEqual([
      [3, 1],
      [4, 2],
      [5, 3],
    ]);
    const near = (actual: Uint8Array, expected: number[]) =>
      expected.forEach((v, i) => expect(Math.abs(actual[i] - v)).toBeLessThanOrEqual(2));
    near((await renderPageToRaster(file.pages[1])).data, [255, 0, 0]);
    near((await renderPageToRaster(file.pages[2])).data, [0, 0, 255]);
    const limited = await convert(tiff, "scan.tif", 1);
    expect([limited.page_count, limited.pages.length]).toEqual([3, 1]);
  });

  test("an image larger than the raster budget is downscaled, with original = rasterized / render_scale", async () => {
    const big = await bytes(sharp({ create: { width: 12_000, height: 600, channels: 3, background: "#fff" } }).png());
    const file = await convert(big);
    const t = file.pages[0].image_transform;
    expect(t.rasterized_width).toBe(10_000);
    expect(t.render_scale).toBeCloseTo(10_000 / 12_000, 6);
    expect(t.rasterized_height / t.render_scale).toBeCloseTo(600, 0);
    expect(file.warnings.join()).toContain("downscaled");
  });
});

describe("BMP", () => {
  for (const variant of [
    "24-bit bottom-up",
    "24-bit top-down",
    "8-bit palette",
    "4-bit palette",
    "1-bit",
    "32-bit bitfields",
    "16-bit 555",
  ] as const) {
    test(`decodes a ${variant} BMP with its pixels in the right places`, async () => {
      const file = await convert(makeBmp(variant), "scan.bmp");
      expect(file.content_type).toBe("image/bmp");
      const raster = await renderPageToRaster(file.pages[0]);
      expect([raster.width, raster.height, raster.channels]).toEqual([9, 5, 3]);
      const at = (x: number, y: number) => Array.from(raster.data.subarray((y * 9 + x) * 3, (y * 9 + x) * 3 + 3));
      expect(at(0, 0)).toEqual([0, 0, 0]); // black top-left pixel
      expect(at(8, 4)).toEqual([255, 255, 255]);
      if (!["1-bit"].includes(variant)) expect(at(8, 0)[0]).toBeGreaterThan(240); // red top-right pixel
      if (!["1-bit"].includes(variant)) expect(at(8, 0)[2]).toBeLessThan(10);
    });
  }

  test("refuses RLE-compressed BMPs as unsupported and truncated ones as corrupt", async () => {
    const rle = makeBmp("8-bit palette");
    new DataView(rle.buffer).setUint32(30, 1, true); // BI_RLE8
    expect(((await convert(rle).catch((e) => e)) as DocprocError).code).toBe("unsupported_format");
    const truncated = makeBmp("24-bit bottom-up").subarray(0, 80);
    expect(((await convert(truncated).catch((e) => e)) as DocprocError).code).toBe("corrupt_file");
  });
});

/** A 9 × 5 BMP: white, top-left pixel black, top-right pixel red (black in the 1-bit variant). */
function makeBmp(variant: string): Uint8Array {
  const width = 9,
    height = 5;
  const bpp = {
    "24-bit bottom-up": 24,
    "24-bit top-down": 24,
    "8-bit palette": 8,
    "4-bit palette": 4,
    "1-bit": 1,
    "32-bit bitfields": 32,
    "16-bit 555": 16,
  }[variant]!;
  const bitfields = variant === "32-bit bitfields";
  const palette =
    bpp <= 8
      ? [
          [255, 255, 255],
          [0, 0, 0],
          [255, 0, 0],
        ].slice(0, bpp === 1 ? 2 : 3)
      : [];
  const colour = (x: number, y: number) =>
    x === 0 && y === 0 ? 1 : x === width - 1 && y === 0 ? (bpp === 1 ? 1 : 2) : 0; // palette index
  const rgbOf = (i: number) =>
    [
      [255, 255, 255],
      [0, 0, 0],
      [255, 0, 0],
    ][i];
  const rowBytes = Math.ceil((width * bpp) / 32) * 4;
  const headerEnd = 14 + 40 + (bitfields ? 12 : 0) + palette.length * 4;
  const out = new Uint8Array(headerEnd + rowBytes * height);
  const view = new DataView(out.buffer);
  out.set([0x42, 0x4d]);
  view.setUint32(2, out.length, true);
  view.setUint32(10, headerEnd, true);
  view.setUint32(14, 40, true);
  view.setInt32(18, width, true);
  view.setInt32(22, variant === "24-bit top-down" ? -height : height, true);
  view.setUint16(26, 1, true);
  view.setUint16(28, bpp, true);
  view.setUint32(30, bitfields ? 3 : 0, true);
  view.setUint32(46, palette.length, true);
  if (bitfields) [0x00ff0000, 0x0000ff00, 0x000000ff].forEach((m, i) => view.setUint32(54 + i * 4, m, true));
  palette.forEach(([r, g, b], i) => out.set([b, g, r, 0], 14 + 40 + i * 4));
  for (let y = 0; y < height; y++) {
    const row = headerEnd + (variant === "24-bit top-down" ? y : height - 1 - y) * rowBytes;
    for (let x = 0; x < width; x++) {
      const index = colour(x, y);
      const [r, g, b] = rgbOf(index);
      if (bpp === 24) out.set([b, g, r], row + x * 3);
      else if (bpp === 32) view.setUint32(row + x * 4, (r << 16) | (g << 8) | b, true);
      else if (bpp === 16) view.setUint16(row + x * 2, ((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3), true);
      else {
        const bit = x * bpp;
        out[row + (bit >> 3)] |= index << (8 - bpp - (bit & 7));
      }
    }
  }
  return out;
}
