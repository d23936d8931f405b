/**
 * Loads pdf.js's worker code with a small instrumentation: every text item also carries the start and end offset
 * of each of its glyphs (`glyphs: [unicode, start, end, ...]`, in the same units as the item's `width`).
 *
 * Why: `getTextContent()` reports one advance width per text run (often a whole line). Per-word boxes need the
 * glyph positions pdf.js computes anyway but throws away; re-deriving them (operator list + font programs) would
 * double the cost of born-digital conversion. Three anchors in pdf.worker.mjs are patched; if any is missing (a
 * pdf.js upgrade), the stock worker is used and words are placed by estimated character widths instead.
 *
 * A few hot paths of text extraction are also replaced by equivalent code that allocates less (SPEED_PATCHES: same
 * arithmetic in the same order, so the same results bit for bit). Each one is applied only when its anchor is found
 * exactly once; a missing one costs speed, never correctness.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
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

/**
 * Equivalent, cheaper versions of pdf.js text-extraction hot spots (together about a fifth of its CPU time on
 * born-digital pages):
 * - getCurrentTextTransform (called twice per glyph): ctm × textMatrix × tsm multiplied without the three
 *   temporary arrays, with Util.transform's exact expression order (the `* 0` terms stay, so NaN and -0 behave alike);
 * - bidi: a string with no code point at or above U+0590 has no right-to-left character (baseTypes has none below
 *   U+0100 and everything from U+0100 to U+058F is "L"), so it is returned as LTR without the per-char type table;
 * - normalizeUnicode: a string without any char at or above U+00A0 (the regex's lowest) is returned unchanged;
 * - text content is not cut into 100-item chunks for the reader's back-pressure: getTextContent() collects the
 *   whole page anyway, and each chunk cost about two more messages (a structured clone and a stream pull each),
 *   some 25 per page. Time slicing (TimeSlotManager) and font/XObject loading still yield as before;
 * - `Tf` naming a font object (an indirect reference in this content stream's resources) that this stream already
 *   loaded sets it synchronously: loadFont would return the same cached font, only after a promise round trip
 *   through the operator loop. Generators that wrap every line in q/Q (pdf-lib, many report tools) re-select the
 *   font once per line, pdf-lib even under a new resource name each time. Type3 fonts always take the long way.
 */
