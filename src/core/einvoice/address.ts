/**
 * Postal addresses and countries from extracted text: "Street 1, 12345 City, Germany" → lines, post code, city and
 * ISO 3166-1 country code. Country names are recognised in the languages the default project reads (from the
 * runtime's CLDR data, no table to keep up to date).
 */

export interface ParsedAddress {
  lines: string[];
  postcode?: string;
  city?: string;
  /** A US/CA state or similar written before the code ("IL 62704"). */
  subdivision?: string;
  country?: string;
}

const LANGS = ["en", "de", "fr", "nl", "es", "it", "pl", "pt"];
const EXTRA: Record<string, string> = {
  uk: "GB",
  "great britain": "GB",
  england: "GB",
  usa: "US",
  "u.s.a.": "US",
  "united states of america": "US",
  holland: "NL",
  deu: "DE",
  fra: "FR",
  nld: "NL",
  aut: "AT",
  che: "CH",
  bel: "BE",
  ita: "IT",
  esp: "ES",
  gbr: "GB",
  pol: "PL",
  lux: "LU",
  dnk: "DK",
  swe: "SE",
};
/** Region codes that are no ISO 3166-1 country (any more): groupings, private use, withdrawn codes. */
const NOT_COUNTRIES = new Set([
  "EU",
  "EZ",
  "UN",
  "ZZ",
  "QO",
  "XA",
  "XB",
  "UK",
  "YU",
  "AN",
  "SU",
  "CS",
  "DD",
  "FX",
  "BU",
  "TP",
  "ZR",
  "NT",
  "DY",
  "HV",
  "RH",
  "VD",
  "YD",
]);

const fold = (s: string): string =>
  s
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/^the\s+/, "")
    .replace(/[.\s]+$/, "")
    .trim();

let names: Map<string, string> | null = null;
function countryNames(): Map<string, string> {
  if (names) return names;
  names = new Map();
  const A = "ABCDEFGHIJKLMNOPQRSTUVWXYZ";
  const displays = LANGS.map((l) => new Intl.DisplayNames([l], { type: "region", fallback: "code" }));
  for (const a of A) {
    for (const b of A) {
      const code = a + b;
      if (NOT_COUNTRIES.has(code) || Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
      const en = displays[0]!.of(code);
      if (!en || en === code) continue;
      names.set(code.toLowerCase(), code);
      for (const d of displays) {
        const n = d.of(code);
        if (n && n !== code) names.set(fold(n), code);
      }
    }
  }
  for (const [k, v] of Object.entries(EXTRA)) names.set(k, v);
  return names;
}

/** ISO 3166-1 alpha-2 code of a country name or code, or undefined. */
export function countryCode(text: string): string | undefined {
  const key = fold(text);
  return key ? countryNames().get(key) : undefined;
}

/** The country a VAT identifier belongs to (its prefix; Greece writes EL, Northern Ireland XI). */
export function countryOfVatId(vatId: string): string | undefined {
  const prefix = /^([A-Z]{2})/.exec(vatId.replace(/\s/g, "").toUpperCase())?.[1];
  if (!prefix) return undefined;
  if (prefix === "EL") return "GR";
  if (prefix === "XI") return "GB";
  return countryNames().get(prefix.toLowerCase()) ? prefix : undefined;
}

// "12345 City", "D-12345 City", "1234 AB City" (NL), "00-950 City" (PL), "SW1A 1AA City" (UK).
const POST_FIRST =
  /^(?:[A-Z]{1,2}-)?(\d{4}\s?[A-Z]{2}(?=\s)|\d{4,5}|\d{2}-\d{3}|\d{3}\s\d{2}|[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2})\s+(\p{L}.*)$/u;
// "City 12345", "City, ST 12345" handled as "ST 12345": US and UK styles that put the code last.
const POST_LAST = /^(\p{L}[\p{L} .'-]*?)\s+(?:[A-Z]{2}\s+)?(\d{5}(?:-\d{4})?|[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2})$/u;

/** "IL 62704": the city is the part before. */
const STATE_ZIP = /^([A-Z]{2})\s+(\d{5}(?:-\d{4})?)$/;

export function parseAddress(text: string): ParsedAddress {
  const parts = text
    .split(/\s*(?:,|\n|;|\|)\s*/)
    .map((p) => p.trim())
    .filter(Boolean);
  const result: ParsedAddress = { lines: [] };
  const last = parts[parts.length - 1];
  if (parts.length > 1 && last && countryCode(last)) {
    result.country = countryCode(last);
    parts.pop();
  }
  const at = parts.findIndex((p) => POST_FIRST.test(p) || POST_LAST.test(p) || STATE_ZIP.test(p));
  const stateZip = at > 0 ? STATE_ZIP.exec(parts[at]!) : null;
  if (stateZip) {
    Object.assign(result, {
      subdivision: stateZip[1],
      postcode: stateZip[2],
      city: parts[at - 1],
      lines: parts.slice(0, at - 1),
    });
  } else if (at >= 0) {
    const p = parts[at]!;
    const first = POST_FIRST.exec(p);
    const lastStyle = first ? null : POST_LAST.exec(p);
    result.postcode = first ? first[1] : lastStyle![2];
    let city = (first ? first[2] : lastStyle![1])!.trim();
    // "12345 City Germany": a trailing country name inside the city part.
    const words = city.split(/\s+/);
    if (!result.country && words.length > 1 && countryCode(words[words.length - 1]!)) {
      result.country = countryCode(words.pop()!);
      city = words.join(" ");
    }
    result.city = city;
    result.lines = parts.slice(0, at);
    if (at < parts.length - 1 && !result.country) {
      const tail = parts.slice(at + 1);
      if (tail.length === 1 && countryCode(tail[0]!)) result.country = countryCode(tail[0]!);
    }
  } else {
    result.lines = parts;
  }
  return result;
}
