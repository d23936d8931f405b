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
  // Company forms ("S/B" is how Malaysian tills shorten Sdn Bhd).
  cue(
    "company form",
    "Sdn\\.?\\s?Bhd\\.?|S/B|Bhd\\.?|Pte\\.?\\s?Ltd\\.?|Pvt\\.?\\s?Ltd\\.?|Pty\\.?\\s?Ltd\\.?|GmbH|AG|S\\.?A\\.?R\\.?L\\.?|SAS|S\\.?p\\.?A\\.?|B\\.?V\\.?|Ltd\\.?|PLC|Limited",
    "dmy",
    1.5,
    "u",
  ),
  // A Malaysian company number in brackets beside the name ("(519537-X)", "(1234567-K)").
  cue("company registration (Malaysian)", "\\(\\d{5,7}-[A-Z]\\)", "dmy", 1.5, "u"),
  // Street words of Malaysian and Indonesian addresses; the Indonesian VAT and tax number.
  cue("address (Malaysia/Indonesia)", "Jalan|Jln\\.?|Taman|Lorong|Persiaran|Kampung|Jl\\.", "dmy", 1.5),
  cue("tax (Indonesia)", "NPWP|PPN", "dmy", 1.5, "u"),
  // Cash totals rounded to 5 cents: countries without a one-cent coin (Malaysia, Australia, New Zealand...).
  cue("cash rounding", "rounding(?:\\s?adj(?:ustment)?)?|total\\s?rounded|rnd\\s?adj", "dmy", 1),
  // Countries and their well-known places.
  cue(
    "country",
    "Malaysia|Kuala Lumpur|Selangor|Johor|Penang|Pulau Pinang|Klang|Shah Alam|Petaling Jaya|Kajang|Seremban|Melaka|Ipoh|Cheras|Puchong|Kota Kinabalu|Kuching|Singapore|India|Indonesia|Jakarta|Thailand|Bangkok|Vietnam|Philippines|Australia|New Zealand|United Kingdom|England|Scotland|Ireland|South Africa|Germany|Deutschland|France|Italia|Italy|España|Spain|Nederland|Netherlands|België|Belgique|Österreich|Schweiz|Suisse|Hong Kong|Dubai|UAE|Brasil|Brazil",
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

const WEEKDAYS: Record<string, number> = {
  sun: 0,
  sunday: 0,
  mon: 1,
  monday: 1,
  tue: 2,
  tues: 2,
  tuesday: 2,
  wed: 3,
  wednesday: 3,
  thu: 4,
  thur: 4,
  thurs: 4,
  thursday: 4,
  fri: 5,
  friday: 5,
  sat: 6,
  saturday: 6,
  so: 0,
  mo: 1,
  di: 2,
  mi: 3,
  do: 4,
  fr: 5,
  sa: 6,
  dim: 0,
  lun: 1,
  mar: 2,
  mer: 3,
  jeu: 4,
  ven: 5,
  sam: 6,
  ma: 1,
  wo: 3,
  vr: 5,
  za: 6,
  zo: 0,
};
/** A weekday name right before or after a numeric date on its line ("TUE 06/03/2018", "06.03.2018 Di"). */
const DAY_BEFORE = /(?<![\p{L}])(\p{L}{2,9})\.?,?[ \t]{0,2}(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})(?!\d)/giu;
const DAY_AFTER = /(?<!\d)(\d{1,2})[./-](\d{1,2})[./-](\d{4}|\d{2})[ \t]{1,2}(\p{L}{2,9})(?![\p{L}])/giu;

const weekdayOf = (y: number, m: number, d: number): number | null => {
  if (m < 1 || m > 12 || d < 1 || d > 31) return null;
  const date = new Date(Date.UTC(y < 100 ? 2000 + y : y, m - 1, d));
  return date.getUTCMonth() === m - 1 ? date.getUTCDay() : null;
};

/**
 * Dates printed with their weekday that only one order makes true: "TUE 06/03/2018" is 6 March (a Tuesday), never
 * 3 June (a Sunday). Counts, per order, the dates whose weekday that order alone explains.
 */
export function weekdayEvidence(text: string): { dmy: number; mdy: number } {
  let dmy = 0;
  let mdy = 0;
  const found = [
    ...[...text.matchAll(DAY_BEFORE)].map((m) => [m[1], m[2], m[3], m[4]]),
    ...[...text.matchAll(DAY_AFTER)].map((m) => [m[4], m[1], m[2], m[3]]),
  ] as Array<[string, string, string, string]>;
  for (const [name, ...digits] of found) {
    const day = WEEKDAYS[name.toLowerCase()];
    if (day === undefined) continue;
    const [a, b, y] = digits.map(Number) as [number, number, number];
    const asDmy = weekdayOf(y, b, a) === day;
    const asMdy = weekdayOf(y, a, b) === day;
    if (asDmy && !asMdy) dmy++;
    else if (asMdy && !asDmy) mdy++;
  }
  return { dmy, mdy };
}
