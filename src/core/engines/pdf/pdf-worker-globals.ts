/**
 * Pieces of the pdf.js worker (pdf-worker.ts) that need none of its state: the structuredClone shortcut it installs on
 * its own thread, the canvas → raster copy of a rendered page, and pdf.js's options for opening a document.
 */
import { dirname, join } from "node:path";
import type { SKRSContext2D } from "@napi-rs/canvas";
import type { RenderResult } from "./pdf-protocol.ts";

/**
 * pdf.js's fake worker hands every message through structuredClone to mimic postMessage. After enqueueing a
 * text-content chunk, pdf.js only re-points the chunk's `items` and `styles` at fresh objects and never touches the
 * old ones, so copying the two wrapper objects is enough: deep-cloning them was a seventh of the CPU time of text
 * extraction. Everything else (operator lists, whose arrays pdf.js does reuse) is still cloned for real.
 * A transfer list never names a SharedArrayBuffer (see below).
 * This thread runs nothing but pdf.js.
 */
export function installChunkClone(): void {
  const cloneForReal = globalThis.structuredClone;
  globalThis.structuredClone = ((value: unknown, options?: StructuredSerializeOptions) => {
    // pdf.js hands a document's bytes over by transferring their buffer; bytes in shared memory (pdf-bytes.ts) cannot
    // be transferred and need not be: the clone shares them.
    if (options?.transfer?.some((t) => t instanceof SharedArrayBuffer))
      options = { ...options, transfer: options.transfer.filter((t) => !(t instanceof SharedArrayBuffer)) };
    const envelope = value as { chunk?: { items?: unknown; styles?: unknown } } | null;
    const chunk = envelope?.chunk;
    if (
      !options?.transfer?.length &&
      chunk &&
      Array.isArray(chunk.items) &&
      chunk.styles &&
      typeof chunk.styles === "object"
    ) {
      return { ...envelope, chunk: { ...chunk } };
    }
    return cloneForReal(value, options);
  }) as typeof structuredClone;
}

/**
 * RGBA (opaque: the canvas was filled white) → RGB or luma (ITU-R BT.601 weights in integer arithmetic), read in
 * bands of rows so a 40-megapixel page does not need a second full RGBA copy (160 MB) next to the canvas.
 */
export function readPixels(ctx: SKRSContext2D, width: number, height: number, grayscale: boolean): RenderResult {
  const channels = grayscale ? 1 : 3;
  const out = new Uint8Array(width * height * channels);
  const bandRows = Math.max(1, Math.floor(4_000_000 / (width * 4)));
  for (let top = 0; top < height; top += bandRows) {
    const rows = Math.min(bandRows, height - top);
    const rgba = ctx.getImageData(0, top, width, rows).data;
    const count = width * rows;
    let k = top * width * channels;
    if (grayscale) {
      for (let i = 0, j = 0; i < count; i++, j += 4)
        out[k++] = (rgba[j] * 77 + rgba[j + 1] * 150 + rgba[j + 2] * 29) >> 8;
    } else {
      for (let i = 0, j = 0; i < count; i++, j += 4) {
        out[k++] = rgba[j];
        out[k++] = rgba[j + 1];
        out[k++] = rgba[j + 2];
      }
    }
  }
  return { width, height, channels, data: out };
}

// pdfjs-dist/{cmaps,standard_fonts,wasm}: CJK CMaps, the 14 standard fonts, and the JPX/JBIG2 decoders.
const pdfjsRoot = dirname(dirname(dirname(Bun.resolveSync("pdfjs-dist/legacy/build/pdf.mjs", import.meta.dir))));
const assetDir = (name: string) => join(pdfjsRoot, name) + "/";

/** pdf.js's options for opening a document (bytes, or a file's marker: pdf-file-source.ts). */
export function documentOptions(data: Uint8Array, password?: string) {
  return {
    data,
    password,
    // pdf.js 6 no longer compiles font code with eval (the option left its typings); kept so an older pdf.js
    // could never turn it back on.
    ...({ isEvalSupported: false } as object),
    verbosity: 0,
    stopAtErrors: false,
    useSystemFonts: false,
    disableFontFace: true,
    enableXfa: false,
    // Images above 40 MP (an A2 page scanned at 300 DPI is 35 MP) are left out of the rendering instead of being
    // decoded: a 9000 × 9000 RGB photo alone took the worker past 1.2 GB, a 35000 × 35000 scan would need several.
    maxImageSize: 40_000_000,
    cMapUrl: assetDir("cmaps"),
    cMapPacked: true,
    standardFontDataUrl: assetDir("standard_fonts"),
    wasmUrl: assetDir("wasm"),
  };
}
