/**
 * The date of a till receipt whose date was not found, read past what OCR does to a till's date marks:
 * - doubled marks ("15.. JUN 2022" for "15. JUN 2022", "24//09/2025");
 * - marks read as the other mark ("11.06,2021": a dot read as a comma);
 * - digits read as the letters they look like ("O8/O4/17 10:58", "DATE: 2l-03-2020"), in a date-shaped token before
 *   a time of day or after a date label only;
 * - slashes read as 7 or 1 in a date set beside its time of day ("08704717 10:55" for "08/04/17 10:55").
 * The head is looked at first (where most tills print the date), then the whole first page (European tills print
 * it at the foot). A repaired line must give a real calendar date in the document's date order.
 *
 * A date found with no label (the first date on the page) is the receipt's only when nothing says otherwise: a date
 * after a "Date" label, even one OCR glued to the word before it ("CS-1801-00883Date: 20/01/2018"), or else a date
 * printed with its time of day ("20/08/17 12:48", the till's timestamp) is taken before it: the first date may be
 * a promotion's dates ("25 AUG - 3 Sept 2017") or a reference number read as a date ("01011"). A first date that is a
 * limit ("VALID TILL 18/06/2025", an expiry) is never the receipt's: the next date is, or none.
 */
import type { Candidate } from "./candidate";
import type { Line } from "./lines";
import { type DateOrder, findDates } from "./normalize";

/** Lines of the head looked at first. */
const HEAD = 10;

const repairs: Array<{ why: string; fix: (text: string) => string }> = [
  { why: "doubled marks", fix: (t) => t.replace(/([.,/-])\1+/g, "$1") },
  {
    why: "a dot read as a comma",
    fix: (t) => t.replace(/(?<![\d.,])(\d{1,2})[.,](\d{1,2})[.,](\d{4}|\d{2})(?![\d.,])/g, "$1.$2.$3"),
  },
  {
    why: "letters read for digits",
    fix: (t) =>
      t.replace(CONFUSED_DATE, (m, _mark, at: number) =>
        (m.match(/\d/g)?.length ?? 0) >= 2 && dated(t, at, at + m.length) ? asDigits(m) : m,
      ),
  },
  {
    why: "slashes read as 7 or 1",
    fix: (t) => t.replace(/(?<!\d)(\d{2})[17](\d{2})[17](\d{2}|\d{4})(?=\s+\d{1,2}:\d{2})/g, "$1/$2/$3"),
  },
];

/**
 * A date-shaped token with letters OCR makes of digits in thermal print ("O8/O4/17", "2l-03-2020", "1S.06.2021"):
 * two groups of one or two characters and one of two or four, each a digit or such a letter, two digits at least.
 */
const CONFUSED_DATE =
  /(?<![\p{L}\p{N}])[\dOoQDIl|iSsBZ]{1,2}([/.-])[\dOoQDIl|iSsBZ]{1,2}\1(?:[\dOoQDIl|iSsBZ]{4}|[\dOoQDIl|iSsBZ]{2})(?![\p{L}\p{N}])/gu;
const DIGIT_OF: Record<string, string> = {
  O: "0",
  o: "0",
  Q: "0",
  D: "0",
  I: "1",
  l: "1",
  "|": "1",
  i: "1",
  S: "5",
  s: "5",
  B: "8",
  Z: "2",
};
const asDigits = (token: string) => token.replace(/[OoQDIl|iSsBZ]/g, (c) => DIGIT_OF[c]!);
/** Letters are read as digits only in a token the line says is a date: after a date label, or before a time of day. */
const dated = (text: string, start: number, end: number) =>
  DATE_LABEL.test(text.slice(Math.max(0, start - 12), start)) || TIME_AFTER.test(text.slice(end));

