/**
 * Equivalent, cheaper versions of pdf.js text-extraction hot spots, applied to pdf.worker.mjs by
 * pdfjs-patched-worker.ts. Together they took born-digital text extraction from about 2.2 to 1.1 ms of CPU per
 * page (bench/convert.ts), with the same results bit for bit on every corpus PDF.
 *
 * Contract: every group MUST compute exactly what the code it replaces computes (same arithmetic in the same
 * order, same objects in the text content), and a group is applied whole or not at all: when any of its anchors
 * is not found exactly once (a pdf.js upgrade), the group is skipped, which costs speed, never correctness.
 *
 * - getCurrentTextTransform (called about twice per glyph): ctm × textMatrix × tsm multiplied without the three
 *   temporary arrays, with Util.transform's exact expression order (the `* 0` terms stay, so NaN and -0 behave
 *   alike); compareWithLastPosition, which only reads the matrix, gets it written into a scratch array.
 * - bidi: a string with no code unit at or above U+0590 has no right-to-left character (baseTypes has none below
 *   U+0100 and everything from U+0100 to U+058F is "L"), so it is returned as LTR without the per-char type table.
 * - normalizeUnicode: a string without any char at or above U+00A0 (the regex's lowest) is returned unchanged.
 * - Text content is not cut into 100-item chunks for the reader's back-pressure: getTextContent() collects the
 *   whole page anyway, and each chunk cost about two more messages (a structured clone and a stream pull each),
 *   some 25 per page. Time slicing (TimeSlotManager) and font/XObject loading still yield as before.
 * - `Tf` naming a font object (an indirect reference in this content stream's resources) that this stream already
 *   loaded sets it synchronously: loadFont would return the same cached font, only after a promise round trip
 *   through the operator loop. Generators that wrap every line in q/Q (pdf-lib, many report tools) re-select the
 *   font once per line, pdf-lib even under a new resource name each time. Type3 fonts always take the long way.
 * - TextState.clone (every `q`): the copy gets TextState.prototype instead of the state it was copied from as its
 *   prototype. Object.assign already gives it every field as its own property (all of TextState's properties are
 *   declared fields), so no read changes; but with a fresh prototype object per page (and per nesting level),
 *   every property read on the text state (getCurrentTextTransform, twice per glyph) became megamorphic.
 * - Font and CMap reading (UNICODE_RANGES, TEXT_ONLY_FONTS, TEXT_ONLY_IDENTITY, TO_UNICODE, in
 *   pdfjs-font-patches.ts): getUnicodeRangeFor by binary search, fonts read for their text not rebuilt, ToUnicode
 *   CMaps read without a string per code.
 * - pdf.js's font alias hash (DEFERRED_ALIAS_HASH, in pdfjs-font-sharing.ts): worked out only once a second font
 *   with the same descriptor object comes (in a joined file nearly never); the same font ids and aliases.
 * - The Lexer under every content stream (LEXER, in pdfjs-lexer-patches.ts): bytes and whole tokens read straight
 *   from the stream's buffer; about 40% of pdf.js's CPU on born-digital pages went to reading them one getByte()
 *   call at a time.
 */
import { DEFERRED_ALIAS_HASH, SHARED_FONTS } from "./pdfjs-font-sharing.ts";
import { LEXER } from "./pdfjs-lexer-patches.ts";
import { pushAll } from "../../arrays";
import { TEXT_ONLY_FONTS, TEXT_ONLY_IDENTITY, TO_UNICODE, UNICODE_RANGES } from "./pdfjs-font-patches.ts";
import type { Patch } from "./pdfjs-patch.ts";

export type { Patch } from "./pdfjs-patch.ts";

