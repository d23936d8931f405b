/**
 * Which dollar a bare `$` is: currencies.ts reads it as USD, but Australian, Canadian, New Zealand and Singapore
 * invoices print `$` alone too. The document's registration numbers, tax names and addresses say which country
 * issued it; without such a cue the `$` stays USD. The same cues (and South Africa's, the US's) name the money of a
 * document that prints no currency at all (homeCurrencyOf), and tell the rand's "R" before an amount (randOf).
 */
import type { Line } from "./lines";

interface DollarCue {
  code: string;
  country: string;
  /** Each cue is a registration number, a tax name or an address form only that country prints. */
  cues: RegExp[];
  /** How many of the first cues are registration numbers, each enough alone (1 unless given). */
  registrations?: number;
}

const DOLLARS: DollarCue[] = [
  {
    code: "AUD",
    country: "Australia",
    cues: [
      /\bABN\s*[:#.]?\s*\d{2}[\s.]?\d{3}[\s.]?\d{3}[\s.]?\d{3}\b/,
      /\b(?:NSW|VIC|QLD|TAS|ACT|WA|SA|NT)\s+\d{4}\b/,
      /\bAustralia\b/i,
      /\bPty\.?\s+Ltd\b/i,
    ],
  },
  {
    code: "NZD",
    country: "New Zealand",
    cues: [
      /\bNZBN\b/,
      /\bGST\s*(?:No|Number|#)\.?:?\s*\d{2,3}-\d{3}-\d{3}\b/i,
      /\bNew Zealand\b/i,
      /\.(?:co|org|net|govt|ac)\.nz\b/i,
      /\b(?:Auckland|Wellington|Christchurch|Hamilton|Tauranga|Dunedin|Napier|Nelson|Rotorua|Whangarei)\s+\d{4}\b/,
    ],
    registrations: 2,
  },
  {
    code: "CAD",
    country: "Canada",
    cues: [
      // The GST/HST account of a business number ("123456789 RT0001") is Canadian wherever it is printed.
      /\b(?:GST|HST)\s*\/\s*(?:HST|QST|PST)\b|\b\d{9}\s?RT\s?\d{4}\b/,
      /\b(?:ON|QC|BC|AB|MB|SK|NS|NB|NL|PE)\s+[A-Z]\d[A-Z]\s?\d[A-Z]\d\b/,
      /\bCanada\b/i,
      /\bHST\b/,
    ],
  },
  {
    code: "SGD",
    country: "Singapore",
    cues: [/\bSingapore\s+\d{6}\b/i, /\bGST\s+Reg(?:istration)?\.?\s+No\b/i, /\bUEN\b/, /\.com\.sg\b/i],
  },
];

/** South Africa: a VAT number of ten digits starting with 4, the company forms, the country, its domains. */
const RAND: DollarCue = {
  code: "ZAR",
  country: "South Africa",
  cues: [
    /\bVAT\s*(?:Reg\.?\s*)?(?:No|Number|#)\.?:?\s*4\d{9}\b/i,
    /\(Pty\)\s*Ltd\b/i,
    /\bSouth Africa\b/i,
    /\.co\.za\b/i,
  ],
};
/** The US, for a document that prints no sign at all: a state-and-ZIP address and a sales tax. */
const US: DollarCue = {
  code: "USD",
  country: "the United States",
  cues: [/,\s*[A-Z]{2}\s\d{5}(?:-\d{4})?\s*$/m, /\bsales tax\b/i],
  registrations: 0,
};
/** The rand's sign before an amount ("R 1 025.02", "R869.40"). */
const RAND_SIGN = /(?<![\p{L}\p{N}])R\s?\d[\d ]*\.\d{2}(?!\d)/u;

function named(text: string, d: DollarCue): { code: string; why: string } | null {
  const hits = d.cues.filter((re) => re.test(text));
  const registrations = d.registrations ?? 1;
  if (hits.length >= 2 || (hits.length === 1 && d.cues.indexOf(hits[0]!) < registrations)) {
    const first = hits[0]!.exec(text)![0];
    return { code: d.code, why: `a document from ${d.country} ("${first.trim()}")` };
  }
  return null;
}

/**
 * The dollar of the country the document names (two cues needed, one if it is a registration number), or null; never
 * when the document writes out US dollars ("USD", "US$").
 */
export function dollarOf(lines: Line[]): { code: string; why: string } | null {
  const text = lines.map((l) => l.text).join("\n");
  if (/\bUSD\b|US\$/.test(text)) return null;
  for (const d of DOLLARS) {
    const hit = named(text, d);
    if (hit) return { code: hit.code, why: `"$" on ${hit.why}` };
  }
  return null;
}

/** "R" before an amount on a document from South Africa: the rand. */
export function randOf(lines: Line[]): { code: string; why: string } | null {
  const text = lines.map((l) => l.text).join("\n");
  const hit = RAND_SIGN.test(text) ? named(text, RAND) : null;
  return hit && { code: hit.code, why: `"R" before the amounts on ${hit.why}` };
}

/** The money of the country a document names when it prints no currency at all (no sign, no code). */
export function homeCurrencyOf(lines: Line[]): { code: string; why: string } | null {
  const text = lines.map((l) => l.text).join("\n");
  for (const d of [...DOLLARS, RAND, US]) {
    const hit = named(text, d);
    if (hit) return { code: hit.code, why: `no currency printed on ${hit.why}` };
  }
  return null;
}
