/**
 * Reading a typed value from a line, starting at a character offset (right after a label, or at the start of a
 * column cell). Each reader returns the value, the character range it came from and a match strength 0..1.
 */
import type { FieldValue } from "../model";
import type { Line } from "./lines";
import { AMOUNT_RE, type DateOrder, findDates, normalizePhone, parseAmount, EMAIL_RE, PHONE_RE } from "./normalize";
import { findCurrencies, GLUED_CODE, mayHoldGluedCode } from "./currencies";
import { ibanRead, readCompact, vatIdRead } from "./compact-values";
import type { ValueMatch } from "./value-match";
import { readIdentifier } from "./identifier-value";
import { sameBlockEnd } from "./labels";
import { tick } from "./gc-pace";
import { spaceGrouped } from "./space-grouped";

export type { ValueMatch } from "./value-match";

export type ValueKind =
  | "identifier"
  | "text"
  | "party"
  | "address"
  | "date"
  | "amount"
  | "number"
  | "iban"
  | "vat_id"
  | "email"
  | "phone"
  | "boolean"
  | "enum";

export interface ReadContext {
  dateOrder: DateOrder;
  /** Table header lines: no amount is read below a label standing there (see tableHeaderZone). */
  tableHeaders?: Set<Line>;
  /** Allowed values of enum fields. */
  values?: string[];
  /** Labels of the class's other amount fields: one standing between a label and an amount claims the amount. */
  foreignLabels?: string[];
}

/** Blanks out character ranges (keeping offsets) so that, e.g., dates are not read as amounts. */
function mask(text: string, ranges: Array<{ start: number; end: number }>): string {
  let out = text;
  for (const r of ranges) out = out.slice(0, r.start) + " ".repeat(r.end - r.start) + out.slice(r.end);
  return out;
}

