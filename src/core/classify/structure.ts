/**
 * Classification by structure, beyond cue words: what the page looks like and which blocks it carries.
 *
 * Contracts:
 * - Till-receipt traits: a narrow page (a till roll) or a narrow column of short lines (a photo of one), a time of
 *   day next to a date, cash tendered and change given, fuel pumped at a price per litre or gallon, or a masked
 *   card number, a cashier or till number, a total with its amount (or, its label garbled, four priced lines) on a
 *   till roll. Two or more make the document a receipt whatever its title says ("TAX INVOICE" on a till receipt).
 * - Billing structure: a total with its amount plus a tax line with its amount counts for the billing classes
 *   (invoice, credit note, receipt) against letters and contracts, so a cue word inside a line item ("Laufzeit")
 *   cannot outweigh it.
 * - A total printed below zero counts for the credit note.
 * - A bill in the form of a letter: a salutation, a subject line naming an invoice or credit note with its number
 *   ("INVOICE 2025/017 - Advisory services", "Re: Credit note CN-12") and the billing structure above (or a total
 *   and a tax word with its rate, as OCR may part a tax line from its amount) count for that class as much as a
 *   salutation and a sign-off count for the letter: those are the form, the subject says what it is.
 * - Points go to classes by their ids (`receipt`, `invoice`, `credit_note`); a project without such classes gets none.
 */
import type { Page } from "../model";
import { fold } from "../extract/fuzzy";
import type { CueScore } from "./cues";

export interface StructureBonus {
  class_id: string;
  points: number;
  why: string;
  /** The till-receipt traits' bonus (tillTitleBonus looks for it). */
  till?: true;
}

/** A date and a time of day on one line, up to a short label apart ("Date: 04/10/2024 Time: 18:03:22"). */
const TIME_WITH_DATE =
  /(?<!\d)\d{1,4}[./-]\d{1,2}[./-]\d{2,4}[^\n\d]{0,12}(?<!\d)\d{1,2}:\d{2}(?::\d{2})?(?!\d)|(?<!\d)\d{1,2}:\d{2}(?::\d{2})?[^\n\d]{0,12}\d{1,4}[./-]\d{1,2}[./-]\d{2,4}(?!\d)/;
/** The same with the month as a word ("14 JUL 2023 07:51", "JUL 14, 2023 7:51 PM", "3. MÄR 2024 12:10"). */
const TIME_WITH_WORD_DATE =
  /(?<![\p{L}\d])(\d{1,2}\.?\s?\p{L}{3,9}\.?\s?\d{2,4}|\p{L}{3,9}\.?\s\d{1,2},?\s\d{4})[^\n\d]{0,12}(?<!\d)\d{1,2}:\d{2}(?::\d{2})?(?!\d)/u;
/** Change given; OCR may read a stray mark between the label and its amount ("Change i 0.10", "CHANGE | 1.50"). */
const CASH_CHANGE =
  /(?<![\p{L}])(change|change due|rückgeld|wechselgeld|rendu|monnaie|wisselgeld|terug|cambio|vuelto|resto|kembalian|baki)\s*(?:[:;|!]|\s[il](?=\s))?\s*[-€$£]?\s*(rm|rs|s\$|\$)?\s*\d+[.,]\d{2}/iu;
const TENDERED =
  /(?<![\p{L}])(cash|tendered|bar|gegeben|espèces|especes|contant|efectivo|contanti|tunai)\s*:?\s*[-€$£]?\s*(rm|rs|s\$|\$)?\s*\d+[.,]\d{2}/iu;
const MASKED_CARD = /(?:\*{3,}|[xX]{4,})\s?\d{4}(?!\d)/;
/** A line starting with a card scheme and ending with the amount charged ("MASTERCARD 30.42", "EC-CASH 12,50"). */
const CARD_PAID =
  /^\s*(visa|master\s?card|maestro|amex|debit|ec-?\s?(?:cash|karte)|girocard|eftpos)(?![\p{L}])[^\n]*\d[.,]\d{2}\s*$/imu;