/** Below this a date was found without a label (the first-date fallbacks). */
const LABELLED = 0.55;
const DATE_LABEL = /(?:date|datum|tarikh|fecha|data)\s*[:.]?\s*$/iu;
const TIME_AFTER = /^\s*(?:\d{1,2}[:.]\d{2}(?![\d.])|\d{1,2}:\d{2})/u;

/** The receipt's date where `found` is a fallback another date beats (see the module comment), else `found`. */
export function labelledDate(found: Candidate | undefined, lines: Line[], dateOrder: DateOrder): Candidate | undefined {
  if (!found || found.score >= LABELLED) return found;
  const first = lines[0]?.page;
  let timed: Candidate | undefined;
  for (const line of lines) {
    if (line.page !== first) continue;
    for (const d of findDates(line.text, dateOrder)) {
      if (!d.iso) continue;
      const labelled = DATE_LABEL.test(line.text.slice(Math.max(0, d.start - 12), d.start));
      if (!labelled && !TIME_AFTER.test(line.text.slice(d.end))) continue;
      if (d.iso === found.match.value) return found;
      const why = labelled ? "after a Date label" : "printed with its time of day";
      const c: Candidate = {
        match: { value: d.iso, line, start: d.start, end: d.end, strength: 0.55 },
        score: 0.55,
        reasoning: `receipt date ${why} (page ${line.page.page_number}, line ${line.index + 1})`,
      };
      if (labelled) return c;
      timed ??= c;
    }
  }
  return timed ?? (validity(found.match.line.text, found.match.start) ? otherDate(found, lines, dateOrder) : found);
}

/**
 * Words before a date that make it a limit, not the sale's date: a return or voucher's validity ("VALID TILL
 * 18/06/2025", "gültig bis", "valable jusqu'au", "berlaku hingga"), an expiry or best-before date.
 */
const VALIDITY =
  /(?<![\p{L}])(valid\s*(?:till|until|thru|through|to)|expir(?:es|y|y\s*date)|exp\.?|best\s*before|use\s*by|gültig\s*bis|gultig\s*bis|valable\s*jusqu.?au|berlaku\s*(?:hingga|sampai)|geldig\s*tot|válido\s*hasta|valido\s*hasta|valido\s*fino\s*al)\s*[:.]?\s*$/iu;
const validity = (text: string, start: number) => VALIDITY.test(text.slice(Math.max(0, start - 24), start));

/** The first date of the first page that is no limit (see VALIDITY), other than `found`'s; none when there is none. */
function otherDate(found: Candidate, lines: Line[], dateOrder: DateOrder): Candidate | undefined {
  const first = lines[0]?.page;
  for (const line of lines) {
    if (line.page !== first) continue;
    for (const d of findDates(line.text, dateOrder)) {
      if (!d.iso || d.iso === found.match.value || validity(line.text, d.start)) continue;
      return {
        match: { value: d.iso, line, start: d.start, end: d.end, strength: found.match.strength },
        score: found.score,
        reasoning: `first date on the first page that is no validity limit (page ${line.page.page_number}, line ${line.index + 1})`,
      };
    }
  }
  return undefined;
}

export function misreadDate(lines: Line[], dateOrder: DateOrder): Candidate | undefined {
  const first = lines[0]?.page;
  const page = lines.filter((l) => l.page === first);
  return (
    dateIn(page.slice(0, HEAD), dateOrder, "the receipt's head") ?? dateIn(page.slice(HEAD), dateOrder, "the receipt")
  );
}

function dateIn(lines: Line[], dateOrder: DateOrder, where: string): Candidate | undefined {
  for (const line of lines) {
    for (const { why, fix } of repairs) {
      const date = findDates(fix(line.text), dateOrder).find((d) => d.iso);
      if (!date) continue;
      return {
        match: { value: date.iso!, line, start: 0, end: line.text.length, strength: 0.5 },
        score: 0.5,
        reasoning: `date in ${where}, read past ${why} (page ${line.page.page_number}, line ${line.index + 1})`,
      };
    }
  }
  return undefined;
}
