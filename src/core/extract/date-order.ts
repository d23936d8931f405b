/**
 * Where a document comes from, as evidence for its numeric date order: "06/03/2018" is 6 March in Malaysia, the UK,
 * India or Germany and 3 June in the US. Month-first is the US's (and its neighbours') habit; nearly every other
 * country writes the day first. The cues are the ones a page prints without meaning to: its currency, the country
 * code or format of its phone numbers, its tax registrations, its company forms, its country, its language.
 *
 * Contract: returns points for each order (0 when nothing is known) and the cues found, for the reasoning; never
 * decides alone — the dates a document prints unambiguously (a day above 12) count more (normalize.ts
 * inferDateOrder).
 */

/** A cue: what it is called in the reasoning, its pattern, the order it points to and its weight. */
interface Cue {
  name: string;
  re: RegExp;
  order: "dmy" | "mdy";
  points: number;
}

const L = "(?<![\\p{L}\\p{N}])";
const R = "(?![\\p{L}\\p{N}])";
const cue = (name: string, body: string, order: "dmy" | "mdy", points: number, flags = "iu"): Cue => ({
  name,
  re: new RegExp(`${L}(?:${body})${R}`, flags),
  order,
  points,
});

const CUES: Cue[] = [
  // Currencies of day-first countries (symbols and ISO codes; "RM 12.50", "S$ 4.00", "£", "€", "₹").
  cue(
    "currency",
    "RM(?=\\s?\\d)|MYR|SGD|S\\$|GBP|EUR|INR|Rs\\.?(?=\\s?\\d)|AUD|A\\$|NZD|NZ\\$|ZAR|HKD|HK\\$|IDR|Rp\\.?(?=\\s?\\d)|THB|VND|AED|SAR|CHF|SEK|NOK|DKK|PLN|CZK|BRL|R\\$|TRY|KES|NGN|PKR|LKR|BDT",
    "dmy",
    2,
    "u",
  ),
  { name: "currency", re: /[€£₹฿₫]/u, order: "dmy", points: 2 },
  // Phone numbers with a day-first country code, or in a national format: Malaysia's "03-5631 2345", "012-345 6789".
  cue(
    "phone country code",
    "\\+\\s?(?:60|65|44|49|33|39|34|31|32|41|43|45|46|47|48|351|353|91|92|94|880|61|64|62|63|66|84|852|971|966|27|234|254|90|55)(?=[\\s\\-(]?\\d)",
    "dmy",
    2,
    "u",
  ),
  cue("phone (Malaysian format)", "0\\d{1,2}-\\d{3,4}\\s?\\d{4}", "dmy", 1, "u"),
  // Tax registrations that only day-first countries issue.
  cue(
    "tax registration",
    "GST\\s?(?:ID|REG(?:\\.|ISTRATION)?|NO\\.?)|SST\\s?(?:ID|REG(?:\\.|ISTRATION)?|NO\\.?)|GSTIN|ABN|UEN|VAT\\s?REG(?:\\.|ISTRATION)?|USt-?IdNr\\.?|TVA|BTW|IVA|P\\.?\\s?IVA|NIF|CIF",
    "dmy",
    1.5,
  ),
  // Company forms.
  cue(
    "company form",
    "Sdn\\.?\\s?Bhd\\.?|Bhd\\.?|Pte\\.?\\s?Ltd\\.?|Pvt\\.?\\s?Ltd\\.?|Pty\\.?\\s?Ltd\\.?|GmbH|AG|S\\.?A\\.?R\\.?L\\.?|SAS|S\\.?p\\.?A\\.?|B\\.?V\\.?|Ltd\\.?|PLC|Limited",
    "dmy",
    1.5,
    "u",
  ),
  // Countries and their well-known places.
  cue(
    "country",
    "Malaysia|Kuala Lumpur|Selangor|Johor|Penang|Pulau Pinang|Singapore|India|Indonesia|Jakarta|Thailand|Bangkok|Vietnam|Philippines|Australia|New Zealand|United Kingdom|England|Scotland|Ireland|South Africa|Germany|Deutschland|France|Italia|Italy|España|Spain|Nederland|Netherlands|België|Belgique|Österreich|Schweiz|Suisse|Hong Kong|Dubai|UAE|Brasil|Brazil",
    "dmy",
    2,
  ),
  // Words of languages whose countries write the day first (Malay, German, French, Dutch, Spanish, Italian...).
  cue(
    "language",
    "terima kasih|jumlah|tunai|baki|harga|kuantiti|cukai|und|der|die|das|für|rechnung|datum|et|le|la|les|des|facture|montant|het|een|van|factuur|bedrag|el|los|las|factura|fecha|il|di|fattura|importo",
    "dmy",
    0.5,
  ),
  // Month-first: the US (a state and ZIP code is in normalize.ts), its phone format, its words.
  cue("US phone", "\\+\\s?1[\\s\\-.(]+\\d{3}|\\(\\d{3}\\)\\s?\\d{3}-\\d{4}", "mdy", 2, "u"),
  cue("country", "USA|U\\.S\\.A\\.|United States(?: of America)?", "mdy", 2, "u"),
  cue("US tax", "sales tax", "mdy", 1),
  cue("US tax", "EIN", "mdy", 1, "u"),
];

/** Each cue counts once however often it appears; each kind of cue counts for its best match. */
const LANGUAGE_CAP = 2;
/** The most that country evidence can add up to: below one unambiguous date (normalize.ts DATE_POINTS). */
export const COUNTRY_CAP = 6;

export interface OrderEvidence {
  dmy: number;
  mdy: number;
  cues: string[];
}

export function countryEvidence(text: string): OrderEvidence {
  const best = new Map<string, { order: "dmy" | "mdy"; points: number }>();
  const cues: string[] = [];
  for (const c of CUES) {
    const key = `${c.order}:${c.name}`;
    if (c.name === "language") {
      const n = new Set((text.match(new RegExp(c.re.source, "giu")) ?? []).map((w) => w.toLowerCase())).size;
      if (n >= 3) {
        best.set(key, { order: c.order, points: Math.min(LANGUAGE_CAP, c.points * n) });
        cues.push(`${n} words of a day-first language`);
      }
      continue;
    }
    const m = c.re.exec(text);
    if (!m || (best.get(key)?.points ?? 0) >= c.points) continue;
    best.set(key, { order: c.order, points: c.points });
    cues.push(`${c.name} "${m[0].trim()}"`);
  }
  let dmy = 0,
    mdy = 0;
  for (const b of best.values()) b.order === "dmy" ? (dmy += b.points) : (mdy += b.points);
  return { dmy: Math.min(COUNTRY_CAP, dmy), mdy: Math.min(COUNTRY_CAP, mdy), cues };
}
