/**
 * Content signals for the intelligent splitter. Each page is reduced to a few features once (`pageFeatures`); a
 * boundary between two neighbouring pages is then scored from their features (`boundaryEvidence`).
 * Positive weights speak for a new document, negative ones for a continuation.
 */
import { wordsIdentity } from "../convert/page-words";
import type { Page } from "../model";
import { maxOf } from "../arrays";
import { parseAmount } from "../extract/normalize";

export interface PageCounter {
  current: number;
  /** Total pages when the counter says "of N", else null. */
  total: number | null;
}

export interface PageFeatures {
  counter: PageCounter | null;
  /** Document numbers found next to labels such as "Invoice No", "Rechnungsnr.", "Facture n°". */
  documentNumbers: string[];
  /** Issuer identifiers: IBANs, VAT IDs, e-mail and web domains. */
  issuerIds: string[];
  /** Normalised tokens of the header and footer bands (digits folded, so page numbers do not matter). */
  bandTokens: Set<string>;
  /** A document title ("Invoice", "Rechnung", ...) in the upper third of the page. */
  hasTitle: boolean;
  /** Words saying the page continues a previous one ("continued", "Übertrag", ...). */
  hasContinuationCue: boolean;
  /** Closing words ("Total", "Amount due", "Gesamtbetrag", ...) on the page. */
  hasClosingCue: boolean;
  /** The largest money amount printed with two decimals on the page (an invoice page's total), or null. */
  largestAmount: number | null;
  classId: string | null;
}

export interface BoundaryEvidence {
  weight: number;
  reason: string;
}

const PAGE_WORDS = "page|pages|seite|pagina|página|pag\\.|blatt|sheet|feuille|blad|bladzijde|strona|sida|side";
const OF_WORDS = "of|von|de|sur|di|van|z|aus|af|av|\\/";
export const COUNTER_OF = new RegExp(
  `(?:^|[^\\p{L}])(?:${PAGE_WORDS})\\s*:?\\s*(\\d{1,3})\\s*(?:${OF_WORDS})\\s*(\\d{1,3})(?!\\d)`,
  "iu",
);
export const COUNTER_ALONE = new RegExp(`(?:^|[^\\p{L}])(?:${PAGE_WORDS})\\s*:?\\s*(\\d{1,3})(?![\\d/.,])`, "iu");
const DASHED_NUMBER = /^\s*[-–]\s*(\d{1,3})\s*[-–]\s*$/;
/**
 * A page word as COUNTER_OF and COUNTER_ALONE read it (same flags): a text without one has neither counter on any of
 * its lines, which one search settles for most pages instead of two regexes per line (exported for its test).
 */
export const PAGE_WORD = new RegExp(PAGE_WORDS, "iu");

/** Reads "Page 2 of 3", "Seite 1 von 2", "Page 2 / 2", "Seite 2", "- 3 -" style page counters. */
export function parsePageCounter(text: string): PageCounter | null {
  const worded = PAGE_WORD.test(text);
  if (!worded && !text.includes("-") && !text.includes("–")) return null;
  const lines = text.split("\n");
  if (!worded) {
    for (const line of lines) {
      const m = DASHED_NUMBER.exec(line);
      if (m && Number(m[1]) >= 1) return { current: Number(m[1]), total: null };
    }
    return null;
  }
  for (const line of lines) {
    const m = COUNTER_OF.exec(line);
    if (m) {
      const current = Number(m[1]);
      const total = Number(m[2]);
      // "Page 3 of 2" is noise (OCR error, a table): no counter at all rather than a misleading one.
      return current >= 1 && total >= current ? { current, total } : null;
    }
  }
  for (const line of lines) {
    const m = COUNTER_ALONE.exec(line) ?? DASHED_NUMBER.exec(line);
    if (m && Number(m[1]) >= 1) return { current: Number(m[1]), total: null };
  }
  return null;
}

const DOC_WORDS =
  "invoice|rechnungs?|facture|factuur|fattura|factura|fatura|faktura|credit\\s*note|gutschrift|avoir|document|dokument|beleg|receipt|quittung|bon";
const NUMBER_WORDS = "number|nummer|numero|numéro|número|nr\\.?|no\\.?|n°|nº|n\\.|#|num\\.?|id";
const DOC_NUMBER = new RegExp(
  `(?:^|[^\\p{L}])(?:${DOC_WORDS})\\s*-?\\s*(?:${NUMBER_WORDS})\\s*[:.]?\\s*#?\\s*([\\p{L}\\d][\\p{L}\\d\\-_/.]*\\d[\\p{L}\\d\\-_/]*)`,
  "giu",
);

