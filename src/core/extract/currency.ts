/**
 * The document currency: the currency printed next to the total wins; otherwise a vote over every currency
 * mention (an ISO code counts twice, a symbol once, since `$` is shared by many currencies).
 */
import type { FieldResult } from "../model";
import type { FieldSettings } from "../project";
import { findCurrencies } from "./currencies";
import { boxesOf, type Line, ocrConfidenceOf, spanOf } from "./lines";
import type { Candidate } from "./candidate";
import { round } from "./fields";
import { dollarOf, homeCurrencyOf, randOf } from "./dollar-country";

const EURO = new Set([
  "AT",
  "BE",
  "CY",
  "DE",
  "EE",
  "ES",
  "FI",
  "FR",
  "GR",
  "EL",
  "HR",
  "IE",
  "IT",
  "LT",
  "LU",
  "LV",
  "MT",
  "NL",
  "PT",
  "SI",
  "SK",
]);
const NATIONAL: Record<string, string> = {
  GB: "GBP",
  CH: "CHF",
  LI: "CHF",
  PL: "PLN",
  CZ: "CZK",
  SE: "SEK",
  DK: "DKK",
  NO: "NOK",
  HU: "HUF",
  RO: "RON",
  IS: "ISK",
};

/** Already extracted fields whose country prefix hints at the currency (IBAN, VAT ID), with why they count. */
export type CountryHint = { field: FieldResult; why: string };

function fromCountry(hints: CountryHint[]): { code: string; country: string; why: string; source: FieldResult } | null {
  for (const h of hints) {
    const country = typeof h.field.value === "string" ? h.field.value.slice(0, 2).toUpperCase() : "";
    const code = EURO.has(country) ? "EUR" : NATIONAL[country];
    if (code) return { code, country, why: h.why, source: h.field };
  }
  return null;
}

/**
 * Reads the currency fields of a document, after its other fields: the total's candidate says where the currency is
 * printed with it, and the IBAN and VAT ID results name a country when none is printed.
 */
export function extractCurrencies(
  fields: FieldSettings[],
  out: Record<string, FieldResult>,
  best: Record<string, Candidate | undefined>,
  lines: Line[],
  threshold: number,
): void {
  const total = best.total_amount ?? Object.entries(best).find(([id, c]) => c?.match.note && /total/.test(id))?.[1];
  const hints = [
    ["iban", "IBAN"],
    ["vendor_vat_id", "VAT ID"],
  ]
    .filter(([id]) => out[id!]?.value)
    .map(([id, why]) => ({ field: out[id!]!, why: `from the ${why}` }));
  for (const field of fields) out[field.id] = extractCurrency(field, lines, total, threshold, hints);
}

/** MUST NOT guess from a country when any currency is printed; the inferred value carries the hint's boxes. */
function extractCurrency(
  field: FieldSettings,
  lines: Line[],
  total: Candidate | undefined,
  reviewThreshold: number,
  countryHints: CountryHint[] = [],
): FieldResult {
  const printed = total?.match.note ? printedWithTotal(field, lines, total, reviewThreshold) : null;
  if (printed) return printed;
  const votes = new Map<string, { score: number; first: { line: Line; start: number; end: number } }>();
  const lone = new Map<string, { score: number; first: { line: Line; start: number; end: number } }>();
  let mentions = 0;
  for (const line of lines) {
    for (const c of findCurrencies(line.text)) {
      mentions++;
      // A sign alone on an OCR'd line, with no amount or word beside it, is as often a mark OCR read from a logo, an
      // ornament or a checkbox ("¥" over a Singapore invoice's table): it counts only when nothing else names a
      // currency or a country.
      const to =
        !c.explicit && line.page.text_source === "ocr" && line.text.trim() === line.text.slice(c.start, c.end).trim()
          ? lone
          : votes;
      const v = to.get(c.code) ?? { score: 0, first: { line, start: c.start, end: c.end } };
      v.score += c.explicit ? 2 : 1;
      to.set(c.code, v);
    }
  }
  const ranked = [...votes].sort((a, b) => b[1].score - a[1].score);
  const best = ranked[0];
  const fromLone = !best && lone.size > 0 && !fromCountry(countryHints) && !(randOf(lines) ?? homeCurrencyOf(lines));
  if (fromLone) for (const entry of [...lone].sort((a, b) => b[1].score - a[1].score)) ranked.push(entry);
  if (!ranked[0]) {
    const inferred = fromCountry(countryHints);
    if (inferred)
      return {
        ...inferred.source,
        name: field.name,
        value: inferred.code,
        confidence: 0.4,
        reasoning: `no currency printed; ${inferred.code} is the currency of ${inferred.country} (${inferred.why})`,
        review_required: 0.4 < reviewThreshold,
        is_confirmed: null,
      };
    // The seller's IBAN or VAT ID name its country first; else the cues of a country (dollar-country.ts).
    const home = randOf(lines) ?? homeCurrencyOf(lines);
    if (home) return result(field, home.code, 0.45, [], home.why, reviewThreshold);
    return {
      name: field.name,
      value: null,
      confidence: 0,
      bounding_boxes: [],
      reasoning: "no currency code or symbol found",
      review_required: field.required,
      is_confirmed: null,
    };
  }
  const top = ranked[0];
  const total_ = ranked.reduce((s, [, v]) => s + v.score, 0);
  const share = top[1].score / total_;
  const { line, start, end } = top[1].first;
  const bare = top[0] === "USD" && line.text.slice(start, end) === "$" && dollarOf(lines);
  if (bare) return result(field, bare.code, 0.4 + 0.4 * share, [spanOf(line, start, end)], bare.why, reviewThreshold);
  return result(
    field,
    top[0],
    0.5 + 0.4 * share,
    [spanOf(line, start, end)],
    `most frequent currency (${top[0]}: ${top[1].score} of ${total_} points over ${mentions} mention(s)); first at page ${line.page.page_number}, line ${line.index + 1}`,
    reviewThreshold,
  );
}

