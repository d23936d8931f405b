/**
 * Currencies in text: ISO 4217 codes and the symbols and names that stand for them (`€`, `US$`, `RM`, `rupees`),
 * normalised to ISO codes. Pure functions over strings.
 */

/** Currency symbols and names, in the order they are looked for (exported for the test of scanCurrencies). */
export const SYMBOLS: ReadonlyArray<[RegExp, string]> = [
  [/US\$|U\.S\.\s?dollars?|US dollars?/i, "USD"],
  [/(?:CA|C)\$|canadian dollars?/i, "CAD"],
  [/(?:AU|A)\$|australian dollars?/i, "AUD"],
  [/€|\beuros?\b/i, "EUR"],
  [/£|\bpounds? sterling\b/i, "GBP"],
  [/₹|(?<![\p{L}])Rs\.?(?![\p{L}])|\brupees?\b/iu, "INR"],
  [/(?<![\p{L}])zł(?![\p{L}])|\bzłotych\b/iu, "PLN"],
  [/¥|\byen\b/i, "JPY"],
  [/₽/, "RUB"],
  [/₺/, "TRY"],
  [/₩/, "KRW"],
  // South-East Asian tills: "RM48.40", "S$ 12.00", "Rp 15.000".
  [/(?<![\p{L}])RM(?=\s?\d)|\bringgit\b/iu, "MYR"],
  [/S\$|\bsingapore dollars?\b/i, "SGD"],
  [/HK\$/, "HKD"],
  [/(?<![\p{L}])Rp\.?(?=\s?\d)|\brupiah\b/iu, "IDR"],
  [/₱/, "PHP"],
  [/฿/, "THB"],
  [/\$|\bdollars?\b/i, "USD"],
];
const SYMBOLS_GLOBAL: Array<[RegExp, string]> = SYMBOLS.map(([re, code]) => [
  new RegExp(re.source, re.flags + "g"),
  code,
]);
/**
 * The symbols' patterns joined, one regex per set of flags (so each matches exactly where one of its patterns
 * does), and which of them each symbol belongs to: a text none of them matches has no symbol, and the eighteen
 * scans are skipped (most lines that pass mayHoldCurrency do so by three capitals: "INVOICE", "VAT").
 */
const FLAG_SETS = [...new Set(SYMBOLS.map(([re]) => re.flags))];
const ANY_SYMBOL = FLAG_SETS.map(
  (flags) =>
    new RegExp(
      SYMBOLS.filter(([re]) => re.flags === flags)
        .map(([re]) => `(?:${re.source})`)
        .join("|"),
      flags,
    ),
);
const SYMBOL_SET = SYMBOLS.map(([re]) => FLAG_SETS.indexOf(re.flags));
const ISO_CODES = [
  "EUR",
  "USD",
  "GBP",
  "CHF",
  "JPY",
  "CNY",
  "INR",
  "PLN",
  "CZK",
  "HUF",
  "RON",
  "BGN",
  "SEK",
  "NOK",
  "DKK",
  "ISK",
  "TRY",
  "RUB",
  "UAH",
  "CAD",
  "AUD",
  "NZD",
  "SGD",
  "HKD",
  "KRW",
  "BRL",
  "MXN",
  "ARS",
  "CLP",
  "COP",
  "ZAR",
  "AED",
  "SAR",
  "ILS",
  "THB",
  "MYR",
  "IDR",
  "PHP",
  "VND",
  "EGP",
  "NGN",
  "KES",
  "MAD",
  "TWD",
  "QAR",
  "KWD",
  "PKR",
  "LKR",
  "BDT",
];
const ISO_RE = new RegExp(`(?<![\\p{L}])(${ISO_CODES.join("|")})(?![\\p{L}])`, "gu");

/**
 * An ISO code touching its amount with no space ("3.396,19EUR", "EUR12,50", "CHF1'234.50"): the code is no part of a
 * word, so the amount reader may take the digits (values.ts blanks the code out, same length).
 */
export const GLUED_CODE = new RegExp(
  `(?<=\\d)(?:${ISO_CODES.join("|")})(?![\\p{L}])|(?<![\\p{L}])(?:${ISO_CODES.join("|")})(?=\\d)`,
  "gu",
);
/**
 * Whether a text can hold a GLUED_CODE: every ISO code is three capitals (case-sensitive), touching a digit. Nine
 * lines in ten of an invoice have none, and the amount reader no longer runs the code alternation over them.
 */
const GLUED_HINT = /\d[A-Z]{3}|[A-Z]{3}\d/;
export const mayHoldGluedCode = (text: string) => GLUED_HINT.test(text);

/**
 * Whether a text can hold any currency, in two cheap scans: a currency sign or three capitals (ISO_RE), else a word
 * every other pattern needs. Each condition is implied by some pattern matching, so a text none passes has no
 * currency. Four lines in five of an invoice mention none, and each of the eighteen patterns scans the whole text.
 */
const SIGN_OR_CODE = /[€£₹¥₽₺₩₱฿$]|[A-Z]{3}/;
const CURRENCY_WORD = /euro|pound|rupee|z\u0142|yen|ringgit|dollar|rupiah|(?:^|[^a-z])r[smp]/iu;
export const mayHoldCurrency = (text: string) => SIGN_OR_CODE.test(text) || CURRENCY_WORD.test(text);

export interface CurrencyMatch {
  start: number;
  end: number;
  code: string;
  explicit: boolean;
}

/** Finds currency codes and symbols in text; `explicit` is true for ISO codes (stronger evidence than `$`). */
export function findCurrencies(text: string): CurrencyMatch[] {
  return mayHoldCurrency(text) ? scanCurrencies(text) : [];
}

/** findCurrencies without the quick test (exported for the test that holds the two equal). */
export function scanCurrencies(text: string): CurrencyMatch[] {
  const out: CurrencyMatch[] = [];
  // exec on the module's regexes, not matchAll (a regex clone per call: every amount's gap is scanned).
  ISO_RE.lastIndex = 0;
  for (let m = ISO_RE.exec(text); m; m = nextMatch(ISO_RE, text, m))
    out.push({ start: m.index, end: m.index + m[0].length, code: m[1]!, explicit: true });
  const taken = (s: number, e: number) => out.some((o) => s < o.end && e > o.start);
  const present = ANY_SYMBOL.map((re) => re.test(text));
  for (let i = 0; i < SYMBOLS_GLOBAL.length; i++) {
    if (!present[SYMBOL_SET[i]!]) continue;
    const [re, code] = SYMBOLS_GLOBAL[i]!;
    re.lastIndex = 0;
    for (let m = re.exec(text); m; m = nextMatch(re, text, m)) {
      const s = m.index,
        e = s + m[0].length;
      if (!taken(s, e)) out.push({ start: s, end: e, code, explicit: false });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** The next match of a global regex after `m`, as matchAll gives it (an empty match moves on one code point). */
function nextMatch(re: RegExp, text: string, m: RegExpExecArray): RegExpExecArray | null {
  if (m[0] === "") re.lastIndex += (text.codePointAt(re.lastIndex) ?? 0) > 0xffff ? 2 : 1;
  return re.exec(text);
}

/** Normalises a currency symbol, name or code to its ISO 4217 code, or null. */
export function normalizeCurrency(raw: string): string | null {
  const found = findCurrencies(raw.trim());
  return found[0]?.code ?? null;
}