/** Document numbers next to their labels, normalised (upper case, no separators). */
export function parseDocumentNumbers(text: string): string[] {
  const found = new Set<string>();
  for (const m of text.matchAll(DOC_NUMBER)) {
    const value = m[1]
      .replace(/[.\-_/]+$/, "")
      .replace(/[\s\-_/.]/g, "")
      .toUpperCase();
    if (value.length >= 3 && /\d/.test(value)) found.add(value);
  }
  return [...found];
}

const IBAN = /\b([A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,7}(?:\s?[A-Z0-9]{1,3})?)\b/g;
const VAT_ID = /\b(?:DE|FR|NL|GB|AT|BE|IT|ES|LU|CH|PL|DK|SE|FI|IE|PT|CZ)\s?(?:\d[\s\dA-Z]{7,13}\d)\b/g;
const EMAIL_DOMAIN = /[\w.+-]+@([\w-]+(?:\.[\w-]+)+)/g;
const WEB_DOMAIN = /\b(?:https?:\/\/)?www\.([\w-]+(?:\.[\w-]+)+)/gi;

/** Identifiers that tell who issued a page. */
export function parseIssuerIds(text: string): string[] {
  const ids = new Set<string>();
  const ibans: Array<[number, number]> = [];
  for (const m of text.matchAll(IBAN)) {
    const iban = m[1].replace(/\s/g, "");
    if (!validIban(iban)) continue; // order and customer numbers look alike; the checksum tells
    ids.add("iban:" + iban);
    ibans.push([m.index, m.index + m[0].length]);
  }
  // An IBAN's first characters look like a VAT ID ("DE89 3704 0044"): no VAT ID inside an IBAN.
  for (const m of text.matchAll(VAT_ID))
    if (!ibans.some(([s, e]) => m.index < e && m.index + m[0].length > s)) ids.add("vat:" + m[0].replace(/\s/g, ""));
  for (const m of [...text.matchAll(EMAIL_DOMAIN), ...text.matchAll(WEB_DOMAIN)]) {
    const domain = registrable(m[1]!);
    if (!PUBLIC_BODY.test(domain)) ids.add("domain:" + domain);
  }
  return [...ids];
}

/**
 * Public authorities' sites (a tax office, the e-invoicing exchange: "www.fatturapa.gov.it" under every Italian
 * e-invoice rendering) are printed by many issuers: they tell nothing about who issued a page.
 */
const PUBLIC_BODY =
  /(?:^|\.)(?:gov|gouv|gob|go|govt|gv)\.[a-z]{2}$|^(?:[\w-]+\.)?gov$|(?:^|\.)(?:bund\.de|admin\.ch|europa\.eu)$/;

/** ISO 13616 check: move the first four characters to the end, letters to numbers, mod 97 must be 1. */
export function validIban(iban: string): boolean {
  if (!/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban)) return false;
  const digits = (iban.slice(4) + iban.slice(0, 4)).replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rest = 0;
  for (const d of digits) rest = (rest * 10 + Number(d)) % 97;
  return rest === 1;
}

/**
 * The registrable part of a domain: its last two labels, or three under a second-level public suffix ("co.uk",
 * "com.au", "gov.it"), where the last two would make every UK company one issuer.
 */
function registrable(domain: string): string {
  const labels = domain.toLowerCase().split(".");
  const secondLevel = labels.length >= 3 && SECOND_LEVEL.test(labels.at(-2)!) && labels.at(-1)!.length === 2;
  return labels.slice(secondLevel ? -3 : -2).join(".");
}

const SECOND_LEVEL = /^(?:co|com|net|org|gov|gouv|gob|go|govt|gv|ac|edu|ltd|plc|or|ne)$/;

const TITLE =
  /^(?:.{0,30}\b)?(invoice|tax invoice|rechnung|facture|factuur|fattura|factura|credit note|gutschrift|receipt|quittung|payment receipt|bill)\b/i;
const CONTINUATION =
  /\b(continued|continuation|fortsetzung|übertrag|uebertrag|carried forward|brought forward|suite)\b/i;
const CLOSING =
  /\b(grand total|total due|amount due|balance due|gesamtbetrag|rechnungsbetrag|endbetrag|zu zahlen|total ttc|somme à payer|totaal|total)\b/i;

/** Share of the page height that counts as header or footer band. */
const BAND = 0.12;