/** The currency printed with the total (a ¥ misread for ₹ corrected), or null when none is. */
function printedWithTotal(
  field: FieldSettings,
  lines: Line[],
  total: Candidate,
  reviewThreshold: number,
): FieldResult | null {
  const line = total.match.line;
  const mention = findCurrencies(line.text).find(
    (c) => c.code === total.match.note && c.start < total.match.end + 3 && c.end > total.match.start - 3,
  );
  if (mention) {
    const spans = [spanOf(line, mention.start, mention.end)];
    const printed = line.text.slice(mention.start, mention.end);
    const rupee = mention.code === "JPY" && misreadRupee(line, lines);
    if (rupee) {
      return result(
        field,
        "INR",
        0.8,
        spans,
        `"${printed}" printed with the total on an OCR'd page (page ${line.page.page_number}, line ${line.index + 1}) is read as ₹: the OCR model has no ₹ and reads it as ¥, and the document names INR elsewhere ("${rupee}")`,
        reviewThreshold,
      );
    }
    const dollar = mention.code === "USD" && printed === "$" ? dollarOf(lines) : null;
    if (dollar)
      return result(
        field,
        dollar.code,
        0.85,
        spans,
        `${dollar.why}, printed with the total (page ${line.page.page_number}, line ${line.index + 1})`,
        reviewThreshold,
      );
    const outvoted = confusedSign(mention.code, line, lines);
    if (outvoted) {
      return result(
        field,
        outvoted.code,
        0.7,
        spans,
        `"${printed}" printed with the total on an OCR'd page (page ${line.page.page_number}, line ${line.index + 1}) is read as ${outvoted.code}: OCR confuses € and £, and the document prints ${outvoted.code} ${outvoted.count} times against ${outvoted.against}`,
        reviewThreshold,
      );
    }
    return result(
      field,
      mention.code,
      0.95,
      spans,
      `currency "${printed}" printed with the total (page ${line.page.page_number}, line ${line.index + 1})`,
      reviewThreshold,
    );
  }
  return null;
}

/** Signs OCR models mistake for one another (the German model reads a scanned € as £ now and then). */
const CONFUSED: Record<string, string> = { GBP: "EUR", EUR: "GBP" };

/**
 * On an OCR'd page, the other sign of a confusable pair when the document's mentions of it outnumber the sign read,
 * or match it and every VAT ID or IBAN printed is of a country that pays in it.
 */
function confusedSign(
  code: string,
  line: Line,
  lines: Line[],
): { code: string; count: number; against: number } | null {
  const other = CONFUSED[code];
  if (!other || line.page.text_source !== "ocr") return null;
  let count = 0;
  let against = 0;
  for (const l of lines)
    for (const c of findCurrencies(l.text)) {
      if (c.code === other) count++;
      else if (c.code === code) against++;
    }
  if (count > against) return { code: other, count, against };
  // As many of each: the countries of the VAT IDs and IBANs printed decide (USt-IdNr. DE948298356: the euro).
  if (count === against && count > 0) {
    const countries = lines.flatMap((l) => [...l.text.matchAll(/\b([A-Z]{2})\d{2}[A-Z0-9]{7,}\b/g)].map((m) => m[1]!));
    const home = (c: string) => (EURO.has(c) ? "EUR" : c === "GB" ? "GBP" : null);
    const votes = countries.map(home).filter((h) => h !== null);
    if (votes.length && votes.every((h) => h === other)) return { code: other, count, against };
  }
  return null;
}

/**
 * tesseract's models have no ₹ (U+20B9) and read it as ¥. A ¥ on an OCR'd line is therefore a rupee sign when the
 * document also names the rupee in letters (Rs, INR, rupees); the mention that shows it, or null.
 */
function misreadRupee(line: Line, lines: Line[]): string | null {
  if (line.page.text_source !== "ocr") return null;
  for (const l of lines) {
    const inr = findCurrencies(l.text).find((c) => c.code === "INR");
    if (inr) return l.text.slice(inr.start, inr.end);
  }
  return null;
}

function result(
  field: FieldSettings,
  code: string,
  strength: number,
  spans: ReturnType<typeof spanOf>[],
  reasoning: string,
  reviewThreshold: number,
): FieldResult {
  const confidence = round(strength * (0.4 + 0.6 * ocrConfidenceOf(spans)));
  return {
    name: field.name,
    value: code,
    confidence,
    bounding_boxes: boxesOf(spans),
    reasoning,
    review_required: confidence < reviewThreshold,
    is_confirmed: null,
    raw_text: spans.map((s) => s.text).join(" "),
  };
}
