/** Raster helpers shared by every page kind, and the render entry point other stages use. */
import { DocprocError } from "../errors.ts";
import type { Page, RasterImage } from "../model.ts";

export interface RenderOptions {
  /** One luma channel instead of RGB: a third of the memory, what OCR wants. */
  grayscale?: boolean;
  /**
   * For reading the page (the OCR stage): a PDF page that is one scanned image may come back at the scan's own
   * resolution instead of the rasterized size when that is lower (engines/pdf/pdf-scan-image.ts), so a 200-DPI
   * bilevel scan is read as it is, not enlarged. The caller scales what it finds back into the page's space.
   */
  scan?: boolean;
  /**
   * A PDF page that is one scanned image of any kind (grey, colour, bilevel) at the image's own resolution when that
   * is lower than the rasterized size: the receipt second look reads rows at the scan's pixels
   * (stages/extract/receipt-look.ts). Other pages and image files come back as usual.
   */
  own?: boolean;
}

/**
 * Renders a page at its rasterized size (image_transform.rasterized_width × rasterized_height, the coordinate space
 * of its boxes), un-rotated. Returns RGB (3 channels) or, with `grayscale`, 1 channel; never alpha.
 * MUST be called before the ConvertedFile's close().
 */
export async function renderPageToRaster(page: Page, opts: RenderOptions = {}): Promise<RasterImage> {
  if (!page.render) throw new DocprocError("internal", `page ${page.page_number} cannot be rendered`);
  const raster = await (page.render as (o?: RenderOptions) => Promise<RasterImage>)(opts);
  return opts.grayscale ? toGrayscale(raster) : toRgb(raster);
}

/** Luma with ITU-R BT.601 weights; a 1-channel image is returned as is. */
export function toGrayscale(img: RasterImage): RasterImage {
  if (img.channels === 1) return img;
  const count = img.width * img.height;
  const out = new Uint8Array(count);
  const d = img.data;
  for (let i = 0, j = 0; i < count; i++, j += img.channels) out[i] = (d[j] * 77 + d[j + 1] * 150 + d[j + 2] * 29) >> 8;
  return { data: out, width: img.width, height: img.height, channels: 1 };
}

/** RGB without alpha; grey is expanded, alpha dropped (rasters from conversion are already opaque). */
export function toRgb(img: RasterImage): RasterImage {
  if (img.channels === 3) return img;
  const count = img.width * img.height;
  const out = new Uint8Array(count * 3);
  const d = img.data;
  for (let i = 0, j = 0, k = 0; i < count; i++, j += img.channels, k += 3) {
    out[k] = d[j];
    out[k + 1] = img.channels === 1 ? d[j] : d[j + 1];
    out[k + 2] = img.channels === 1 ? d[j] : d[j + 2];
  }
  return { data: out, width: img.width, height: img.height, channels: 3 };
}