/** A fuel sale: the volume pumped at a price per litre or gallon ("32.45 L @ 1.789", "19,05 l x 1,597 EUR/l"). */
const FUEL_SALE =
  /(?<![\d.,])\d{1,3}[.,]\d{2,3}\s?(?:l|ltr|litres?|liters?|gal)\.?\s*(?:@|x|à|a)\s*[€$£]?\s?\d[.,]\d{2,3}/iu;
/** An item row of a quantity times a unit price ("1X 55.00", "4 @ 4.21 16.84", "6 x 1.00"), at a line's start. */
const QTY_PRICE = /^\s*\d{1,3}\s?[x×@]\s?(?:rm|\$|€|£)?\s?\d+[.,]\d{2}(?!\d)/gimu;
const TILL_WORDS =
  /(?<![\p{L}])(cashier|kassierer|caissier|kassa|cajero|cassiere|till|counter|terminal|pos\s?no|receipt\s?no|bon\s?nr|trans(?:action)?\s?no|table|pax|server|member|terima kasih|danke fur ihren einkauf|merci de votre visite|please come again)(?![\p{L}])/iu;
/**
 * What tills print around the sale: a store or register number, an item count, savings, the greeting at the foot
 * ("THANK YOU FOR SHOPPING", "VIELEN DANK FÜR IHREN EINKAUF", "BEDANKT VOOR UW BEZOEK"), a cash rounding line, the
 * receipt's number at a line's end ("BON 4761", "Bon-Nr. 1234").
 */
