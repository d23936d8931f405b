/**
 * Which dollar a bare `$` is: currencies.ts reads it as USD, but Australian, Canadian, New Zealand and Singapore
 * invoices print `$` alone too. The document's registration numbers, tax names and addresses say which country
 * issued it; without such a cue the `$` stays USD.
 */
import type { Line } from "./lines";

interface DollarCue {
  code: string;
  country: string;
  /** Each cue is a registration number, a tax name or an address form only that country prints. */
  cues: RegExp[];
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
    cues: [/\bNZBN\b/, /\bNew Zealand\b/i, /\bGST\s+(?:No|Number)\.?:?\s*\d{2,3}-\d{3}-\d{3}\b/i],
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
    cues: [/\bSingapore\s+\d{6}\b/i, /\bGST\s+Reg(?:istration)?\.?\s+No\b/i, /\bUEN\b/],
  },
];

/**
 * The dollar of the country the document names (two cues needed, one if it is a registration number), or null; never
 * when the document writes out US dollars ("USD", "US$").
 */
export function dollarOf(lines: Line[]): { code: string; why: string } | null {
  const text = lines.map((l) => l.text).join("\n");
  if (/\bUSD\b|US\$/.test(text)) return null;
  for (const d of DOLLARS) {
    const hits = d.cues.filter((re) => re.test(text));
    if (hits.length >= 2 || (hits.length === 1 && hits[0] === d.cues[0])) {
      const first = hits[0]!.exec(text)![0];
      return { code: d.code, why: `"$" on a document from ${d.country} ("${first}")` };
    }
  }
  return null;
}
