/**
 * IBANs as OCR reads them, repaired by the country's account format (ISO 13616 registry: which positions of the
 * BBAN hold digits, which letters) and the mod-97 checksum. OCR misreads "0" as "O" in a digit position, "O" as
 * "0" in a bank code ("RAB0"), reads a speck as an extra character ("INGBO0683…", "00BS5"), or leaves a dot at the
 * end ("…7404 66."). A repair is taken only when the checksum passes, and a dropped character only when exactly
 * one choice passes: the checksum catches 96 of 97 wrong guesses, and no repair is tried beyond one dropped
 * character and the characters that cannot stand where they are.
 */
import { isValidIban } from "./iban-check";

/** BBAN formats: n digits, a letters, c either (runs as in the registry: "4a10n" for the Netherlands). */
const BBAN: Record<string, string> = {
  AT: "16n",
  BE: "12n",
  CH: "5n12c",
  DE: "18n",
  DK: "14n",
  ES: "20n",
  FI: "14n",
  FR: "10n11c2n",
  GB: "4a14n",
  IE: "4a14n",
  IT: "1a10n12c",
  LU: "3n13c",
  NL: "4a10n",
  NO: "11n",
  PL: "24n",
  PT: "21n",
  SE: "20n",
};

const AS_LETTER: Record<string, string> = { "0": "O", "1": "I", "5": "S", "8": "B", "2": "Z", "6": "G", "4": "A" };
const AS_DIGIT: Record<string, string> = {
  O: "0",
  Q: "0",
  D: "0",
  I: "1",
  L: "1",
  T: "7",
  S: "5",
  B: "8",
  Z: "2",
  G: "6",
};

/** Position kinds of a country's BBAN, or null for a country not listed. */
const kindsMemo = new Map<string, string[] | null>();
function kindsOf(country: string): string[] | null {
  let kinds = kindsMemo.get(country);
  if (kinds === undefined) {
    const spec = BBAN[country];
    kinds = spec ? [...spec.matchAll(/(\d+)([nac])/g)].flatMap((m) => Array<string>(Number(m[1])).fill(m[2]!)) : null;
    kindsMemo.set(country, kinds);
  }
  return kinds;
}

/** The BBAN with each character coerced to its position's kind (null when one cannot be). */
function coerced(bban: string, kinds: string[]): string | null {
  let out = "";
  for (let i = 0; i < bban.length; i++) {
    const c = bban[i]!;
    const digit = c >= "0" && c <= "9";
    if (kinds[i] === "n") out += digit ? c : (AS_DIGIT[c] ?? "?");
    else if (kinds[i] === "a") out += digit ? (AS_LETTER[c] ?? "?") : c;
    else out += c;
  }
  return out.includes("?") ? null : out;
}

/**
 * A checksum-valid IBAN from OCR text already read as country + check digits + rest (`head` is the first four,
 * repaired), or null. Only for countries whose format is listed.
 */
export function repairIban(head: string, rest: string): string | null {
  const kinds = kindsOf(head.slice(0, 2));
  if (!kinds) return null;
  const bban = rest.replace(/[^A-Z0-9]/g, "");
  const valid = (b: string) => {
    const c = b.length === kinds.length ? coerced(b, kinds) : null;
    return c && isValidIban(head + c) ? head + c : null;
  };
  if (bban.length === kinds.length) return valid(bban);
  if (bban.length !== kinds.length + 1) return null;
  const found = new Set<string>();
  for (let i = 0; i < bban.length; i++) {
    const v = valid(bban.slice(0, i) + bban.slice(i + 1));
    if (v) found.add(v);
  }
  return found.size === 1 ? [...found][0]! : null;
}

/**
 * As repairIban, when a check digit was read as a letter no digit is confused with (or its usual digit fails the
 * checksum): every digit is tried there, and only a single passing IBAN is taken.
 */
export function repairCheckDigits(country: string, check: string, rest: string): string | null {
  const at = [0, 1].filter((i) => !/\d/.test(check[i]!));
  // Only a letter stands for a lost digit, and only in an IBAN whose country format says what the rest must be.
  if (at.length !== 1 || !/[A-Z]/.test(check[at[0]!]!) || !kindsOf(country)) return null;
  const found = new Set<string>();
  for (let d = 0; d <= 9; d++) {
    const head = country + (at[0] === 0 ? `${d}${check[1]}` : `${check[0]}${d}`);
    const v = isValidIban(head + rest) ? head + rest : repairIban(head, rest);
    if (v) found.add(v);
  }
  return found.size === 1 ? [...found][0]! : null;
}