const TILL_PRINT =
  /(?<![\p{L}])(store\s?(?:#|no\.?)\s?\d|reg(?:ister)?\s?(?:#|no\.?)?\s?\d{1,3}\s+(?:trn|trans|tx)|items?\s?(?:sold|count)?\s?:?\s?\d{1,3}\s*$|you saved|thank(?:s| you)\s+for\s+(?:shopping|visiting)|vielen dank fur ihren besuch|bedankt voor uw (?:bezoek|aankoop)|rounding(?:\s?adj)?\s*:?\s*-?\d?[.,]\d{2}|bon\s?(?:-?nr\.?|no\.?|#)?\s?:?\s?\d{3,6}\s*$)/imu;
const TOTAL_LINE =
  /(?<![\p{L}])(total|totaal|summe|gesamt|gesamtbetrag|rechnungsbetrag|gutschriftsbetrag|bruttobetrag|endbetrag|zahlbetrag|zu zahlen(?:der betrag)?|totale|importe total|montant ttc|net à payer|te betalen|grand total|amount due|amount payable)(?![\p{L}])[^\n]*\d[.,]\d{2}/iu;
/**
 * A tax word with an amount after it on its line: `/(?<![\p{L}])(vat|tax|…|iva|\p{L}*steuer|mehrwertsteuer)(?![\p{L}])
 * [^\n]*\d[.,]\d{2}/iu`, tested as two regexes. A word ending in "steuer" (any letters before it, a word start
 * behind them) matches exactly where "steuer" is followed by no letter, so STEUER_LINE needs neither the lookbehind
 * nor `\p{L}*`, which retried every letter of every word from every word start (~7× the cost of the rest).
 */
const TAX_WORD_LINE = /(?<![\p{L}])(vat|tax|gst|sst|mwst|ust|btw|tva|iva)(?![\p{L}])[^\n]*\d[.,]\d{2}/iu;
const STEUER_LINE = /steuer(?![\p{L}])[^\n]*\d[.,]\d{2}/iu;
/** Whether `text` has a tax line (TAX_WORD_LINE, STEUER_LINE); exported for the test that holds it to the one regex. */
export const hasTaxLine = (text: string): boolean => TAX_WORD_LINE.test(text) || STEUER_LINE.test(text);
const NEGATIVE_TOTAL =
  /(?<![\p{L}])(total|totaal|summe|gesamt|totale|montant|amount due|balance|(?:netto|brutto|rechnungs|gutschrifts|gesamt|end)betrag)(?![\p{L}])[^\n\d-]*(-\s?[€$£]?\s?\d[\d.,' ]*[.,]\d{2}|\(\s?[€$£]?\s?\d[\d.,' ]*[.,]\d{2}\s?\)|\d[\d.,' ]*[.,]\d{2}-)/iu;

/** A letter's salutation opening a line ("Dear Ms Rao,", "Sehr geehrte Damen und Herren,"). */
const SALUTATION =
  /^\s*(?:dear|sehr geehrte|geachte|madame|monsieur|estimad[oa]s?|gentile|egregio|szanown[iy])(?![\p{L}])/imu;
/**
 * A subject line that names a billing document with its number, at a line's start: an optional "Re:" / "Subject:",
 * the title, an optional number word, a number with a digit, and at most a dash or colon and a description after it,
 * or the document's date beside it ("Gutschrift Nr. 123456XX   Datum: 04.04.2016", as a text layer joins them).
 */
const BILL_SUBJECT =
  /^\s*(?:(?:re|subject|betreff|betreft|objet|oggetto|asunto)\s*:\s*)?(invoice|tax invoice|rechnung|factuur|facture|factura|fattura|credit note|credit memo|gutschrift)\s*(?:no\.?|nr\.?|n°|number|#)?\s*:?\s*[\p{L}\p{N}][\p{L}\p{N}/.-]*\d[\p{L}\p{N}/.-]*\s*(?:[-–—:]\s+\S[^\n]*|\s(?:datum|date|vom|du|dated|del)\s*:?\s*\d{1,4}[./-]\d{1,2}[./-]\d{2,4})?\s*$/imu;
const CREDIT_TITLE = /^(?:credit note|credit memo|gutschrift)$/i;
/**
 * A tax word with its rate on its line ("GST (5%)", "QST 9.975%"): on a scanned letter OCR may set a tax line's
 * amount, far right, on a line of its own, while the rate stays with the word. Enough, beside a total, for a bill in
 * the form of a letter (its subject already names the bill); alone it would count a contract's "plus VAT 20%".
 */
const TAX_RATE_LINE =
  /(?<![\p{L}])(?:vat|tax|gst|hst|pst|qst|mwst|ust|btw|tva|iva)(?![\p{L}])[^\n\d]{0,12}\d{1,2}(?:[.,]\d{1,3})?\s?%/iu;
/** Points of a letter-form bill: a salutation and a sign-off give the letter about 12. */
const LETTER_BILL_POINTS = 12;

/** How wide a till roll's ink runs at most: an 80 mm roll prints ≤ 72 mm. */
const ROLL_INCHES = 3.6;

/** A till roll (≤ 320 pt wide) or, on an image, a narrow column of short lines. */
function tillShaped(page: Page): boolean {
  const t = page.image_transform;
  if (t.source_unit === "point" && Math.min(t.source_width, t.source_height) <= 320 && t.source_height > t.source_width)
    return true;
  // The non-blank lines' count, how many are short (36 characters or less) and the longest, in one pass.
  let count = 0;
  let short = 0;
  let longest = 0;
  for (const line of page.text.split("\n")) {
    const length = line.trim().length;
    if (!length) continue;
    count++;
    if (length <= 36) short++;
    longest = Math.max(longest, length);
  }
  if (count < 8) return false;
  // The line lengths settle most pages (a page's lines are long) before its words are unpacked and measured: the
  // median length is over 36 when no more than half of the lines (rounded down) are short.
  if (short <= Math.floor(count / 2) || !page.words.length) return false;
  const [width, height] = inkSize(page.words);
  const rotated = Math.abs(t.rotation ?? 0) % 180 === 90;
  const ratio = rotated ? height / width : width / height;
  // A text layer's ink is measured in points: an A4 page's text block is as slender as a roll (its lines are cut at
  // every column, so they are short too), but a roll prints ≤ 3.6 inches wide (a till receipt saved as a PDF on an
  // A4 page still does). Without this an online shop's A4 invoice with a card number and an order time had three
  // till traits.
  if (count >= 10 && ratio < 0.75)
    return page.text_source !== "text_layer" || (rotated ? height : width) / t.render_scale <= ROLL_INCHES * 72;
  // Read from an image, the page's size says nothing (a photo, a receipt scanned on a full page) and a short
  // receipt is as wide as it is long; what still tells it from a page is that no line is long (a till prints
  // 32–48 characters, a page's address, table and footer lines run past 60) or, at a known resolution, that its
  // ink is narrow (an 80 mm roll prints ≤ 72 mm; boxes are in rasterized pixels at effective_dpi). A text layer's
  // lines are cut at every column, so these tests are for OCR'd pages only.
  if (page.text_source !== "ocr") return false;
  if (t.effective_dpi && (rotated ? height : width) / t.effective_dpi <= ROLL_INCHES) return true;
  return count >= 10 && longest <= 52;
}

/**
 * As wide as a till roll prints: no line longer than 52 characters (a till prints 32-48) and its ink no wider than
 * 3.6 inches at a known resolution, or than 60 of its own characters at an unknown one (a PNG without DPI: an A4
 * invoice's OCR lines are short too when its columns are read apart, but its ink spans 80 or more characters).
 */
function rollWide(page: Page): boolean {
  if (page.text.split("\n").some((line) => line.trim().length > 52)) return false;
  if (!page.words.length) return true;
  const t = page.image_transform;
  const sideways = Math.abs(t.rotation ?? 0) % 180 === 90;
  const [width, height] = inkSize(page.words);
  const across = sideways ? height : width;
  if (t.effective_dpi) return across / t.effective_dpi <= ROLL_INCHES;
  return across / characterWidth(page.words, sideways) <= 60;
}

/** The median width of one character in the words' boxes (along the line), for a page of unknown resolution. */
function characterWidth(words: Page["words"], sideways: boolean): number {
  const widths = words
    .filter((w) => w.text.length >= 3)
    .map(({ text, bounding_box: b }) => (sideways ? b[3] - b[1] : b[2] - b[0]) / text.length)
    .sort((a, b) => a - b);
  return widths.length ? Math.max(widths[widths.length >> 1]!, 1e-6) : Number.POSITIVE_INFINITY;
}

/** Width and height of the box around all the words, in one pass. */
function inkSize(words: Page["words"]): [number, number] {
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const { bounding_box: b } of words) {
    x0 = Math.min(x0, b[0]);
    y0 = Math.min(y0, b[1]);
    x1 = Math.max(x1, b[2]);
    y1 = Math.max(y1, b[3]);
  }
  return [x1 - x0, y1 - y0];
}

/**
 * A document's till-receipt traits: none without a strong one (a till-roll shape, change given or cash tendered,
 * fuel pumped). The weak ones (a card, a time of day, till words) count only next to a strong one, so they are
 * looked for only then: five scans of the text that most documents do not need.
 */
function tillTraits(first: Page, text: string, folded: string): string[] {
  const traits: string[] = [];
  const narrow = tillShaped(first);
  if (narrow) traits.push("narrow till-roll layout");
  if (CASH_CHANGE.test(folded)) traits.push("change given");
  else if (TENDERED.test(folded)) traits.push("cash tendered");
  if (FUEL_SALE.test(folded)) traits.push("fuel pumped at a price per unit");
  if (!traits.length) return traits;
  // Weak alone (an online shop's invoice has a card number and an order time): they count next to a strong trait.
  if (MASKED_CARD.test(text)) traits.push("masked card number");
  else if (CARD_PAID.test(folded)) traits.push("a card's payment line");
  if (TIME_WITH_DATE.test(text) || TIME_WITH_WORD_DATE.test(text)) traits.push("time of day with the date");
  if (TILL_WORDS.test(folded) || TILL_PRINT.test(folded)) traits.push("till vocabulary");
  if ((text.match(QTY_PRICE)?.length ?? 0) >= 2) traits.push("item rows of a quantity times a unit price");
  // A total with its amount on a till roll: what a poorly read photo of a receipt still shows when its payment
  // lines, date and till words are lost (faint print, a shadow). Only where the receipt is as wide as a roll:
  // an invoice's OCR lines are mostly short too when its columns are read apart, and an A4 page is narrow.
  const roll = narrow && rollWide(first);
  if (roll && TOTAL_LINE.test(text)) traits.push("a total with its amount on a till roll");
  // Lines of a word and the price at their end, on a roll: what is left of a faint photo whose total, payment and
  // till words OCR garbled all alike ("SUMML EUR 5.40", "nickgeld '1.60", "Halfvolle malk 3 3,46 33,39").
  else if (roll && pricedLines(text) >= PRICED_LINES) traits.push("priced lines on a till roll");
  return traits;
}

/** A line with a word on it that ends at a price (a mark or two of OCR junk after it). */
const PRICED_LINE = /\p{L}{2}[^\n]*?(?<![\d.,])\d{1,6}[.,]\d{2}[^\p{L}\p{N}\n]{0,2}$/gmu;
/** Priced lines that make a till roll's list of items and payments (an invoice's totals block has three or so). */
const PRICED_LINES = 4;

function pricedLines(text: string): number {
  return text.match(PRICED_LINE)?.length ?? 0;
}

/** Structure points per class for a document's pages; see the module contract. */
export function structureBonus(pages: Page[]): StructureBonus[] {
  const first = pages[0];
  if (!first) return [];
  const text = pages.map((p) => p.text).join("\n");
  const out: StructureBonus[] = [];
  // Multi-page documents are rarely till receipts: the traits need a one- or two-page document. Enough points to
  // outweigh a "TAX INVOICE" title, which tills in many countries must print.
  const traits = pages.length <= 2 ? tillTraits(first, text, fold(text)) : [];
  if (traits.length >= 2)
    out.push({
      class_id: "receipt",
      points: 5 * traits.length,
      why: `till-receipt traits: ${traits.join(", ")}`,
      till: true,
    });
  const totalLine = TOTAL_LINE.test(text);
  const taxLine = totalLine && hasTaxLine(text);
  if (taxLine)
    for (const id of ["invoice", "credit_note", "receipt"])
      out.push({ class_id: id, points: 3, why: "a total and a tax line with amounts" });
  if (taxLine || (totalLine && TAX_RATE_LINE.test(text))) {
    const subject = SALUTATION.test(first.text) ? BILL_SUBJECT.exec(first.text) : null;
    if (subject) {
      const title = subject[1]!.toLowerCase();
      const class_id = CREDIT_TITLE.test(title) ? "credit_note" : "invoice";
      out.push({
        class_id,
        points: LETTER_BILL_POINTS,
        why: `a letter whose subject names the ${title} with its number`,
      });
      // The billing structure's points, which the text layer of the same letter gets from its tax line.
      if (!taxLine) out.push({ class_id, points: 3, why: "a total and a tax word with its rate" });
    }
  }
  if (NEGATIVE_TOTAL.test(text)) out.push({ class_id: "credit_note", points: 2, why: "a total below zero" });
  return out;
}

/**
 * The invoice class's title cues that tills print as their own title: "TAX INVOICE" (Malaysia, Singapore,
 * Australia, India: the law asks for it), "Rechnung", "Factura simplificada", an invoice number or date.
 */
const TILL_TITLE_CUE =
  /^(?:(?:simplified|retail|tax)\s)*(?:invoice|bill|rechnung|factuur|facture|faktura|factura|fattura|fatura)(?:\s(?:number|no|nr|date))?(?: \(OCR-tolerant\))?$|^\/\\binv\(oice\)\?/i;

/**
 * On a document with till-receipt traits, the points the invoice's title cues gave it count for the receipt as
 * much: there they name the till's slip, not a bill to pay, and the traits decide. Up to three title hits and a
 * number pattern outweighed three traits before (a Malaysian petrol station's "TAX INVOICE", "TAX INVOICE NO").
 */
export function tillTitleBonus(structure: StructureBonus[], cues: CueScore[]): StructureBonus | null {
  if (!structure.some((b) => b.till)) return null;
  const titles = cues
    .find((c) => c.class_id === "invoice")
    ?.hits.filter((h) => h.points > 0 && TILL_TITLE_CUE.test(h.cue));
  if (!titles?.length) return null;
  const points = titles.reduce((sum, h) => sum + h.points, 0);
  return {
    class_id: "receipt",
    points,
    why: `${titles.map((h) => `"${h.cue}"`).join(", ")} printed as the till's title`,
  };
}