/**
 * Features per page, remembered for the same page content and class: the runner's read-ahead computes them while
 * the file converts (core/stages/convert/read-ahead.ts) and Split asks again. Callers only read them.
 *
 * The band tokens are remembered as one string (a token never holds a line break), their Set made again when asked:
 * a Set of ~40 short strings per page was most of the ~4 KB a page the memo held until Split, all pages of a long
 * file at once (issue 34: 8 MB of live heap at 2,000 pages when the file had converted).
 */
interface Remembered {
  text: string;
  words: object;
  transform: Page["image_transform"];
  classId: string | null;
  features: Omit<PageFeatures, "bandTokens">;
  bandTokens: string;
}

const featureMemo = new WeakMap<Page, Remembered>();

let remembered = 0;

export function pageFeatures(page: Page, classId: string | null = null): PageFeatures {
  const seen = featureMemo.get(page);
  if (
    seen &&
    seen.text === page.text &&
    seen.words === wordsIdentity(page) &&
    seen.transform === page.image_transform &&
    seen.classId === classId
  )
    return { ...seen.features, bandTokens: new Set(seen.bandTokens ? seen.bandTokens.split("\n") : []) };
  const features = featuresOf(page, classId);
  if (!seen) remembered++;
  const { bandTokens, ...rest } = features;
  featureMemo.set(page, {
    text: page.text,
    words: wordsIdentity(page),
    transform: page.image_transform,
    classId,
    features: rest,
    bandTokens: [...bandTokens].join("\n"),
  });
  return features;
}

function featuresOf(page: Page, classId: string | null): PageFeatures {
  const text = page.text;
  const lines = text.split("\n");
  const upperThird = lines.slice(0, Math.max(3, Math.ceil(lines.length / 3)));
  return {
    counter: parsePageCounter(text),
    documentNumbers: parseDocumentNumbers(text),
    issuerIds: parseIssuerIds(text),
    bandTokens: bandTokens(page),
    hasTitle: upperThird.some((l) => TITLE.test(l.trim())),
    hasContinuationCue: CONTINUATION.test(text),
    hasClosingCue: CLOSING.test(text),
    largestAmount: largestAmount(text),
    classId,
  };
}

/** Amounts with two decimals ("12,829.69", "12.829,69", "4918.84"), not parts of dates, times or longer numbers. */
const AMOUNT = /(?<![\d.,'])\d{1,3}(?:[.,']\d{3})*[.,]\d{2}(?![\d.,']?\d)|(?<![\d.,'])\d{4,9}[.,]\d{2}(?![\d.,']?\d)/g;

function largestAmount(text: string): number | null {
  let max: number | null = null;
  for (const m of text.matchAll(AMOUNT)) {
    const value = parseAmount(m[0]);
    if (value !== null && value > 0 && (max === null || value > max)) max = value;
  }
  return max;
}

/** Tokens of the words in the top and bottom bands of the page (by box position; by line when boxes are missing). */
function bandTokens(page: Page): Set<string> {
  const height =
    page.image_transform?.rasterized_height || Math.max(1, maxOf(page.words.map((w) => w.bounding_box[3])));
  const words = page.words.filter((w) => {
    const mid = (w.bounding_box[1] + w.bounding_box[3]) / 2;
    return mid < height * BAND || mid > height * (1 - BAND);
  });
  const source = words.length > 0 ? words.map((w) => w.text) : headAndTailLines(page.text).split(/\s+/);
  return new Set(source.map(bandToken).filter((t) => t.length >= 2));
}

/** A band word lower-cased, its digits as "#", marks other than "@" and "." dropped; a word of letters only is cased. */
const bandToken = (t: string) =>
  ASCII_LETTERS.test(t)
    ? t.toLowerCase()
    : t
        .toLowerCase()
        .replace(/\d/g, "#")
        .replace(/[^\p{L}#@.]/gu, "");
const ASCII_LETTERS = /^[A-Za-z]+$/;

function headAndTailLines(text: string): string {
  const lines = text.split("\n").filter((l) => l.trim());
  return [...lines.slice(0, 3), ...lines.slice(-3)].join(" ");
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 || b.size === 0) return 0;
  let common = 0;
  for (const t of a) if (b.has(t)) common++;
  return common / (a.size + b.size - common);
}

/**
 * Lets go of the pages' remembered features: the runner, once Split has run (nothing asks for them later) and when a
 * run stops. Kept with their pages they were ~3.6 KB a page until the run ended (issue 34: 3.6 MB of a 1,000-page
 * run's export-time heap).
 */
export function forgetPageFeatures(pages: Iterable<Page>): void {
  for (const page of pages) if (featureMemo.delete(page)) remembered--;
}

/** Pages whose features are remembered and not forgotten (tests count them; pages collected meanwhile still count). */
export const rememberedPageFeatures = (): number => remembered;
