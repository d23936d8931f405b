/**
 * Turns a pdf.js text layer (text runs with a text matrix and an advance width) into words with boxes in
 * rasterized pixel space (whether the layer is usable or garbage: text-layer-verdict.ts).
 * Pure functions: no pdf.js import, so they run in the pdf worker and in unit tests alike.
 */
import type { Word } from "../../model.ts";
import { charOffsets, fontKindOf } from "./char-widths.ts";

/** The subset of a pdf.js TextItem we read. */
export interface TextRun {
  str: string;
  dir: string;
  width: number;
  height: number;
  /** Text rendering matrix in PDF user space: [a, b, c, d, e, f]. */
  transform: number[];
  fontName: string;
  /** Added by our pdf.js instrumentation: [unicode, start, end, ...] per glyph, in `width` units. */
  glyphs?: Array<string | number> | null;
}

export interface FontStyle {
  fontFamily?: string;
  ascent?: number;
  descent?: number;
  vertical?: boolean;
}

/** 2D affine matrix [a, b, c, d, e, f] as PDF and pdf.js use them. */
export type Matrix = number[];

// Fonts without usable metrics get the typical Helvetica values.
const DEFAULT_ASCENT = 0.75;
const DEFAULT_DESCENT = -0.25;

/**
 * Words of one text run. `viewport` maps PDF user space to rasterized pixels (pdf.js viewport.transform at the
 * render scale: it applies /Rotate, the CropBox origin and the y flip), so boxes land where the raster shows them.
 */
export function wordsOfRun(run: TextRun, style: FontStyle | undefined, viewport: Matrix): Word[] {
  const words: Word[] = [];
  appendWordsOfRun(words, run, style, viewport);
  return words;
}

/** wordsOfRun, appending to `out` (the page's word list) instead of returning a new array. */
export function appendWordsOfRun(out: Word[], run: TextRun, style: FontStyle | undefined, viewport: Matrix): void {
  if (run.str.length === 0 || !(run.width > 0) || run.transform.length < 6) return;
  const [a, b, c, d, e, f] = run.transform;
  const runLength = Math.hypot(a, b);
  const upLength = Math.hypot(c, d);
  if (runLength === 0 || upLength === 0) return;
  const dirX = a / runLength,
    dirY = b / runLength; // baseline direction in user space
  const fontSize = run.height > 0 ? run.height : upLength;
  const upX = (c / upLength) * fontSize,
    upY = (d / upLength) * fontSize; // one em "up" in user space
  const [ascent, descent] = fontMetrics(style);
  const [va, vb, vc, vd, ve, vf] = viewport;
  // Bounds of the four corners (start/end × ascent/descent), mapped through the viewport. Inlined: this runs once
  // per word of every born-digital page.
  const place = (text: string, s: number, t: number) => {
    let x1 = Infinity,
      y1 = Infinity,
      x2 = -Infinity,
      y2 = -Infinity;
    for (let k = 0; k < 4; k++) {
      const along = k < 2 ? s : t;
      const em = k % 2 === 0 ? ascent : descent;
      const ux = e + dirX * along + upX * em,
        uy = f + dirY * along + upY * em;
      const px = va * ux + vc * uy + ve,
        py = vb * ux + vd * uy + vf;
      if (px < x1) x1 = px;
      if (px > x2) x2 = px;
      if (py < y1) y1 = py;
      if (py > y2) y2 = py;
    }
    out.push({ text, confidence: 1, bounding_box: [round2(x1), round2(y1), round2(x2), round2(y2)] });
  };
  if (run.glyphs && placeByGlyphs(run.str, run.glyphs, place)) return;
  const chars = Array.from(run.str);
  const measured = glyphExtents(chars, run.glyphs);
  const offsets = measured ? null : charOffsets(chars, fontKindOf(style?.fontFamily), run.width);
  const rtl = run.dir === "rtl";
  for (const [start, end] of wordSpans(chars)) {
    let s: number, t: number;
    if (measured) [s, t] = spanOf(measured, start, end);
    else if (rtl)
      [s, t] = [run.width - offsets![end], run.width - offsets![start]]; // logical order, drawn right to left
    else [s, t] = [offsets![start], offsets![end]];
    place(chars.slice(start, end).join(""), s, t);
  }
}

/**
 * The common case in one pass, without per-char arrays: every non-space UTF-16 unit of `str` is exactly the next
 * glyph's unicode (no ligatures, no surrogate pairs, no reordering). Calls `place` per word with the same extents
 * glyphExtents + spanOf would give, and returns true; returns false, having placed nothing, for anything else
 * (the general path then decides).
 */
