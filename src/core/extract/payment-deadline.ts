/**
 * The due date stated in a payment sentence rather than under a label: "Bitte überweisen Sie den Rechnungsbetrag von
 * 1.234,56 EUR bis zum 13.04.2018 ohne Abzug …", "Please transfer … by 15/03/2024", "Merci de régler … au plus tard
 * le 13/04/2018". Accounting software prints the terms so, with no "due date" label anywhere on the page.
 *
 * A date counts when a deadline phrase stands right before it (OCR may put a mark between: "bis zum: 19.10.2022") ("bis zum", "spätestens am", "by", "no later than",
 * "au plus tard le", "uiterlijk", "entro il", …) and a payment word ("überweisen", "Zahlung", "pay", "transfer",
 * "régler", "betalen", a refund's "erstatten", …) stands earlier in the same sentence, which may have wrapped onto the line before. A date of
 * a cash discount ("bei Zahlung bis zum 20.04. 2 % Skonto") is not the due date, nor is the end of a period
 * ("vom 01.01. bis 31.12.").
 */
import type { Line } from "./lines";
import { findDates } from "./normalize";
import type { ReadContext } from "./values";
import { type Candidate, where } from "./candidate";

const DEADLINE =
  /(?<![\p{L}])(bis(\s+(zum|spätestens(\s+(zum|am))?))?|spätestens(\s+(am|bis(\s+zum)?|zum))?|by|no\s+later\s+than|not\s+later\s+than|on\s+or\s+before|before|until|au\s+plus\s+tard\s+le|avant\s+le|jusqu'au|d'ici\s+le|uiterlijk(\s+op)?|vóór|voor|entro\s+il|antes\s+del|hasta\s+el)[\s,:;.]*$/iu;
const PAYMENT =
  /(?<![\p{L}])(überweis|uberweis|zahl|bezahl|begleich|erstatt|pay|paid|transfer|remit|settle|refund|r[ée]gl|paie|rembours|vir(ement|er|ez)|betaal|betal|overmak|pag(a|o|ar|amento|ue))/iu;
const DISCOUNT = /skonto|discount|escompte|korting|sconto|descuento/iu;
/** The sentence before the date ends at a full stop after a word (not inside a date or an amount). */
const SENTENCE_END = /\p{L}{2}[.!?]\s/u;

/** Due-date candidates from payment sentences, in reading order (score 0.6: any labelled due date wins). */
export function paymentDeadlines(lines: Line[], ctx: ReadContext): Candidate[] {
  const out: Candidate[] = [];
  lines.forEach((line, i) => {
    for (const d of findDates(line.text, ctx.dateOrder)) {
      if (!d.iso) continue;
      const prev = lines[i - 1];
      const joined = prev && prev.page === line.page && line.box[1] - prev.box[3] < (line.box[3] - line.box[1]) * 1.2;
      const before = `${joined ? `${prev.text} ` : ""}${line.text.slice(0, d.start)}`;
      const phrase = DEADLINE.exec(before);
      if (!phrase) continue;
      // Only the sentence the date ends: "… Konto. Leistungszeitraum vom 01.01. bis 31.12." has no payment word.
      const sentence = before.slice(0, phrase.index).split(SENTENCE_END).pop() ?? "";
      if (!PAYMENT.test(sentence) || findDates(sentence.slice(-16), ctx.dateOrder).length) continue;
      if (DISCOUNT.test(`${sentence}${line.text.slice(d.end, d.end + 40)}`)) continue;
      out.push({
        match: { value: d.iso, line, start: d.start, end: d.end, strength: 0.6 },
        score: 0.6,
        reasoning: `date after "${phrase[0].trim()}" in a payment sentence (${where(line)})`,
      });
    }
  });
  return out;
}
