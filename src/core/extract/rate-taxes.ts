/**
 * Tax lines that print their rate: the tax a rate line implies ("Tax 15% on $ 112.90"), and the sum of tax rows at
 * several rates or of several taxes ("CGST @ 9%" + "SGST @ 9%", "GST 5%" + "PST 7%"). Used by reconcile.ts, whose
 * arithmetic decides between the candidates these add.
 */
import type { Candidate } from "./candidate";
import type { Line } from "./lines";

/** An amount printed on the document (with decimals), where it stands. */
export interface PrintedAmount {
  value: number;
  line: Line;
  start: number;
  end: number;
}

/** A rate on a tax line: "Tax 15% on $ 112.90", "MwSt. 19 % auf 100,00", "TVA 20,0 %". */
const RATE = /(?<![\d.,])(\d{1,2}(?:[.,]\d{1,3})?)\s?%/u;

/**
 * The tax line a rate-times-base candidate came from: its value stands elsewhere (another OCR block), its rate and
 * tax name on this line, which withRateSum reads to tell the rows of a breakdown apart.
 */
const rateLines = new WeakMap<Candidate, Line>();
/**
 * The line a tax candidate's rate and name stand on: the tax line of a rate-times-base candidate, else its label's
 * line when OCR read the value in a block of its own ("IVA 7%" left, "7,59 €" far right), else its own line.
 */
const rateLineOf = (c: Candidate): Line => rateLines.get(c) ?? c.labelLine ?? c.match.line;

/**
 * A tax line may print the rate and the amount it applies to ("Tax 15% on $ 112.90", the tax itself far right, in
 * another OCR block): a tax candidate whose value is the base is followed by the printed amount that is the rate
 * times it, when the document prints one (tax = rate × net). Returns `list` with those amounts added, each just
 * above the base it came from; the base itself stays a candidate (the arithmetic of the sums decides).
 */
export function withRateTaxes(list: Candidate[], printed: PrintedAmount[]): Candidate[] {
  const out: Candidate[] = [];
  for (const c of list) {
    const base = c.match.value;
    const rate = RATE.exec(c.match.line.text);
    if (typeof base === "number" && rate && base > 0) {
      const percent = Number(rate[1]!.replace(",", "."));
      const tax = Math.round(base * percent) / 100;
      // The candidate is the tax already when it is the rate times another printed amount.
      const isTax = printed.some((p) => p.value !== base && Math.abs((p.value * percent) / 100 - base) <= 0.011);
      const hit = isTax ? undefined : printed.find((p) => p.value !== base && Math.abs(p.value - tax) <= 0.011);
      if (hit && percent > 0) {
        const implied: Candidate = {
          match: { value: hit.value, line: hit.line, start: hit.start, end: hit.end, strength: c.match.strength },
          score: c.score + 0.01,
          reasoning: `${rate[0]} of ${base} printed on the tax line, the tax printed at page ${hit.line.page.page_number}, line ${hit.line.index + 1}`,
        };
        rateLines.set(implied, c.match.line);
        out.push(implied);
      }
    }
    out.push(c);
  }
  return out;
}

/**
 * VAT at several rates printed row by row ("VAT 19%  109.99", "VAT 7%  7.59"), or several taxes on one base
 * ("CGST @ 9%" and "SGST @ 9%" in India, "GST 5%" and "PST 7%" in British Columbia), with no row of their sum: the
 * tax is the sum of the rows. Returns `list` with that sum second (the arithmetic of the sums decides), when two or
 * more candidates stand on lines printing distinct tax names or rates.
 */
export function withRateSum(list: Candidate[]): Candidate[] {
  const rows = new Map<Line, Candidate>();
  const keys = new Set<string>();
  for (const c of list) {
    // A rate-times-base candidate's rate is on the tax line it came from (its value in another OCR block).
    const line = rateLineOf(c);
    const m = RATE.exec(line.text);
    if (!m || typeof c.match.value !== "number" || c.match.value <= 0 || rows.has(line)) continue;
    // The tax's name is the last word before its rate: the same name at the same rate twice is a breakdown repeated
    // (or items), not rows of one table.
    const name = /(\p{L}+)[^\p{L}]*$/u.exec(line.text.slice(0, m.index))?.[1]?.toUpperCase() ?? "";
    const key = `${name} ${m[1]!.replace(",", ".")}%`;
    if (keys.has(key)) return list;
    rows.set(line, c);
    keys.add(key);
  }
  if (rows.size < 2) return list;
  const parts = [...rows.values()];
  const sum = Math.round(parts.reduce((s, c) => s + (c.match.value as number), 0) * 100) / 100;
  const first = list[0]!;
  // Taxes levied on one base ("CGST 9%" + "SGST 9%", "GST 5%" + "PST 7%") are one tax amount: their sum comes first.
  const one = oneBase(parts);
  const summed: Candidate = {
    ...parts[0]!,
    match: { ...parts[0]!.match, value: sum },
    score: first.score * (one ? 1 : 0.95),
    reasoning: `the sum of the tax rows ${[...keys].join(", ")} (${parts.map((c) => c.match.value).join(" + ")})${one ? ", levied on one base" : ""}`,
  };
  return one ? [summed, ...list] : [first, summed, ...list.slice(1)];
}

/** Every row's amount is its rate of the same base (within the cents each amount was rounded to). */
function oneBase(parts: Candidate[]): boolean {
  const bases = parts.map((c) => {
    const rate = Number(RATE.exec(rateLineOf(c).text)![1]!.replace(",", ".")) / 100;
    return { base: (c.match.value as number) / rate, slack: 0.005 / rate };
  });
  return bases.every((b) => Math.abs(b.base - bases[0]!.base) <= b.slack + bases[0]!.slack + 0.01);
}
