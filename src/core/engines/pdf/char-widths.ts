/**
 * Approximate glyph advance widths (1/1000 em) used to place words inside a pdf.js text item.
 *
 * Why: pdf.js `getTextContent()` gives one advance width per text run (often a whole line), not per glyph. Fetching
 * real glyph widths would need the operator list and the font programs (about twice the cost of text extraction,
 * and the born-digital benchmark compares us with pdftotext). Instead each run is split with the metrics of the
 * matching standard font (Helvetica for sans-serif, Times for serif, fixed pitch for monospace), then scaled so the
 * run's total equals the width pdf.js measured: the run's ends are exact, only positions inside it are estimated.
 */

// Helvetica AFM advance widths for U+0020..U+007E.
const HELVETICA = [
  278,
  278,
  355,
  556,
  556,
  889,
  667,
  191,
  333,
  333,
  389,
  584,
  278,
  333,
  278,
  278, // space ! " # $ % & ' ( ) * + , - . /
  556,
  556,
  556,
  556,
  556,
  556,
  556,
  556,
  556,
  556,
  278,
  278,
  584,
  584,
  584,
  556, // 0-9 : ; < = > ?
  1015,
  667,
  667,
  722,
  722,
  667,
  611,
  778,
  722,
  278,
  500,
  667,
  556,
  833,
  722,
  778, // @ A-O
  667,
  778,
  722,
  667,
  611,
  722,
  667,
  944,
  667,
  667,
  611,
  278,
  278,
  278,
  469,
  556, // P-Z [ \ ] ^ _
  333,
  556,
  556,
  500,
  556,
  556,
  278,
  556,
  556,
  222,
  222,
  500,
  222,
  833,
  556,
  556, // ` a-o
  556,
  556,
  333,
  500,
  278,
  556,
  500,
  722,
  500,
  500,
  500,
  334,
  260,
  334,
  584, //       p-z { | } ~
];

// Times-Roman AFM advance widths for U+0020..U+007E.
const TIMES = [
  250, 333, 408, 500, 500, 833, 778, 180, 333, 333, 500, 564, 250, 333, 250, 278, 500, 500, 500, 500, 500, 500, 500,
  500, 500, 500, 278, 278, 564, 564, 564, 444, 921, 722, 667, 667, 722, 611, 556, 722, 722, 333, 389, 722, 611, 889,
  722, 722, 556, 722, 667, 556, 611, 722, 722, 944, 722, 722, 611, 333, 278, 333, 469, 500, 333, 444, 500, 444, 500,
  444, 333, 500, 500, 278, 278, 500, 278, 778, 500, 500, 500, 500, 333, 389, 278, 500, 500, 722, 500, 500, 444, 480,
  200, 480, 541,
];

export type FontFamilyKind = "sans-serif" | "serif" | "monospace";

/** pdf.js reports a CSS generic family per font; anything unknown is treated as sans-serif (the common case). */
export function fontKindOf(fontFamily: string | undefined): FontFamilyKind {
  if (fontFamily === "serif" || fontFamily === "monospace") return fontFamily;
  return "sans-serif";
}

/** Estimated advance of one character (a UTF-16 code unit string of one code point). */
export function charWidth(ch: string, kind: FontFamilyKind): number {
  if (kind === "monospace") return 600;
  const table = kind === "serif" ? TIMES : HELVETICA;
  let code = ch.codePointAt(0) ?? 32;
  if (code > 0x7e) {
    // Accented Latin letters take the width of their base letter; other scripts get an average width.
    const base = ch.normalize("NFD").codePointAt(0) ?? code;
    if (base >= 0x20 && base <= 0x7e) code = base;
    else return code >= 0x2e80 ? 1000 : 556; // CJK ideographs are full-width
  }
  if (code < 0x20) return 0;
  return table[code - 0x20] ?? 556;
}

/**
 * Cumulative offsets (same unit as `totalWidth`) of every character boundary of `chars`, scaled so the last offset
 * equals `totalWidth`. offsets[i] is where char i starts; offsets[chars.length] === totalWidth.
 */
export function charOffsets(chars: string[], kind: FontFamilyKind, totalWidth: number): number[] {
  const offsets = new Array<number>(chars.length + 1);
  let sum = 0;
  offsets[0] = 0;
  for (let i = 0; i < chars.length; i++) {
    sum += charWidth(chars[i], kind);
    offsets[i + 1] = sum;
  }
  const scale = sum > 0 ? totalWidth / sum : 0;
  for (let i = 0; i <= chars.length; i++) offsets[i] *= scale;
  return offsets;
}