function readDate(line: Line, offset: number, ctx: ReadContext): ValueMatch | null {
  // A speck OCR read between a month's name and the day ("Jan'1, 2022") stands where a space was (same length).
  const rest =
    line.page.text_source === "ocr"
      ? line.text.slice(offset).replace(/(?<=\p{L})['’‘`´](?=\d)/gu, " ")
      : line.text.slice(offset);
  for (const d of findDates(rest, ctx.dateOrder)) {
    if (d.start > 30) break;
    if (!d.iso) continue;
    // Words between label and date make the pairing weaker ("Date limite de paiement le 05 Juillet").
    const between = rest.slice(0, d.start).match(/[\p{L}]{2,}/gu)?.length ?? 0;
    return {
      value: d.iso,
      line,
      start: offset + d.start,
      end: offset + d.end,
      strength: between === 0 ? 1 : between <= 2 ? 0.8 : 0.6,
    };
  }
  return null;
}

export interface AmountHit {
  value: number;
  start: number;
  end: number;
  decimals: boolean;
  currency: string | null;
  currencyRange?: [number, number];
}

/** A time of day ("14:35", "09:05:59", "14:35h"): never an amount, however it sits next to a total. */
const TIME_RE = /(?<![\d.,:])\d{1,2}:\d{2}(?::\d{2})?(?![\d.,:])/g;
const timesIn = (text: string) =>
  [...text.matchAll(TIME_RE)].map((m) => ({ start: m.index!, end: m.index! + m[0].length }));

/**
 * Memo of findAmounts: the totals, table, party and locate searches read the same lines again and again. Callers
 * never change the hits. Bounded, and cleared per document with the date memo (clearAmountMemo).
 */
const amountMemo = new Map<string, readonly AmountHit[]>();

export function clearAmountMemo(): void {
  amountMemo.clear();
}

/** Every amount in `text` (dates, times of day and percentages skipped), with an adjacent currency if there is one. */
export function findAmounts(text: string, dateOrder: DateOrder = "dmy"): AmountHit[] {
  if (!/\d/.test(text)) return [];
  const key = dateOrder + text;
  const hit = amountMemo.get(key);
  if (hit) return hit as AmountHit[];
  if (amountMemo.size > 20000) amountMemo.clear();
  tick();
  const out = scanAmounts(text, dateOrder);
  amountMemo.set(key, out);
  return out;
}

const GLUED_RAND = /(?<![\p{L}\p{N}])R(?=\d{1,3}(?:[ \u00a0,]\d{3})*\.\d{2}(?![\d.,]))/gu;
/**
 * AMOUNT_RE run with exec (matchAll cloned the regex and built an iterator for each of a document's lines), a copy
 * of its own so that no other use of AMOUNT_RE can move its lastIndex; AMOUNT_RE never matches empty.
 */
const AMOUNT_SCAN = new RegExp(AMOUNT_RE.source, AMOUNT_RE.flags);
/** A percent sign after an amount (read at the amount's end: sticky). */
const PERCENT_AFTER = /\s*%/y;
/** Every grouped amount a grain mark can stand before (GRAIN_MARKS' lookahead) holds this (exported for its test). */
export const GROUPED_AMOUNT = /\d[.,']\d{3}[.,]\d{2}/;
export const GRAIN_MARKS = /(?<![\p{L}\p{N}.,])[.,'‘’]+(?=\d{1,3}[.,']\d{3}[.,]\d{2}(?!\d))/gu;
const blank = (m: string) => " ".repeat(m.length);

function scanAmounts(text: string, dateOrder: DateOrder): AmountHit[] {
  const masked = mask(text, [...findDates(text, dateOrder), ...(text.includes(":") ? timesIn(text) : [])]);
  const currencies = findCurrencies(masked);
  const out: AmountHit[] = [];
  // A currency written in letters may touch its amount ("RM48.40", "Rs.1939"): the letters are no part of a word.
  // So may an ISO code ("3.396,19EUR", "EUR12,50").
  let amountsText = /(?:RM|Rp|Rs)\.?\d/.test(masked)
    ? masked.replace(/(?<![\p{L}])(?:RM|Rp|Rs)\.?(?=\d)/gu, blank)
    : masked;
  if (mayHoldGluedCode(amountsText)) amountsText = amountsText.replace(GLUED_CODE, blank);
  // The rand's "R" glued to a decimal amount ("R869.40", "R1 025.02") is its sign, as "$" is (AMOUNT_RE's `¤`).
  if (amountsText.includes("R")) amountsText = amountsText.replace(GLUED_RAND, "¤");
  // Marks OCR read from the grain, glued before a grouped amount (".1.344,00", "..1.344,00"), are no decimal point.
  if (GROUPED_AMOUNT.test(amountsText)) amountsText = amountsText.replace(GRAIN_MARKS, blank);
  AMOUNT_SCAN.lastIndex = 0;
  for (let m = AMOUNT_SCAN.exec(amountsText); m; m = AMOUNT_SCAN.exec(amountsText)) {
    const start = m.index;
    const end = start + m[0].length;
    PERCENT_AFTER.lastIndex = end;
    if (PERCENT_AFTER.test(masked)) continue;
    const value = parseAmount(m[0]);
    if (value === null) continue;
    const cur = currencies.find(
      (c) => (c.end <= start && start - c.end <= 2) || (c.start >= end && c.start - end <= 2),
    );
    out.push({
      value,
      start,
      end,
      decimals: /[.,]\d{1,2}-?$/.test(m[0]),
      currency: cur?.code ?? null,
      currencyRange: cur ? [cur.start, cur.end] : undefined,
    });
  }
  return out;
}

/**
 * Cents OCR read apart from their amount ("RM95. 7 5", "380. 00", "12, 5 0"): no amount has a space after its
 * decimal mark, so the digits after it are moved back against it. Same length (the spaces go to the end), so
 * offsets into the text still point at the same words.
 */
export function joinedCents(text: string): string {
  return text.replace(
    /(\d[.,])( +)(\d)( *)(\d)(?![\d.,]| \d)/g,
    (_, head: string, a: string, d1: string, b: string, d2: string) => `${head}${d1}${d2}${a}${b}`,
  );
}

/**
 * Amounts right of a label: walks left to right and stops at the next word (3+ letters, not a currency) once an
 * amount was read, so "Net € 593,36 Subtotal € 717,97" gives 593,36. Of the amounts read, the rightmost with
 * decimals or a currency wins (summary rows print net, tax, gross: gross comes last).
 */
function readAmount(line: Line, offset: number, ctx: ReadContext): ValueMatch | null {
  const rest = line.page.text_source === "ocr" ? joinedCents(line.text.slice(offset)) : line.text.slice(offset);
  const amounts = findAmounts(rest, ctx.dateOrder);
  const taken: AmountHit[] = [];
  let prevEnd = 0;
  for (const a of amounts) {
    const gap = mask(rest.slice(prevEnd, a.start), findCurrencies(rest.slice(prevEnd, a.start)));
    if (taken.length && /[\p{L}]{3,}/u.test(gap)) break;
    if (!taken.length && (gap.match(/[\p{L}]{2,}/gu)?.length ?? 0) > 4) break;
    taken.push(a);
    prevEnd = a.end;
  }
  const strong = taken.filter((a) => a.decimals || a.currency);
  const pick = strong.length ? strong[strong.length - 1]! : taken.find((a) => Math.abs(a.value) < 1e6);
  if (!pick) return null;
  const grouped = !pick.currency && spaceGrouped(line, offset + pick.start, offset + pick.end);
  if (grouped) return { value: grouped.value, line, start: grouped.start, end: offset + pick.end, strength: 1 };
  const s = pick.currencyRange ? Math.min(pick.start, pick.currencyRange[0]) : pick.start;
  const e = pick.currencyRange ? Math.max(pick.end, pick.currencyRange[1]) : pick.end;
  const strength = pick.decimals ? 1 : pick.currency ? 0.9 : 0.5;
  return { value: pick.value, line, start: offset + s, end: offset + e, strength, note: pick.currency ?? undefined };
}

function readNumber(line: Line, offset: number): ValueMatch | null {
  const m = /^[\s:#=]*([-−]?\d+(?:[.,]\d+)?)(?![\p{L}\p{N}])/u.exec(line.text.slice(offset));
  if (!m) return null;
  const value = Number(m[1]!.replace(",", ".").replace("−", "-"));
  const start = offset + m[0].length - m[1]!.length;
  return Number.isFinite(value) ? { value, line, start, end: start + m[1]!.length, strength: 1 } : null;
}

/** Rest of the line (same block), separators trimmed; the first word must be near the label. */
function readText(line: Line, offset: number): ValueMatch | null {
  const next = line.words.find(
    (w) => w.end > offset && /[\p{L}\p{N}]/u.test(line.text.slice(Math.max(w.start, offset), w.end)),
  );
  const prev = line.words.findLast((w) => w.start < offset);
  // Far from its label, the text may be the next column's header rather than the value.
  const far = next && prev && next.box[0] - prev.box[2] > (line.box[3] - line.box[1]) * 5;
  let end = sameBlockEnd(line, offset);
  // A word ending in ":" is the next label, not part of this value.
  const nextLabel = line.words.find((w) => w.start >= offset && w.end <= end && /[\p{L}]:$/u.test(w.word.text));
  if (nextLabel) end = nextLabel.start;
  const raw = line.text.slice(offset, end);
  const lead = /^[\s:#.\-–=]*/.exec(raw)![0].length;
  const value = raw.slice(lead).replace(/[\s,;:]+$/, "");
  if (!/[\p{L}\p{N}]/u.test(value)) return null;
  return { value, line, start: offset + lead, end: offset + lead + value.length, strength: far ? 0.6 : 0.9 };
}

function readRegex(line: Line, offset: number, re: RegExp, normalise: (s: string) => string | null): ValueMatch | null {
  const rest = line.text.slice(offset);
  for (const m of rest.matchAll(new RegExp(re.source, re.flags.includes("g") ? re.flags : re.flags + "g"))) {
    const value = normalise(m[0]);
    if (value) return { value, line, start: offset + m.index!, end: offset + m.index! + m[0].length, strength: 1 };
  }
  return null;
}

function readBoolean(line: Line, offset: number): ValueMatch | null {
  const m = /^[\s:]*(yes|no|true|false|ja|nein|oui|non|x|☑|☒|✓)/iu.exec(line.text.slice(offset));
  if (!m) return null;
  const start = offset + m[0].length - m[1]!.length;
  return { value: /^(yes|true|ja|oui|x|☑|☒|✓)$/i.test(m[1]!), line, start, end: start + m[1]!.length, strength: 0.9 };
}

function readEnum(line: Line, offset: number, ctx: ReadContext): ValueMatch | null {
  const rest = line.text.slice(offset).toLowerCase();
  for (const v of ctx.values ?? []) {
    const i = rest.indexOf(v.toLowerCase());
    if (i >= 0 && i < 30) return { value: v, line, start: offset + i, end: offset + i + v.length, strength: 0.9 };
  }
  return null;
}

/** Reads a value of `kind` from `line` at `offset`, or null when none is there. */
export function readValue(kind: ValueKind, line: Line, offset: number, ctx: ReadContext): ValueMatch | null {
  tick();
  switch (kind) {
    case "identifier":
      return readIdentifier(line, offset);
    case "date":
      return readDate(line, offset, ctx);
    case "amount":
      return readAmount(line, offset, ctx);
    case "number":
      return readNumber(line, offset);
    case "text":
    case "party":
    case "address":
      return readText(line, offset);
    case "iban":
      return readCompact(line, offset, 9, (s) => ibanRead(s, line.page.text_source === "ocr"));
    case "vat_id":
      return readCompact(line, offset, 5, vatIdRead);
    case "email":
      return readRegex(line, offset, EMAIL_RE, (s) => s.toLowerCase());
    case "phone":
      return readRegex(line, offset, PHONE_RE, normalizePhone);
    case "boolean":
      return readBoolean(line, offset);
    case "enum":
      return readEnum(line, offset, ctx);
  }
}
