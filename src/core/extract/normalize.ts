/**
 * Value recognisers and normalisers: dates (ISO out, locale-aware day/month order in), amounts (numbers out of
 * `1.234,56`, `1,234.56`, `1 234,56`, `(12.00)`, `12.00-`), VAT IDs, e-mail addresses and phone numbers. Currencies
 * are read in currencies.ts, IBANs checked in iban-check.ts.
 * Pure functions over strings; no page geometry here.
 */
import { COUNTRY_CAP, countryEvidence, weekdayEvidence } from "./date-order";
import { dateMatches, type DateSearch, monthNamesOf } from "./date-scan";
import { tick } from "./gc-pace";
import { MONTH_NAMES } from "./month-names";

/** Day/month order for numeric dates: `dmy` (most of the world) or `mdy` (US). */
export type DateOrder = "dmy" | "mdy";

/** Month names in the date languages (month-names-cldr.ts says which and how). */
const MONTHS: Readonly<Record<string, number>> = MONTH_NAMES;
const MONTH_ALT = Object.keys(MONTHS)
  .sort((a, b) => b.length - a.length)
  .join("|");

const B = "(?<![\\p{L}\\p{N}])";
const E = "(?![\\p{L}\\p{N}])";
/** The date forms of numbers only, then those with a month name; named groups tell which part is which. */
const NUMERIC_DATES = [
  // ISO dates may carry a time ("2024-03-12T10:00").
  `${B}(?<iy>\\d{4})[-/.](?<im>\\d{1,2})[-/.](?<id>\\d{1,2})(?=$|[^\\p{L}\\p{N}]|T\\d)`,
  // The same separator twice: "1-13.20" (an item count and a price) is no date, and would vote for month-first.
  // A four-digit year may stand a space after the month's dot, as OCR often reads it ("13.04. 2018").
  `${B}(?<na>\\d{1,2})(?<ns>[./-])(?<nb>\\d{1,2})\\k<ns>(?<ny>\\d{4}|\\d{2}|(?<=\\.) \\d{4})${E}`,
];
const MONTH_NAME_DATES = [
  // The day's dot may come with a speck OCR read from the grain ("15.:JUN 2022", "15..JUN 2022").
  `${B}(?<dd>\\d{1,2})(?:\\.[.:,]?|st|nd|rd|th|er)?\\s*(?:de\\s+)?(?<dm>${MONTH_ALT})\\.?,?\\s*(?:de\\s+)?(?<dy>\\d{4}|\\d{2}(?![:.,]?\\d))${E}`,
  `${B}(?<mm>${MONTH_ALT})\\.?\\s+(?<md>\\d{1,2})(?:st|nd|rd|th)?\\s*,?\\s*(?<my>\\d{4})${E}`,
  // "12-Mar-2024", "12/Mar/24": dashes or slashes around a month name, year of two or four digits.
  `${B}(?<hd>\\d{1,2})[-/](?<hm>${MONTH_ALT})\\.?[-/](?<hy>\\d{4}|\\d{2})${E}`,
];
/** Every date form we read. */
export const DATE_RE = new RegExp([...NUMERIC_DATES, ...MONTH_NAME_DATES].join("|"), "giu");
/** DATE_RE in parts, so the month names are tried only where one could start (date-scan.ts). */
const DATE_SEARCH: DateSearch = {
  all: DATE_RE,
  numeric: new RegExp(NUMERIC_DATES.join("|"), "giu"),
  monthNamed: new RegExp(MONTH_NAME_DATES.join("|"), "iuy"),
  months: monthNamesOf(Object.keys(MONTHS)),
};

export interface DateMatch {
  start: number;
  end: number;
  /** ISO date, or null when the parts do not make a calendar date. */
  iso: string | null;
  /** For numeric a/b/y dates: the two leading numbers (for the day/month order vote). */
  numeric?: [number, number];
}

