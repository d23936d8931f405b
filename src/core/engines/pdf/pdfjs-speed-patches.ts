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
 * - getUnicodeRangeFor (once per glyph of every embedded TrueType font, for the OS/2 table pdf.js writes into the
 *   font it rebuilds): the first range holding an integer code is looked up in a table of the ranges' boundaries
 *   (binary search) instead of scanning all 123 ranges; a glyph moved past the first private use area belongs to
 *   none, so each cost a full scan: 14% of pdf.js's CPU on one-page invoices. Within two neighbouring boundaries
 *   every range either holds all codes or none, so the table's answer is the scan's.
 * - Text-only fonts: a document opened for its text (pdf-worker.ts lists its pdf.js id in
 *   globalThis.docprocTextOnlyDocs) gets fonts whose program is read but not rebuilt: for TrueType (checkAndRepair)
 *   the glyph re-mapping to private-use codes (adjustMapping: a Map entry per code of a CID font's 65,536-code
 *   CMap), the new cmap, OS/2 and name tables and the font file; for Type1 and CFF, embedded or standard (convert),
 *   the same re-mapping, the accent (seac) map and the OpenType wrapper. They are what a renderer needs, never text
 *   extraction (which reads unicode, widths, vertical metrics, ascent/descent, bbox and font matrix, all set before
 *   or beside them; none of the skipped code can throw for any input, so a font never falls back to a system font
 *   in one mode and not in the other). Rendering never sees such a font: a document is opened again with full fonts before its first render
 *   (pdf-client.ts). About a fifth of pdf.js's CPU time on one-page invoices.
 * - ToUnicode CMaps (about a fifth of pdf.js's CPU on one-page invoices: a bfrange can map thousands of codes):
 *   mapBfRange with the usual two-byte destination steps its two char codes instead of building each next string
 *   from a substring and a concatenation (the same values, carry included: a low byte past 0xFF becomes 0x00 and
 *   the high one grows, past 0xFF too); readToUnicode turns a two-byte token that is one UTF-16 unit (not a
 *   surrogate, at most 0xFFFF) into its string with String.fromCharCode, which for such a unit is what
 *   String.fromCodePoint(...[unit]) returns.
 * - The Lexer under every content stream (LEXER, in pdfjs-lexer-patches.ts): bytes and whole tokens read straight
 *   from the stream's buffer; about 40% of pdf.js's CPU on born-digital pages went to reading them one getByte()
 *   call at a time.
 */
import { SHARED_FONTS } from "./pdfjs-font-sharing.ts";
import { LEXER } from "./pdfjs-lexer-patches.ts";
import { pushAll } from "../../arrays";
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

/** The first-match scan of getUnicodeRangeFor, as pdf.js writes it (kept as the fallback and to build the table). */
const RANGE_SCAN =
  "  for (let i = 0, ii = UnicodeRanges.length; i < ii; i++) {\n" +
  "    const range = UnicodeRanges[i];\n" +
  "    for (let j = 0, jj = range.length; j < jj; j += 2) {\n" +
  "      if (value >= range[j] && value <= range[j + 1]) {\n" +
  "        return i;\n" +
  "      }\n" +
  "    }\n" +
  "  }\n" +
  "  return -1;\n" +
  "}\n";

export const UNICODE_RANGES: Patch[] = [
  [
    RANGE_SCAN + "const SpecialCharRegExp = ",
    "  if (Number.isInteger(value) && value >= 0) {\n" +
      "    const table = unicodeRangeTable ||= buildUnicodeRangeTable();\n" +
      "    let lo = 0, hi = table.starts.length - 1;\n" +
      "    while (lo < hi) {\n" +
      "      const mid = (lo + hi + 1) >> 1;\n" +
      "      if (table.starts[mid] <= value) lo = mid; else hi = mid - 1;\n" +
      "    }\n" +
      "    return table.owners[lo];\n" +
      "  }\n" +
      "  return firstUnicodeRangeOf(value);\n" +
      "}\n" +
      "function firstUnicodeRangeOf(value) {\n" +
      RANGE_SCAN +
      "let unicodeRangeTable = null;\n" +
      "function buildUnicodeRangeTable() {\n" +
      "  const points = new Set([0]);\n" +
      "  for (const range of UnicodeRanges) for (let j = 0; j < range.length; j += 2) { points.add(range[j]); points.add(range[j + 1] + 1); }\n" +
      "  const starts = [...points].sort((a, b) => a - b);\n" +
      "  return { starts, owners: starts.map(firstUnicodeRangeOf) };\n" +
      "}\n" +
      "const SpecialCharRegExp = ",
  ],
];

export const TEXT_ONLY_FONTS: Patch[] = [
  [
    "const font = new Font(fontName.name, fontFile, newProperties, this.options);",
    "const font = new Font(fontName.name, fontFile, newProperties, this.options, globalThis.docprocTextOnlyDocs?.has(this.idFactory.getDocId()) === true);",
  ],
  [
    "  constructor(name, file, properties, evaluatorOptions) {\n",
    "  constructor(name, file, properties, evaluatorOptions, textOnly = false) {\n    this.textOnly = textOnly;\n",
  ],
  [
    "        if (glyphId >= 0 && glyphId < numGlyphs && hasGlyph(glyphId)) {\n          charCodeToGlyphId.set(charCode, glyphId);",
    "        if (!this.textOnly && glyphId >= 0 && glyphId < numGlyphs && hasGlyph(glyphId)) {\n          charCodeToGlyphId.set(charCode, glyphId);",
  ],
  [
    "    if (!properties.cssFontInfo) {\n      const newMapping = adjustMapping(charCodeToGlyphId, hasGlyph, glyphZeroId, this.toUnicode);",
    "    if (!properties.cssFontInfo && !this.textOnly) {\n      const newMapping = adjustMapping(charCodeToGlyphId, hasGlyph, glyphZeroId, this.toUnicode);",
  ],
  [
    "      tables.name.data = createNameTable(name, namePrototype);",
    "      tables.name.data = this.textOnly ? null : createNameTable(name, namePrototype);",
  ],
  [
    "    const builder = new OpenTypeFileBuilder(header.version);",
    "    if (this.textOnly) return undefined;\n    const builder = new OpenTypeFileBuilder(header.version);",
  ],
  [
    "        return new Font(baseFontName, file, newProperties, this.options);",
    "        return new Font(baseFontName, file, newProperties, this.options, globalThis.docprocTextOnlyDocs?.has(this.idFactory.getDocId()) === true);",
  ],
  [
    "    const mapping = font.getGlyphMapping(properties);\n",
    "    const mapping = font.getGlyphMapping(properties);\n    if (this.textOnly) return undefined;\n",
  ],
];

/**
 * A text-only TrueType CID font maps no char code to a glyph id (TEXT_ONLY_FONTS), so checkAndRepair's walk over
 * its CMap only matters for what it may throw: nothing, for the Identity CMap (CIDs are the codes 0 to 0xFFFF, all
 * numbers), whose 65,536 steps are then skipped. About a tenth of pdf.js's CPU on one-page files with such fonts.
 */
const TEXT_ONLY_IDENTITY: Patch[] = [
  [
    "      const isCidToGidMapEmpty = !cidToGidMap?.size;\n      cMap.forEach((charCode, cid) => {",
    "      const isCidToGidMapEmpty = !cidToGidMap?.size;\n      if (!(this.textOnly && cMap instanceof IdentityCMap)) cMap.forEach((charCode, cid) => {",
  ],
];

const TO_UNICODE: Patch[] = [
  [
    "    const lastByte = dstLow.length - 1;\n    while (low <= high) {\n      this.#map.set(low++, dstLow);\n",
    "    const lastByte = dstLow.length - 1;\n" +
      "    if (lastByte === 1) {\n" +
      "      let c0 = dstLow.charCodeAt(0), c1 = dstLow.charCodeAt(1);\n" +
      "      while (low <= high) {\n" +
      "        this.#map.set(low++, dstLow);\n" +
      "        if (++c1 > 0xff) {\n          c0++;\n          c1 = 0;\n        }\n" +
      "        dstLow = String.fromCharCode(c0, c1);\n" +
      "      }\n" +
      "      return;\n" +
      "    }\n" +
      "    while (low <= high) {\n      this.#map.set(low++, dstLow);\n",
  ],
  [
    "            map.set(charCode, String.fromCodePoint(token));\n            return;\n          }\n          if (token.length % 2 !== 0) {",
    "            map.set(charCode, String.fromCodePoint(token));\n            return;\n          }\n" +
      "          if (token.length === 2) {\n" +
      "            const unit = token.charCodeAt(0) << 8 | token.charCodeAt(1);\n" +
      "            if (unit <= 0xffff && (unit & 0xf800) !== 0xd800) {\n" +
      "              map.set(charCode, String.fromCharCode(unit));\n" +
      "              return;\n" +
      "            }\n" +
      "          }\n" +
      "          if (token.length % 2 !== 0) {",
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
