/**
 * A grey image as leptonica's serialized pix ("spix"), the form the embedded engine hands tesseract.js. tesseract.js
 * takes an encoded image file and has leptonica read it (pixRead) inside WebAssembly; a PGM is parsed there at
 * 60-140 ms per 300-DPI page (measured in the worker, load ~12), while a spix is the pix's own memory layout, read
 * with one copy (7-35 ms), and the words read from it are the same (TSV byte-identical on the bench's pages). The
 * layout: "spix", then little-endian 32-bit width, height, depth (8), words per line, colours (0) and raster bytes,
 * then each line as 32-bit words whose first pixel is the word's most significant byte (leptonica's order),
 * padded to whole words.
 */
import type { GreyImage } from "../../imaging/grey.ts";

const HEADER_BYTES = 28;

/** Images encoded so far in this process (a counter for tests: one encoding per image handed over). */
let encoded = 0;

export function spixEncodings(): number {
  return encoded;
}

export function encodeSpix(img: GreyImage): Uint8Array {
  const { width, height, data } = img;
  const wpl = Math.ceil(width / 4);
  const out = new Uint8Array(HEADER_BYTES + wpl * 4 * height);
  const head = new DataView(out.buffer);
  out.set([0x73, 0x70, 0x69, 0x78], 0); // "spix"
  for (const [i, v] of [width, height, 8, wpl, 0, wpl * 4 * height].entries()) head.setUint32(4 + 4 * i, v, true);
  const words = new Uint32Array(out.buffer, HEADER_BYTES);
  const full = width >> 2;
  for (let y = 0, src = 0, dst = 0; y < height; y++, src += width, dst += wpl) {
    let x = src;
    for (let k = 0; k < full; k++, x += 4)
      words[dst + k] = ((data[x]! << 24) | (data[x + 1]! << 16) | (data[x + 2]! << 8) | data[x + 3]!) >>> 0;
    if (full < wpl) {
      // The last word of a line whose width is no multiple of four: its pixels first, zero padding after.
      let last = 0;
      for (let b = 0; b < width - full * 4; b++) last |= data[x + b]! << (24 - 8 * b);
      words[dst + full] = last >>> 0;
    }
  }
  encoded++;
  return out;
}