function placeByGlyphs(
  str: string,
  glyphs: Array<string | number>,
  place: (text: string, s: number, t: number) => void,
): boolean {
  const count = glyphs.length;
  if (count < 3) return false;
  // Pass 1 only checks, so that a late mismatch never leaves words half placed.
  let k = 0;
  for (let i = 0; i < str.length; i++) {
    const code = str.charCodeAt(i);
    if (code === 32 || (code >= 9 && code <= 13)) continue;
    if (code >= 0xd800 && code <= 0xdfff) return false;
    if (code > 127 && isSpace(str[i])) continue;
    const unicode = glyphs[k],
      start = glyphs[k + 1],
      end = glyphs[k + 2];
    if (k >= count || typeof unicode !== "string" || unicode.length !== 1 || unicode.charCodeAt(0) !== code)
      return false;
    if (typeof start !== "number" || typeof end !== "number" || start !== start || end !== end) return false;
    k += 3;
  }
  if (k !== count) return false;
  k = 0;
  let wordStart = -1,
    s = Infinity,
    t = -Infinity;
  for (let i = 0; i <= str.length; i++) {
    const code = i < str.length ? str.charCodeAt(i) : 32;
    if (code === 32 || (code >= 9 && code <= 13) || (code > 127 && isSpace(str[i]))) {
      if (wordStart >= 0) {
        if (Number.isFinite(s)) place(str.slice(wordStart, i), s, t);
        else place(str.slice(wordStart, i), 0, 0); // as spanOf does
        wordStart = -1;
        s = Infinity;
        t = -Infinity;
      }
      continue;
    }
    if (wordStart < 0) wordStart = i;
    const g0 = glyphs[k + 1] as number,
      g1 = glyphs[k + 2] as number;
    k += 3;
    const lo = Math.min(g0, g1),
      hi = Math.max(g0, g1);
    if (lo < s) s = lo;
    if (hi > t) t = hi;
  }
  return true;
}

/**
 * Start/end offset of every non-space char of `chars`, from the glyph offsets pdf.js measured, or null when the
 * glyphs cannot be matched to the text (Unicode normalisation or bidi reordering changed it beyond recognition).
 */
function glyphExtents(chars: string[], glyphs: TextRun["glyphs"]): Float64Array | null {
  if (!glyphs || glyphs.length < 3) return null;
  return alignGlyphs(chars, glyphs, false) ?? alignGlyphs(chars, glyphs, true);
}

/** extents[2i], extents[2i+1]: start and end of char i (NaN for spaces). */
function alignGlyphs(chars: string[], glyphs: Array<string | number>, reversed: boolean): Float64Array | null {
  const extents = new Float64Array(chars.length * 2).fill(NaN);
  const set = (i: number, a: number, b: number) => {
    extents[2 * i] = Math.min(a, b);
    extents[2 * i + 1] = Math.max(a, b);
  };
  let p = 0;
  const count = glyphs.length / 3;
  for (let k = 0; k < count; k++) {
    const g = reversed ? count - 1 - k : k;
    const unicode = String(glyphs[g * 3]);
    const start = Number(glyphs[g * 3 + 1]),
      end = Number(glyphs[g * 3 + 2]);
    while (p < chars.length && isSpace(chars[p])) p++;
    // Fast path: one glyph, one char (nearly always). Otherwise compare with the NFKC form pdf.js may have output.
    if (unicode === chars[p]) {
      set(p++, start, end);
      continue;
    }
    const form = [unicode, unicode.normalize("NFKC")]
      .map((u) => Array.from(u).filter((ch) => !isSpace(ch)))
      .find((c) => c.every((ch, i) => chars[p + i] === ch));
    if (!form) return null;
    for (let i = 0; i < form.length; i++) {
      // A ligature glyph ("ﬁ" → "fi") shares its advance between its chars.
      set(p + i, start + ((end - start) * i) / form.length, start + ((end - start) * (i + 1)) / form.length);
    }
    p += form.length;
  }
  while (p < chars.length && isSpace(chars[p])) p++;
  return p === chars.length ? extents : null;
}

function isSpace(ch: string | undefined): boolean {
  if (ch === undefined) return false;
  const code = ch.charCodeAt(0);
  if (code === 32 || (code >= 9 && code <= 13)) return true;
  return code > 127 && /\s/u.test(ch);
}

function spanOf(extents: Float64Array, start: number, end: number): [number, number] {
  let s = Infinity,
    t = -Infinity;
  for (let i = start; i < end; i++) {
    const a = extents[2 * i],
      b = extents[2 * i + 1];
    if (a !== a) continue; // NaN: a space
    if (a < s) s = a;
    if (b > t) t = b;
  }
  return Number.isFinite(s) ? [s, t] : [0, 0];
}

/**
 * Ascent and descent (em) for word boxes. pdf.js reads them from the font program; some embedded TrueType fonts
 * yield an em box of half the real height, and boxes that small would cut through the glyphs. An em box under
 * 0.8 em or over 1.6 em is replaced by the typical 0.75 / -0.25.
 */
function fontMetrics(style: FontStyle | undefined): [number, number] {
  const ascent = clampMetric(style?.ascent, DEFAULT_ASCENT, 0.3, 1.2);
  const descent = clampMetric(style?.descent, DEFAULT_DESCENT, -0.6, 0);
  const em = ascent - descent;
  return em < 0.8 || em > 1.6 ? [DEFAULT_ASCENT, DEFAULT_DESCENT] : [ascent, descent];
}

function clampMetric(value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined || !Number.isFinite(value) || value === 0) return fallback;
  return Math.min(max, Math.max(min, value));
}

/** [start, end) char index spans of the whitespace-separated words. */
function wordSpans(chars: string[]): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let start = -1;
  for (let i = 0; i <= chars.length; i++) {
    const space = i === chars.length || isSpace(chars[i]);
    if (space && start >= 0) {
      spans.push([start, i]);
      start = -1;
    } else if (!space && start < 0) start = i;
  }
  return spans;
}

function round2(v: number): number {
  return Math.round(v * 100) / 100;
}
