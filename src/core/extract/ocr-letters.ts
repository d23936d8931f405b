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

/**
 * A lone lower-case letter before a capitalised name on an OCR line ("i Gemeindewerke Mannheim") is grain read as a
 * letter: names start with their first word ("de Vries" has two letters, "y" and "e" join names, never start them).
 */
export function withoutStrayLetter(text: string): string {
  return text.replace(/^[a-df-xz]\s+(?=\p{Lu}\p{Ll})/u, "");
}

/**
 * A mark after the last word of a name on an OCR line ("Landesamt für Statistik Mannheim.") is grain read as a dot:
 * a name ends in a dot only after an abbreviation ("Inc.", "Bros.", "e.K."), never after a long word in lower case.
 */
export function withoutTrailingMark(text: string): string {
  return text.replace(/(?<=\p{Lu}\p{Ll}{5,})\s?[.,;:'’‘]$/u, "");
}
