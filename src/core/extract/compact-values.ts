/**
 * Values printed with separators that are no part of them: IBANs and VAT IDs, read by joining words ("DE89 3704 0044
 * 0532 0130 00", "CHE-123.456.789 MWST") and compacting them. `readCompact` joins while a reader says longer text
 * could still give a value.
 */
import type { Line } from "./lines";
import { normalizeVatId } from "./normalize";
import { isValidIban } from "./iban-check";
import { repairCheckDigits, repairIban } from "./iban-repair";
import type { ValueMatch } from "./value-match";

/**
 * What a compact reader makes of the words joined so far: the value they read (or null), and whether more words
 * could still give one. `more` MUST be true whenever some longer text (this text plus more) reads a value: the
 * readers' prefix tests (test/core/quick-tests.test.ts holds them to that on every corpus line).
 */
export interface CompactRead {
  value: string | null;
  more: boolean;
}

/**
 * Joins up to `max` words from `offset` while the compacted text can still grow into a value. Stopping when `more`
 * is false saves most of the tries: every number on a page may start an IBAN (the recogniser tries each one with
 * up to nine words), and none with a digit first can be one on a text layer (~60 ms per 500 pages in a warm server).
 */
export function readCompact(
  line: Line,
  offset: number,
  max: number,
  read: (raw: string) => CompactRead,
): ValueMatch | null {
  // The first max + 1 words ending after `offset` (what filter and slice would give, without copying the line).
  const words: Line["words"] = [];
  for (const w of line.words) if (w.end > offset && words.push(w) > max) break;
  for (let i = 0; i < Math.min(3, words.length); i++) {
    let best: ValueMatch | null = null;
    for (let j = i; j < words.length && j < i + max; j++) {
      const start = Math.max(words[i]!.start, offset);
      const raw = line.text.slice(start, words[j]!.end);
      const { value, more } = read(raw.replace(/^[\s:#.\-]+/, ""));
      if (value) best = { value, line, start, end: words[j]!.end, strength: 1 };
      if (!more) break;
    }
    if (best) return best;
  }
  return null;
}

/** Longest compact IBAN (ISO 13616: 34 characters) and VAT ID (CHE + nine digits + MWST: 16). */
const IBAN_MAX = 34;
const VAT_ID_MAX = 16;

/**
 * An IBAN read from joined words; `more` while the compact text is at most 34 long and its start can still fit. A
 * sentence's punctuation after the last group is no part of it ("… a la cuenta DE79 0000 0000 1234 5678 90, indicando").
 */
export function ibanRead(raw: string, ocr: boolean): CompactRead {
  const compact = raw
    .replace(/[.,;:)]+$/, "")
    .replace(/[\s-]/g, "")
    .toUpperCase();
  return { value: readIban(compact, ocr), more: compact.length <= IBAN_MAX && ibanStartFits(compact, ocr) };
}

/**
 * Whether the first four characters (those there are) can begin an IBAN: two letters and two digits, or, on OCR
 * text, characters readIban repairs into them. Upper case never changes what comes before (toUpperCase maps each
 * character on its own), so a longer text has the same start.
 */
function ibanStartFits(compact: string, ocr: boolean): boolean {
  for (let k = 0; k < Math.min(4, compact.length); k++) {
    const c = compact[k]!;
    const ok =
      k < 2
        ? isAsciiUpperChar(c) || (ocr && Object.hasOwn(AS_LETTER, c))
        : (c >= "0" && c <= "9") || (ocr && Object.hasOwn(AS_DIGIT, c));
    if (!ok) return false;
  }
  return true;
}

/**
 * A VAT ID read from joined words (normalizeVatId); `more` while at most 16 long and its start can still be one: a
 * country code of VAT_RE (normalize.ts), then a digit, or the letter that code's format has there (ATU, CHE; Spain and
 * France allow letters).
 */
export function vatIdRead(text: string): CompactRead {
  // OCR reads the I of IE or IT as a bar or bracket ("|E8285699M"); joined to the number it is no separator.
  const raw = text.replace(/^[|[](?=[ET]\d)/, "I");
  // Two letters and a full stop are an abbreviation ("No. 123456789" after "GST/HST"), not a country code.
  if (/^[A-Za-z]{2}\./.test(raw)) return { value: null, more: false };
  const compact = raw.replace(/[\s.\-]/g, "").toUpperCase();
  return { value: normalizeVatId(compact), more: compact.length <= VAT_ID_MAX && vatStartFits(compact) };
}

/** VAT_RE's country codes and what each allows as its third character besides a digit. */
const VAT_THIRD = new Map<string, (c: string) => boolean>([
  ..."BE BG CY CZ DE DK EE EL GR FI GB XI HR HU IE IT LT LU LV MT NL PL PT RO SE SI SK NO"
    .split(" ")
    .map((code) => [code, () => false] as [string, (c: string) => boolean]),
  ["AT", (c: string) => c === "U"],
  ["CH", (c: string) => c === "E"],
  ["ES", isAsciiUpperChar],
  ["FR", isAsciiUpperChar],
]);

function vatStartFits(compact: string): boolean {
  if (compact.length < 2) return compact.length === 0 || isAsciiUpperChar(compact[0]!);
  const third = VAT_THIRD.get(compact.slice(0, 2));
  if (!third) return false;
  if (compact.length < 3) return true;
  const c = compact[2]!;
  return (c >= "0" && c <= "9") || third(c);
}

function isAsciiUpperChar(c: string): boolean {
  return c >= "A" && c <= "Z";
}

const AS_LETTER: Record<string, string> = { "0": "O", "1": "I", "5": "S", "8": "B", "2": "Z", "[": "I", "|": "I" };
const AS_DIGIT: Record<string, string> = { O: "0", I: "1", L: "1", S: "5", B: "8", Z: "2" };

/**
 * A compact, checksum-valid IBAN, or null. On OCR text a misread country code or check digit ("1T93" for "IT93",
 * "DEB9" for "DE89") is repaired first; the mod-97 checksum still has to pass, so a repair cannot invent an IBAN.
 */
function readIban(raw: string, ocr: boolean): string | null {
  const compact = raw.replace(/[\s-]/g, "").toUpperCase();
  if (isValidIban(compact)) return compact;
  if (!ocr || compact.length < 15) return null;
  const country = [...compact.slice(0, 2)].map((c) => AS_LETTER[c] ?? c).join("");
  const check = [...compact.slice(2, 4)].map((c) => AS_DIGIT[c] ?? c).join("");
  const repaired = country + check + compact.slice(4);
  if (isValidIban(repaired)) return repaired;
  // The account part by the country's format: misread digits and letters, a speck read as a character (iban-repair.ts).
  if (!/^[A-Z]{2}$/.test(country)) return null;
  const fixed = /^\d{2}$/.test(check) ? repairIban(country + check, compact.slice(4)) : null;
  return fixed ?? repairCheckDigits(country, compact.slice(2, 4), compact.slice(4));
}
