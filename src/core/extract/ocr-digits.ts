/**
 * What a number OCR read may have been printed as: the readings one slip away from what it read. On scans the
 * slips of amounts are few and known (measured on the label-audit and e-invoice scans): a group separator read as a
 * digit ("2 158,16" → "27158,16", "1.112,39" → "1112739"), a digit doubled or lost, a separator read as a mark
 * that is none ("4 178,86" → "4°178,86"), a decimal mark lost ("3.748,77" → "3.74877"), and digits of similar
 * shape taken for one another (5/6/8/3/0, 1/7, 8/9). None of these readings is taken on its own: the arithmetic
 * of the document's sums decides (ocr-sums.ts), and only a reading that makes them add up is used.
 */
import { parseAmount } from "./normalize";

export interface DigitReading {
  value: number;
  /** What OCR got wrong if this is the printed value, for the field's reasoning. */
  slip: string;
  /** How unlikely the slip is: 0.5 for a mark between digit groups, 1 for one character, 1.5 for a digit lost. */
  cost: number;
}

/** Digits of similar shape in the fonts of invoices, as OCR confuses them on grainy scans. */
const CONFUSED: Record<string, string> = {
  "0": "689",
  "1": "74",
  "3": "58",
  "4": "1",
  "5": "368",
  "6": "058",
  "7": "1",
  "8": "03569",
  "9": "08",
};
const SEPARATORS = [".", ",", " "];
const DIGITS = "0123456789";

/** Marks OCR makes of a thin space or a speck between digit groups: no part of any amount. */
const JUNK = /(?<=\d)[°º'’‘`´"*:;~^](?=\d)/g;

/**
 * The amount `token` (as OCR read it, currency and all) may stand for, each with the slip that would explain it;
 * neither the value read nor unreadable strings. At most one slip per reading, after a mark between digit groups
 * is read as the space it stands for.
 */
export function amountReadings(token: string): DigitReading[] {
  const core = token
    .replace(/[A-Za-z€$£¥₹]+\.?/g, " ")
    .trim()
    .replace(/^[^\d-−]+|[^\d]+$/g, "");
  if ((core.match(/\d/g)?.length ?? 0) < 2) return [];
  const read = parseAmount(core);
  const found = new Map<number, DigitReading>();
  const add = (text: string, slip: string, cost: number) => {
    const value = parseAmount(text);
    if (value === null || value === read || value <= 0) return;
    const known = found.get(value);
    if (!known || known.cost > cost) found.set(value, { value, slip, cost });
  };
  const spaced = core.replace(JUNK, " ");
  if (spaced !== core) add(spaced, `"${core}" has a mark between its digit groups where a space was`, 0.5);
  for (const [base, extra] of [
    [core, 0],
    [spaced, 0.5],
  ] as const) {
    if (extra && base === core) continue;
    for (const [text, slip, cost] of oneSlip(base)) add(text, `"${core}": ${slip}`, cost + extra);
  }
  return [...found.values()].sort((a, b) => a.cost - b.cost);
}

/** Every string one slip away from `s`, with the slip and its cost. */
function* oneSlip(s: string): Generator<[string, string, number]> {
  const at = (i: number, put: string, drop = 1) => s.slice(0, i) + put + s.slice(i + drop);
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (/\d/.test(c)) {
      yield [at(i, ""), `the ${c} is one too many`, 1];
      for (const sep of SEPARATORS) yield [at(i, sep), `the ${c} is a separator read as a digit`, 1];
      for (const d of CONFUSED[c] ?? "") yield [at(i, d), `the ${c} is a ${d} read wrong`, 1];
    } else {
      yield [at(i, ""), `the "${c}" is a speck`, 1];
      for (const sep of SEPARATORS) if (sep !== c) yield [at(i, sep), `the "${c}" is a "${sep}"`, 1];
      for (const d of DIGITS) yield [at(i, d), `the "${c}" is a ${d} read as a mark`, 1.5];
    }
  }
  // A decimal mark lost: the last two digits are the cents.
  if (!/[.,]\d{1,2}$/.test(s) && /\d{3}$/.test(s)) {
    for (const mark of [",", "."]) yield [at(s.length - 2, mark, 0), `the decimal mark before the cents was lost`, 1];
  }
  // A digit lost (faint print, a digit run into the next).
  for (let i = 0; i <= s.length; i++) for (const d of DIGITS) yield [at(i, d, 0), `a ${d} was lost`, 1.5];
}