const SPEED_PATCHES: Array<[anchor: string, replacement: string]> = [
  [
    `      const tsm = [textState.fontSize * textState.textHScale, 0, 0, textState.fontSize, 0, textState.textRise];
      if (font.isType3Font && (textState.fontSize <= 1 || font.isCharBBox) && !isArrayEqual(textState.fontMatrix, FONT_IDENTITY_MATRIX)) {
        const glyphHeight = font.bbox[3] - font.bbox[1];
        if (glyphHeight > 0) {
          tsm[3] *= glyphHeight * textState.fontMatrix[3];
        }
      }
      return Util.transform(textState.ctm, Util.transform(textState.textMatrix, tsm));`,
    `      const s0 = textState.fontSize * textState.textHScale, s5 = textState.textRise;
      let s3 = textState.fontSize;
      if (font.isType3Font && (textState.fontSize <= 1 || font.isCharBBox) && !isArrayEqual(textState.fontMatrix, FONT_IDENTITY_MATRIX)) {
        const glyphHeight = font.bbox[3] - font.bbox[1];
        if (glyphHeight > 0) {
          s3 *= glyphHeight * textState.fontMatrix[3];
        }
      }
      const m = textState.textMatrix, c = textState.ctm;
      const t0 = m[0] * s0 + m[2] * 0, t1 = m[1] * s0 + m[3] * 0, t2 = m[0] * 0 + m[2] * s3, t3 = m[1] * 0 + m[3] * s3;
      const t4 = m[0] * 0 + m[2] * s5 + m[4], t5 = m[1] * 0 + m[3] * s5 + m[5];
      return [c[0] * t0 + c[2] * t1, c[1] * t0 + c[3] * t1, c[0] * t2 + c[2] * t3, c[1] * t2 + c[3] * t3, c[0] * t4 + c[2] * t5 + c[4], c[1] * t4 + c[3] * t5 + c[5]];`,
  ],
  [
    "  chars.length = strLength;\n",
    "  let maxCode = 0;\n  for (let k = 0; k < strLength && maxCode < 0x0590; k++) maxCode = Math.max(maxCode, str.charCodeAt(k));\n" +
      "  if (maxCode < 0x0590) return createBidiText(str, true);\n  chars.length = strLength;\n",
  ],
  [
    "function normalizeUnicode(str) {\n",
    "function normalizeUnicode(str) {\n  let k = 0;\n  while (k < str.length && str.charCodeAt(k) < 0xa0) k++;\n  if (k === str.length) return str;\n",
  ],
  ["        if (textContent.items.length >= sink.desiredSize) {\n", "        if (false) {\n"],
  [
    "    async function handleSetFont(fontName, fontRef) {\n" +
      "      const translated = await self.loadFont(fontName, fontRef, resources, task, null, null, seenRefs);\n",
    "    const loadedFonts = new Map();\n" +
      "    const fontKeyOf = name => {\n" +
      "      const fontRes = resources?.get(\"Font\");\n" +
      "      const raw = fontRes instanceof Dict ? fontRes.getRaw(name) : null;\n" +
      "      return raw instanceof Ref ? raw.toString() : null;\n" +
      "    };\n" +
      "    async function handleSetFont(fontName, fontRef) {\n" +
      "      const translated = await self.loadFont(fontName, fontRef, resources, task, null, null, seenRefs);\n" +
      "      const loadedKey = fontRef === null && !translated.font.isType3Font ? fontKeyOf(fontName) : null;\n" +
      "      if (loadedKey) loadedFonts.set(loadedKey, translated);\n",
  ],
  [
    "            textState.fontSize = fontSizeArg;\n            next(handleSetFont(fontNameArg, null));\n            return;\n",
    "            textState.fontSize = fontSizeArg;\n" +
      "            const loadedKey = fontKeyOf(fontNameArg);\n" +
      "            const loadedFont = loadedKey && loadedFonts.get(loadedKey);\n" +
      "            if (loadedFont) {\n" +
      "              textState.loadedName = loadedFont.loadedName;\n" +
      "              textState.font = loadedFont.font;\n" +
      "              textState.fontMatrix = loadedFont.font.fontMatrix || FONT_IDENTITY_MATRIX;\n" +
      "              break;\n" +
      "            }\n" +
      "            next(handleSetFont(fontNameArg, null));\n            return;\n",
  ],
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
  for (const [anchor, replacement] of SPEED_PATCHES) {
    if (patched.split(anchor).length === 2) patched = patched.replace(anchor, () => replacement);
  }
  const digest = createHash("sha256").update(patched).digest("hex");
  try {
    const file = join(privateDir(), `pdf.worker.${digest.slice(0, 16)}.mjs`);
    // Re-check the content before importing: code we run must be exactly the code we patched.
    const current = existsSync(file) ? createHash("sha256").update(readFileSync(file)).digest("hex") : "";
    if (current !== digest) {
      // Write-then-rename: several workers may start at once and must never import a half-written file.
      const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      writeFileSync(partial, patched, { mode: 0o600 });
      renameSync(partial, file);
    }
    return { ...(await import(file)), glyphOffsets: true };
  } catch {
    return { ...(await import(path)), glyphOffsets: false }; // e.g. a read-only or foreign temp dir
  }
}

/** A temp folder only this user can write to (the patched module is executed, so no one else may plant it). */
function privateDir(): string {
  const uid = process.getuid?.() ?? 0;
  const dir = join(tmpdir(), `docproc-pdfjs-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = statSync(dir);
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o022) !== 0) throw new Error(`${dir} is not private`);
  return dir;
}