const TRANSFORM: Patch[] = [
  [
    `    function getCurrentTextTransform() {
      const font = textState.font;
      const tsm = [textState.fontSize * textState.textHScale, 0, 0, textState.fontSize, 0, textState.textRise];
      if (font.isType3Font && (textState.fontSize <= 1 || font.isCharBBox) && !isArrayEqual(textState.fontMatrix, FONT_IDENTITY_MATRIX)) {
        const glyphHeight = font.bbox[3] - font.bbox[1];
        if (glyphHeight > 0) {
          tsm[3] *= glyphHeight * textState.fontMatrix[3];
        }
      }
      return Util.transform(textState.ctm, Util.transform(textState.textMatrix, tsm));
    }
`,
    `    function getCurrentTextTransform(out) {
      const font = textState.font;
      const s0 = textState.fontSize * textState.textHScale, s5 = textState.textRise;
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
      const r0 = c[0] * t0 + c[2] * t1, r1 = c[1] * t0 + c[3] * t1, r2 = c[0] * t2 + c[2] * t3, r3 = c[1] * t2 + c[3] * t3;
      const r4 = c[0] * t4 + c[2] * t5 + c[4], r5 = c[1] * t4 + c[3] * t5 + c[5];
      if (!out) return [r0, r1, r2, r3, r4, r5];
      out[0] = r0;
      out[1] = r1;
      out[2] = r2;
      out[3] = r3;
      out[4] = r4;
      out[5] = r5;
      return out;
    }
`,
  ],
  [
    "    function compareWithLastPosition(glyphWidth) {\n      const currentTransform = getCurrentTextTransform();\n",
    "    const compareScratch = [0, 0, 0, 0, 0, 0];\n" +
      "    function compareWithLastPosition(glyphWidth) {\n      const currentTransform = getCurrentTextTransform(compareScratch);\n",
  ],
];

const BIDI: Patch[] = [
  [
    "  chars.length = strLength;\n",
    "  let maxCode = 0;\n  for (let k = 0; k < strLength && maxCode < 0x0590; k++) maxCode = Math.max(maxCode, str.charCodeAt(k));\n" +
      "  if (maxCode < 0x0590) return createBidiText(str, true);\n  chars.length = strLength;\n",
  ],
];

const NORMALIZE: Patch[] = [
  [
    "function normalizeUnicode(str) {\n",
    "function normalizeUnicode(str) {\n  let k = 0;\n  while (k < str.length && str.charCodeAt(k) < 0xa0) k++;\n  if (k === str.length) return str;\n",
  ],
];

const ONE_CHUNK: Patch[] = [
  ["        if (textContent.items.length >= sink.desiredSize) {\n", "        if (false) {\n"],
];

const SYNC_FONT: Patch[] = [
  [
    "    async function handleSetFont(fontName, fontRef) {\n" +
      "      const translated = await self.loadFont(fontName, fontRef, resources, task, null, null, seenRefs);\n",
    "    const loadedFonts = new Map();\n" +
      "    const fontKeyOf = name => {\n" +
      '      const fontRes = resources?.get("Font");\n' +
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

const FLAT_TEXT_STATE: Patch[] = [
  [
    "    const clone = Object.assign(Object.create(this), this);\n    clone.textMatrix = this.textMatrix.slice();\n",
    "    const clone = Object.assign(Object.create(TextState.prototype), this);\n    clone.textMatrix = this.textMatrix.slice();\n",
  ],
];

/** Groups of patches: each group is applied whole or not at all. */
export const SPEED_PATCHES: Patch[][] = [
  TRANSFORM,
  BIDI,
  NORMALIZE,
  ONE_CHUNK,
  SYNC_FONT,
  FLAT_TEXT_STATE,
  UNICODE_RANGES,
  TEXT_ONLY_FONTS,
  TEXT_ONLY_IDENTITY,
  TO_UNICODE,
  LEXER,
  SHARED_FONTS,
  DEFERRED_ALIAS_HASH,
];

/**
 * Applies `required` (all or nothing: null when one anchor is missing or repeated) and whichever `optional` groups
 * fit, in one pass over the source (each String.replace on the 2 MB worker copied it: 20 ms per worker start).
 */
export function applyPatches(source: string, required: Patch[], optional: Patch[][]): string | null {
  const spots: Array<{ at: number; length: number; replacement: string }> = [];
  const locate = (group: Patch[]) => {
    const found = group.map(([anchor, replacement]) => {
      const at = source.indexOf(anchor);
      return at >= 0 && source.indexOf(anchor, at + 1) < 0 ? { at, length: anchor.length, replacement } : null;
    });
    return found.every((f) => f !== null) ? (found as typeof spots) : null;
  };
  const must = locate(required);
  if (!must) return null;
  pushAll(spots, must);
  for (const group of optional) {
    const found = locate(group);
    // Overlapping anchors would make the edits ambiguous: such a group is left out.
    if (found && found.every((f) => spots.every((s) => f.at + f.length <= s.at || s.at + s.length <= f.at)))
      pushAll(spots, found);
  }
  spots.sort((a, b) => a.at - b.at);
  const parts: string[] = [];
  let pos = 0;
  for (const spot of spots) {
    parts.push(source.slice(pos, spot.at), spot.replacement);
    pos = spot.at + spot.length;
  }
  parts.push(source.slice(pos));
  return parts.join("");
}
