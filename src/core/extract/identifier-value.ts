/**
 * Reading a document number right of its label or at a cell's start: one token of letters, digits and `-/_.`,
 * with the forms invoices print it in (digit groups, a capital prefix apart, dot leaders before it). values.ts
 * dispatches here for the "identifier" kind.
 */
import type { Line } from "./lines";
import { findDates } from "./normalize";
import type { ValueMatch } from "./value-match";
import { sameBlockEnd } from "./labels";

const ID_RE =
  /^[\s:#.\-–=°º]*(?:(?:no|nr|n°|nº|number|num|nummer|numéro|numer)\.?\s*[:#]?\s*)?(?<v>[\p{L}\p{N}][\p{L}\p{N}\-\/_.]*[\p{L}\p{N}]|\p{N}+)/iu;

/** OCR specks read as punctuation inside a word ("IBZY?2087"): dropped from identifiers on OCR pages only. */
const OCR_SPECK = /(?<=[\p{L}\p{N}])[?'’‘`´"](?=[\p{L}\p{N}])/gu;

/** Specks OCR reads before a value ("'RE-51435", "~ FA-95120", "| 2024-17", "© 1234"): blanked (same length) on OCR pages. */
const OCR_LEAD = /^[\s:#.\-–=°º'’‘`´"~|,;©®«»•*]+/u;

/** Dot leaders joining a label to its value ("Rechnungs-Nr. ........ 2018-6504"): a leader, never a long gap. */
const DOT_LEADER = /^[\s:]*\.{3,}[\s.:]*/;

/**
 * A short capital prefix printed apart from the number it opens ("FS 228/2024", "Z 188 337 970-8"): one to three
 * capitals, one space, then a number. Returned with the number read after it, or null.
 */
const ID_PREFIX = /^[\s:#.\-–=°º]*(?<p>\p{Lu}{1,3}) (?=\p{N})/u;

export function readIdentifier(line: Line, offset: number): ValueMatch | null {
  const rest = line.text.slice(offset);
  const leader = DOT_LEADER.exec(rest)?.[0].length ?? 0;
  if (leader) return readIdentifier(line, offset + leader);
  const prefix = ID_PREFIX.exec(rest);
  if (prefix && !/^(?:no|nr|n°|nº)$/iu.test(prefix.groups!.p!)) {
    const after = readIdentifier(line, offset + prefix[0].length);
    // On OCR pages a speck or a neighbour's letters read before a plain digit run look just like a prefix ("ER
    // 1234567"): there the number after it must be a structured one (a series "469/2022", digit groups).
    const structured = line.page.text_source !== "ocr" || /[/-]|\d \d/.test(String(after?.value ?? ""));
    if (after && structured && /^\p{N}/u.test(String(after.value)) && after.start === offset + prefix[0].length)
      return {
        ...after,
        value: `${prefix.groups!.p!} ${after.value}`,
        start: offset + prefix[0].length - prefix.groups!.p!.length - 1,
      };
  }
  const ocr = line.page.text_source === "ocr";
  const m = ID_RE.exec(ocr ? rest.replace(OCR_SPECK, "-").replace(OCR_LEAD, (s) => " ".repeat(s.length)) : rest);
  if (!m) return null;
  // The match ran over the specks as if they were dashes; the value leaves them out (offsets are unchanged).
  const v =
    line.page.text_source === "ocr"
      ? rest.slice(m[0].length - m.groups!.v!.length, m[0].length).replace(OCR_SPECK, "")
      : m.groups!.v!;
  if (!/\p{N}/u.test(v) || v.length < 3) return null;
  if (/^\d+[.,]\d{2}$|^\d{1,3}([.,']\d{3})+([.,]\d{2})?$/.test(v)) return null; // an amount, not a number of a document
  if (/^[.,]\d/.test(rest.slice(m[0].length))) return null; // the start of an amount ("7.362,40")
  const start = offset + m[0].length - m.groups!.v!.length;
  const dates = findDates(v, "dmy");
  if (dates.some((d) => d.start === 0 && d.end === v.length)) return null;
  // Long leading separators mean the "value" is far from its label.
  if (m[0].length - m.groups!.v!.length > 12) return null;
  // A number printed in digit groups ("2024 000117"): groups of three or more digits one space apart belong to it.
  // The last group may carry a check digit after a dash ("188 337 970-8").
  const found = /\d$/.test(v)
    ? /^(?: \d{3,}(?:-\d(?![\p{L}\p{N}.,\/\-]))?(?![\p{L}\p{N}.,\/\-]))+/u.exec(rest.slice(m[0].length))
    : null;
  // ... in its own block: across a column gap the digits are the next column's (a postcode beside the number).
  const room = found ? sameBlockEnd(line, start) - offset - m[0].length : 0;
  const groups = found?.[0]
    .match(/ \d+(?:-\d)?/g)
    ?.reduce((acc, g) => (acc.length + g.length <= room ? acc + g : acc), "");
  if (groups && /^(?: \d{3,})*(?: \d{3,}(?:-\d)?)$/.test(groups))
    return { value: v + groups, line, start, end: offset + m[0].length + groups.length, strength: 0.9 };
  return { value: v, line, start, end: offset + m[0].length, strength: /^[\p{L}]+$/u.test(v) ? 0.5 : 1 };
}

/** A label that says "number" ("Numer faktury", "Invoice No.", "Rechnungsnummer", "Facture n°", "Bill #"). */
export const NUMBER_LABEL = /(?:no|nr|number|nummer|numer|numéro|numero|número|n°|nº|#)\.?(?:\s|$)/iu;

/**
 * A document number shaped like a date ("12/06/2025", "FV 1/03/2024": sequence / month / year, the Polish and French
 * habit), right of a label that says it is a number: readIdentifier leaves date shapes alone, since after a bare
 * "Rechnung" or "Facture" one is the date.
 */
export function datedNumber(line: Line, offset: number): ValueMatch | null {
  const m = /^[\s:#.\-–=°º]*((?:\p{Lu}{1,4}[ /-]?)?\d{1,5}[/.-]\d{1,2}[/.-]\d{2,4})(?![\p{L}\p{N}]|[/.-]\d)/u.exec(
    line.text.slice(offset),
  );
  if (!m) return null;
  const start = offset + m[0].length - m[1]!.length;
  return { value: m[1]!, line, start, end: start + m[1]!.length, strength: 0.8 };
}
