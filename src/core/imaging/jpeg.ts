/** Encoding a page raster (raw pixels from Page.render()) with sharp. */
import sharp from "sharp";
import { DocprocError } from "../errors";
import type { RasterImage } from "../model";

export interface JpegOptions {
  quality: number;
  /** Clockwise quarter turn to apply (0, 90, 180, 270). */
  rotate?: number;
  /** Longest side after rotation; the image is only ever shrunk. */
  maxSide?: number;
  /** Factor in (0, 1]; wins over maxSide. */
  scale?: number | null;
}

export async function rasterToJpeg(
  raster: RasterImage,
  opts: JpegOptions,
): Promise<{ data: Uint8Array; width: number; height: number }> {
  const { width, height, channels } = raster;
  if (!(width > 0 && height > 0) || raster.data.byteLength < width * height * channels) {
    throw new DocprocError(
      "export_failed",
      `page raster is malformed (${width}x${height}x${channels}, ${raster.data.byteLength} bytes)`,
      { stage: "export" },
    );
  }
  let img = sharp(raster.data, { raw: { width, height, channels }, limitInputPixels: 200_000_000 });
  if (opts.rotate) img = img.rotate(opts.rotate);
  const turned = opts.rotate === 90 || opts.rotate === 270;
  const [w, h] = turned ? [height, width] : [width, height];
  const factor = opts.scale ? opts.scale : opts.maxSide ? Math.min(1, opts.maxSide / Math.max(w, h)) : 1;
  if (factor < 1)
    img = img.resize(Math.max(1, Math.round(w * factor)), Math.max(1, Math.round(h * factor)), { fit: "fill" });
  if (channels === 4) img = img.flatten({ background: "#ffffff" });
  const { data, info } = await img
    .jpeg({ quality: opts.quality, mozjpeg: false })
    .toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
    width: info.width,
    height: info.height,
  };
}
