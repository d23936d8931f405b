/**
 * Loads pdf.js's worker code with a small instrumentation: every text item also carries the start and end offset
 * of each of its glyphs (`glyphs: [unicode, start, end, ...]`, in the same units as the item's `width`).
 *
 * Why: `getTextContent()` reports one advance width per text run (often a whole line). Per-word boxes need the
 * glyph positions pdf.js computes anyway but throws away; re-deriving them (operator list + font programs) would
 * double the cost of born-digital conversion. Three anchors in pdf.worker.mjs are patched; if any is missing (a
 * pdf.js upgrade), the stock worker is used and words are placed by estimated character widths instead.
 */
import { createHash } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync, existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const PATCHES: Array<[anchor: string, replacement: string]> = [
  [
    "textChunk.str.push(glyphUnicode);",
    "textChunk.str.push(glyphUnicode);" +
      " if (!textChunk.vertical) (textChunk.glyphs ||= []).push(glyphUnicode," +
      " textChunk.totalWidth + (textChunk.width - scaledDim) * textChunk.textAdvanceScale," +
      " textChunk.totalWidth + textChunk.width * textChunk.textAdvanceScale);",
  ],
  ["hasEOL: textChunk.hasEOL\n", "hasEOL: textChunk.hasEOL,\n        glyphs: textChunk.glyphs || null\n"],
  ["textContentItem.str.length = 0;", "textContentItem.str.length = 0; textContentItem.glyphs = null;"],
];

export interface WorkerModule {
  WorkerMessageHandler: unknown;
  /** True when text items carry glyph offsets. */
  glyphOffsets: boolean;
}

export async function loadPdfjsWorkerModule(): Promise<WorkerModule> {
  const path = Bun.resolveSync("pdfjs-dist/legacy/build/pdf.worker.mjs", import.meta.dir);
  const source = readFileSync(path, "utf8");
  let patched = source;
  for (const [anchor, replacement] of PATCHES) {
    if (patched.split(anchor).length !== 2) return { ...(await import(path)), glyphOffsets: false };
    patched = patched.replace(anchor, replacement);
  }
  const digest = createHash("sha256").update(patched).digest("hex").slice(0, 16);
  const dir = join(tmpdir(), "docproc-pdfjs");
  const file = join(dir, `pdf.worker.${digest}.mjs`);
  try {
    if (!existsSync(file)) {
      mkdirSync(dir, { recursive: true });
      // Write-then-rename: several workers may start at once and must never import a half-written file.
      const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      writeFileSync(partial, patched);
      renameSync(partial, file);
    }
    return { ...(await import(file)), glyphOffsets: true };
  } catch {
    return { ...(await import(path)), glyphOffsets: false }; // e.g. a read-only temp dir
  }
}