function iso(y: number, m: number, d: number): string | null {
  if (y < 100) y += y >= 70 ? 1900 : 2000;
  if (m < 1 || m > 12 || d < 1 || d > 31 || y < 1900 || y > 2200) return null;
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCMonth() !== m - 1) return null;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** Memo of findDates: the same lines are searched for dates by many fields. Bounded, cleared when full. */
const dateMemo = new Map<string, DateMatch[]>();

/** Forgets memoised dates; extraction calls it per document so the memo never outlives one document. */
export function clearDateMemo(): void {
  dateMemo.clear();
}

/** Finds every date in `text`; numeric day/month order follows `order`. */
export function findDates(text: string, order: DateOrder): DateMatch[] {
  // No digit, no date: skips the large month-name alternation for most lines.
  if (!/\d/.test(text)) return [];
  const key = order + text;
  const hit = dateMemo.get(key);
  if (hit) return hit;
  if (dateMemo.size > 20000) dateMemo.clear();
  tick();
  const out = scanDates(text, order);
  dateMemo.set(key, out);
  return out;
}

function scanDates(text: string, order: DateOrder): DateMatch[] {
  const out: DateMatch[] = [];
  for (const m of dateMatches(text, DATE_SEARCH)) {
    const g = m.groups!;
    const start = m.index!;
    const end = start + m[0].length;
    if (g.iy) out.push({ start, end, iso: iso(+g.iy, +g.im!, +g.id!) });
    else if (g.na) {
      const a = +g.na,
        b = +g.nb!;
      // A number above 12 settles the order whatever the locale says.
      const dayFirst = a > 12 ? true : b > 12 ? false : order === "dmy";
      out.push({ start, end, iso: dayFirst ? iso(+g.ny!, b, a) : iso(+g.ny!, a, b), numeric: [a, b] });
    } else if (g.dd) out.push({ start, end, iso: iso(+g.dy!, MONTHS[g.dm!.toLowerCase()]!, +g.dd) });
    else if (g.mm) out.push({ start, end, iso: iso(+g.my!, MONTHS[g.mm.toLowerCase()]!, +g.md!) });
    else if (g.hd) out.push({ start, end, iso: iso(+g.hy!, MONTHS[g.hm!.toLowerCase()]!, +g.hd) });
  }
  return out;
}

/** Normalises one date string to ISO `YYYY-MM-DD`, or null. */
export function normalizeDate(text: string, order: DateOrder = "dmy"): string | null {
  return findDates(text, order).find((d) => d.iso)?.iso ?? null;
}

/** A digit, a separator, one or two digits, a separator, a digit: part of every numeric date (DATE_RE's na/nb/ny). */
export const NUMERIC_DATE_HINT = /\d[./-]\d{1,2}[./-]\d/;

/**
 * Decides the document's numeric date order, from the document before any default: each date it prints with a first
 * number above 12 proves day-first, with a second above 12 month-first (DATE_POINTS each); next to them, where the
 * document comes from (extract/date-order.ts: currency, phone country code, tax registrations, company forms, country,
 * language; at most COUNTRY_CAP points, less than one such date) and US cues (a state-and-ZIP address, dollars with
 * English words: `usHint`, asked only when needed). A project `locale` other than `auto` replaces the country
 * evidence (`en-US` → mdy).
 * Without any evidence: day-first, the habit of most of the world.
 */
