/**
 * Letters an OCR model without them reads as others. The default model is English, which has no "ü": on a German
 * name it reads two narrow strokes, "ii" ("Kriiger", "fiir", "Osnabriick", "Wiirzburg"). Inside a word, between
 * letters, "ii" is no spelling of German, French, Dutch, Spanish or Italian names (Hawaii ends a word, "Shiitake"
 * is no company), so there it is read back as "ü" ("Ü" between capitals). Other lost marks ("a" for "ä") cannot be
 * told from real spellings and stay as read.
 */
const II = /(?<=\p{L})(ii|II)(?=\p{L})/gu;

export function umlautsRead(text: string): string {
  return text.replace(II, (m) => (m === "II" ? "Ü" : "ü"));
}
