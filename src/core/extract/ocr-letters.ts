/**
 * Letters an OCR model without them reads as others. The default model is English, which has no "ü": on a German
 * name it reads two narrow strokes, "ii" ("Kriiger", "fiir", "Osnabriick", "Wiirzburg"). Inside a word, between
 * letters, "ii" is no spelling of German, French, Dutch, Spanish or Italian names (Hawaii ends a word, "Shiitake"
 * is no company), so there it is read back as "ü" ("Ü" between capitals). Other lost marks ("a" for "ä") cannot be
 * told from real spellings by the word alone: only the document can tell them (marksReadElsewhere).
 */
import type { Line } from "./lines";
import { fold } from "./fuzzy";
import { legalForm } from "./company";

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

/**
 * A short lower-case word after a name's legal form on an OCR line ("Krüger Elektrotechnik GmbH & Co. KG oa", a box's
 * border beside it) is grain read as letters: the legal form ends the name.
 */
export function withoutGrainAfterForm(text: string): string {
  const m = /\s+\p{Ll}{1,2}$/u.exec(text);
  if (!m) return text;
  const head = text.slice(0, m.index);
  const form = legalForm(head);
  return form && form.index + form[0].length === head.length ? head : text;
}

const MARKED = /[^\x00-\x7f]/;

/** Words of three letters or more read with marks on the lines, by their plain lower-case spelling. */
export function markedWords(lines: Line[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const line of lines)
    for (const m of line.text.matchAll(/\p{L}{3,}/gu))
      if (MARKED.test(m[0]) && fold(m[0]).length === m[0].length) out.set(fold(m[0].toLowerCase()), m[0]);
  return out;
}

/**
 * A word of a name read without its marks ("Kohler", "Schafer") that the document prints with them elsewhere
 * ("Köhler" in the footer, "SCHÄFER" in the logo) takes them back, letter for letter in its own case: OCR read in
 * English drops them on one line and keeps them on another.
 */
export function marksReadElsewhere(text: string, marked: Map<string, string>): string {
  if (!marked.size) return text;
  return text.replace(/\p{L}{3,}/gu, (word) => {
    const other = MARKED.test(word) ? undefined : marked.get(word.toLowerCase());
    if (!other || other.length !== word.length) return word;
    return [...word]
      .map((ch, i) =>
        MARKED.test(other[i]!) ? (ch === ch.toUpperCase() ? other[i]!.toUpperCase() : other[i]!.toLowerCase()) : ch,
      )
      .join("");
  });
}