export function inferDateOrder(texts: string[], locale: string, usHint: boolean | (() => boolean)): DateOrder {
  let dmy = 0,
    mdy = 0,
    numeric = false;
  for (const t of texts) {
    // Only numeric dates count, and each holds this pattern: a text without it is not scanned (~half the documents).
    if (!NUMERIC_DATE_HINT.test(t)) continue;
    numeric = true;
    for (const d of findDates(t, "dmy")) {
      if (!d.numeric) continue;
      if (d.numeric[0] > 12) dmy++;
      else if (d.numeric[1] > 12) mdy++;
    }
  }
  // A weekday printed beside a date proves its order as a day above 12 does (date-order.ts weekdayEvidence).
  for (const t of texts) {
    if (!NUMERIC_DATE_HINT.test(t)) continue;
    const w = weekdayEvidence(t);
    dmy += w.dmy;
    mdy += w.mdy;
  }
  if (locale !== "auto") {
    if (dmy !== mdy) return dmy > mdy ? "dmy" : "mdy";
    return /^en-(US|PH|CA)$/i.test(locale) ? "mdy" : "dmy";
  }
  const us = () => (typeof usHint === "function" ? usHint() : usHint);
  // No numeric date to read: the order changes nothing, and the country need not be looked for.
  if (!numeric) return us() ? "mdy" : "dmy";
  // Each side's country and US points stay within COUNTRY_CAP, less than one date's DATE_POINTS: dates that
  // disagree in number settle the order whatever the country, which need not be looked for then.
  if (dmy !== mdy) return dmy > mdy ? "dmy" : "mdy";
  const country = countryEvidence(texts.join("\n"));
  const forUs = Math.min(
    COUNTRY_CAP,
    country.mdy + (us() ? US_ENGLISH_POINTS : 0) + (texts.some(looksUs) ? US_ADDRESS_POINTS : 0),
  );
  const forDmy = DATE_POINTS * dmy + country.dmy;
  const forMdy = DATE_POINTS * mdy + forUs;
  return forMdy > forDmy ? "mdy" : "dmy";
}

/**
 * Points of one unambiguous date (see inferDateOrder): more than any country evidence, so a date the document prints
 * day-first (or month-first) settles the order; the country decides only between equal counts.
 */
const DATE_POINTS = COUNTRY_CAP + 1;
/** Dollars with mostly English words (extract.ts looksUsEnglish); a US state-and-ZIP address. */
const US_ENGLISH_POINTS = 3;
const US_ADDRESS_POINTS = 4;

const US_STATES =
  "AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY";
const US_ZIP = new RegExp(
  `(?:,\\s*|^)(?:${US_STATES})\\s\\d{5}(?:-\\d{4})?[ \\t]*(?:,?\\s*(?:USA|U\\.S\\.A\\.|United States))?$`,
  "m",
);

/**
 * A US cue besides the dollar sign: a state-and-ZIP address ending its line ("Austin, TX 78701", or "TX 78701"
 * alone when OCR split the city off), with no euro or pound on the document.
 */
function looksUs(text: string): boolean {
  if (/€|£|\b(EUR|GBP|CHF)\b/.test(text)) return false;
  return US_ZIP.test(text);
}

/**
 * Amount-like numbers. Groups: sign, body, trailing minus. Space thousands only with a comma decimal or none, or
 * with a decimal point right after a currency sign ("R 12 450.00", "$1 025.02": South African software prints them
 * so; without the sign "4 368.80" in a row is a quantity and a price; `¤` stands for a sign glued to its amount); Indian grouping (lakh, crore: "2,30,669.24",
 * "1,23,45,678") with commas and a decimal point.
 */
