/**
 * A small BMP decoder (sharp/libvips cannot read BMP). Supports uncompressed 1/4/8-bit palette images, 16/24/32-bit
 * true colour (BI_RGB and BI_BITFIELDS), bottom-up and top-down rows, OS/2 core headers. RLE and embedded
 * JPEG/PNG compression are refused as `unsupported_format`.
 */
import { DocprocError } from "../errors.ts";

export interface BmpHeader {
  width: number;
  height: number;
  bitsPerPixel: number;
  topDown: boolean;
  compression: number;
  pixelOffset: number;
  headerSize: number;
  paletteSize: number;
  masks: [number, number, number] | null;
}

const BI_RGB = 0,
  BI_BITFIELDS = 3,
  BI_ALPHABITFIELDS = 6;

function corrupt(message: string): DocprocError {
  return new DocprocError("corrupt_file", `BMP: ${message}`);
}

export function readBmpHeader(data: Uint8Array): BmpHeader {
  if (data.length < 26) throw corrupt("file too short for a header");
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const pixelOffset = view.getUint32(10, true);
  const headerSize = view.getUint32(14, true);
  let width: number,
    height: number,
    bitsPerPixel: number,
    compression = BI_RGB,
    colorsUsed = 0;
  if (headerSize === 12) {
    width = view.getUint16(18, true);
    height = view.getInt16(20, true);
    bitsPerPixel = view.getUint16(24, true);
  } else if (headerSize >= 40 && data.length >= 14 + 40) {
    width = view.getInt32(18, true);
    height = view.getInt32(22, true);
    bitsPerPixel = view.getUint16(28, true);
    compression = view.getUint32(30, true);
    colorsUsed = view.getUint32(46, true);
  } else throw corrupt(`unknown header size ${headerSize}`);
  if (width <= 0 || height === 0) throw corrupt(`invalid size ${width} × ${height}`);
  if (![1, 4, 8, 16, 24, 32].includes(bitsPerPixel)) throw corrupt(`unsupported bit depth ${bitsPerPixel}`);
  const bitfields = compression === BI_BITFIELDS || compression === BI_ALPHABITFIELDS;
  if (compression !== BI_RGB && !bitfields) {
    throw new DocprocError(
      "unsupported_format",
      `BMP compression ${compression} (RLE/JPEG/PNG) is not supported; convert the file to PNG`,
    );
  }
  let masks: [number, number, number] | null = null;
  if (bitfields) {
    // Masks follow a 40-byte header, or live inside V4/V5 headers at the same offset.
    if (data.length < 14 + 40 + 12) throw corrupt("bit masks missing");
    masks = [view.getUint32(54, true), view.getUint32(58, true), view.getUint32(62, true)];
  } else if (bitsPerPixel === 16) masks = [0x7c00, 0x03e0, 0x001f];
  else if (bitsPerPixel === 32) masks = [0xff0000, 0x00ff00, 0x0000ff];
  const paletteSize = bitsPerPixel <= 8 ? colorsUsed || 1 << bitsPerPixel : 0;
  return {
    width,
    height: Math.abs(height),
    bitsPerPixel,
    topDown: height < 0,
    compression,
    pixelOffset,
    headerSize,
    paletteSize,
    masks,
  };
}

/** Throws `corrupt_file` when the pixel rows the header announces are not all in the file. */
export function checkBmpComplete(data: Uint8Array, header: BmpHeader): void {
  const rowBytes = Math.ceil((header.width * header.bitsPerPixel) / 32) * 4;
  if (header.pixelOffset + rowBytes * header.height > data.length) throw corrupt("pixel data is truncated");
}

/** Decodes to packed RGB. Call readBmpHeader first to check the dimensions against the pixel limit. */
export function decodeBmp(
  data: Uint8Array,
  header = readBmpHeader(data),
): { width: number; height: number; data: Uint8Array } {
  const { width, height, bitsPerPixel, topDown, pixelOffset } = header;
  const rowBytes = Math.ceil((width * bitsPerPixel) / 32) * 4;
  checkBmpComplete(data, header);
  const palette = readPalette(data, header);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const out = new Uint8Array(width * height * 3);
  const channel = header.masks ? header.masks.map(maskShape) : null;
  for (let row = 0; row < height; row++) {
    const src = pixelOffset + (topDown ? row : height - 1 - row) * rowBytes;
    let o = row * width * 3;
    for (let x = 0; x < width; x++, o += 3) {
      if (bitsPerPixel <= 8) {
        const bit = x * bitsPerPixel;
        const byte = data[src + (bit >> 3)];
        const index = (byte >> (8 - bitsPerPixel - (bit & 7))) & ((1 << bitsPerPixel) - 1);
        const p = (index < header.paletteSize ? index : 0) * 3;
        out[o] = palette[p];
        out[o + 1] = palette[p + 1];
        out[o + 2] = palette[p + 2];
      } else if (bitsPerPixel === 24) {
        const p = src + x * 3;
        out[o] = data[p + 2];
        out[o + 1] = data[p + 1];
        out[o + 2] = data[p];
      } else {
        const value = bitsPerPixel === 16 ? view.getUint16(src + x * 2, true) : view.getUint32(src + x * 4, true);
        for (let c = 0; c < 3; c++) out[o + c] = channel![c](value);
      }
    }
  }
  return { width, height, data: out };
}

/** Palette as packed RGB (BMP stores BGR + reserved, or BGR for core headers). */
function readPalette(data: Uint8Array, header: BmpHeader): Uint8Array {
  const palette = new Uint8Array(Math.max(1, header.paletteSize) * 3);
  const entry = header.headerSize === 12 ? 3 : 4;
  const start = 14 + header.headerSize + (header.compression === BI_BITFIELDS && header.headerSize === 40 ? 12 : 0);
  for (let i = 0; i < header.paletteSize; i++) {
    const p = start + i * entry;
    if (p + 2 >= data.length) throw corrupt("palette is truncated");
    palette[i * 3] = data[p + 2];
    palette[i * 3 + 1] = data[p + 1];
    palette[i * 3 + 2] = data[p];
  }
  return palette;
}

/** value → 0..255 for one colour mask. */
function maskShape(mask: number): (value: number) => number {
  if (mask === 0) return () => 0;
  let shift = 0;
  while (((mask >>> shift) & 1) === 0) shift++;
  const max = mask >>> shift;
  return (value) => Math.round((((value & mask) >>> shift) * 255) / max);
}
