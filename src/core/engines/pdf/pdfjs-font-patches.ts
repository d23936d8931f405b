/**
 * Equivalent, cheaper versions of pdf.js's font and CMap reading, under the contract of pdfjs-speed-patches.ts
 * (the same results bit for bit; each group applied whole or not at all), listed in its SPEED_PATCHES.
 *
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
 */
import type { Patch } from "./pdfjs-patch.ts";

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
export const TEXT_ONLY_IDENTITY: Patch[] = [
  [
    "      const isCidToGidMapEmpty = !cidToGidMap?.size;\n      cMap.forEach((charCode, cid) => {",
    "      const isCidToGidMapEmpty = !cidToGidMap?.size;\n      if (!(this.textOnly && cMap instanceof IdentityCMap)) cMap.forEach((charCode, cid) => {",
  ],
];

export const TO_UNICODE: Patch[] = [
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