export const AMOUNT_RE =
  /(?<![\p{L}\p{N}.,\/])(?<sign>[-−–]\s?)?(?<body>(?<=(?:[$€£¤]|(?<![\p{L}])R)\s?)\d{1,3}(?:[ \u00a0\u202f]\d{3})+\.\d{2}(?![\d.,])|\d{1,3}(?:[ '\u00a0\u202f]\d{3})+(?:,\d{1,2})?(?![.\d])|\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{1,2})?|\d{1,3}(?:[.,'’]\d{3})+(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?)(?![\p{N}\p{L}]|[.,]\d)(?<trail>-)?/gu;

const SIMPLE_AMOUNT = /^(\d+)(?:[.,](\d{1,2}))?$/;

/**
 * Parses an amount string to a number, or null. The last `.` or `,` followed by one or two digits is the decimal
 * separator; other separators (`.`, `,`, space, apostrophe) group thousands. `(12.00)` and `12.00-` are negative.
 */
export function parseAmount(raw: string): number | null {
  // Digits with one or two decimals or none ("12", "4918.84", "5,40"), most of what the amount scans pass: the steps
  // of parseFormattedAmount leave them as they are and read the same number (a test holds the two equal).
  const simple = SIMPLE_AMOUNT.exec(raw);
  if (simple) {
    const value = Number(`${simple[1]}.${simple[2] || "0"}`);
    return Number.isFinite(value) ? value : null;
  }
  return parseFormattedAmount(raw);
}

/** parseAmount's steps for any amount string (exported for the test that holds parseAmount's quick path to them). */
export function parseFormattedAmount(raw: string): number | null {
  let s = raw
    .trim()
    .replace(/[A-Za-z€$£¥₹₽₺₩]+\.?/g, "")
    .trim();
  let negative = false;
  if (/^\(.*\)$/.test(s)) {
    negative = true;
    s = s.slice(1, -1).trim();
  }
  if (/^[-−–]/.test(s)) {
    negative = true;
    s = s.replace(/^[-−–]\s*/, "");
  }
  if (/-$/.test(s)) {
    negative = true;
    s = s.slice(0, -1).trim();
  }
  if (!/^\d[\d.,'’ \u00a0\u202f]*$/.test(s)) return null;
  const compact = s.replace(/[ '’\u00a0\u202f]/g, "");
  const decimal = /[.,](\d{1,2})$/.exec(compact);
  let intPart = decimal ? compact.slice(0, decimal.index) : compact;
  const fraction = decimal ? decimal[1]! : "";
  if (!/^\d{1,3}([.,]\d{3})*$|^\d+$|^\d{1,2}(,\d{2})+,\d{3}$/.test(intPart)) return null;
  intPart = intPart.replace(/[.,]/g, "");
  const value = Number(`${intPart}.${fraction || "0"}`);
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}

/** EU (and Swiss/UK/Norwegian) VAT identifier formats, compact (no spaces or dots). */
const VAT_RE =
  /^(ATU\d{8}|BE[01]\d{9}|BG\d{9,10}|CY\d{8}[A-Z]|CZ\d{8,10}|DE\d{9}|DK\d{8}|EE\d{9}|EL\d{9}|GR\d{9}|ES[A-Z0-9]\d{7}[A-Z0-9]|FI\d{8}|FR[A-HJ-NP-Z0-9]{2}\d{9}|GB(\d{9}|\d{12})|XI\d{9}|HR\d{11}|HU\d{8}|IE\d[A-Z0-9+*]\d{5}[A-Z]{1,2}|IT\d{11}|LT(\d{9}|\d{12})|LU\d{8}|LV\d{11}|MT\d{8}|NL\d{9}B\d{2}|PL\d{10}|PT\d{9}|RO\d{2,10}|SE\d{10}01|SI\d{8}|SK\d{10}|CHE\d{9}(MWST|TVA|IVA)?|NO\d{9}(MVA)?)$/;

/** Compacts a VAT ID candidate (spaces, dots, dashes removed, upper case) and returns it when the format fits. */
export function normalizeVatId(raw: string): string | null {
  const compact = raw.replace(/[\s.\-]/g, "").toUpperCase();
  return VAT_RE.test(compact) ? compact : null;
}

export const EMAIL_RE = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.[\p{L}]{2,}/gu;
export const PHONE_RE = /(?<![\p{L}\p{N}])(?:\+|00)?\(?\d{1,4}\)?(?:[ .\-\/]?\(?\d{1,4}\)?){2,6}(?![\p{L}\p{N}])/gu;

/** Normalises a phone number to digits with an optional leading +, or null when it has too few digits. */
export function normalizePhone(raw: string): string | null {
  const plus = /^\s*(\+|00)/.test(raw);
  // "+49 (0)30 ..." : the bracketed trunk zero is dialled only from inside the country.
  const digits = (plus ? raw.replace(/\(0\)/g, "") : raw).replace(/\D/g, "").replace(/^00/, "");
  if (digits.length < 7 || digits.length > 15) return null;
  return plus ? `+${digits}` : digits;
}
