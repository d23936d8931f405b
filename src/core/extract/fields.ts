/**
 * Finding one field's value on a document's lines: labelled values (right of or below a label), configured
 * patterns (label-candidates.ts), built-in recognisers and fallbacks (field-recognizers.ts), each scored; the best
 * candidate becomes the FieldResult.
 */
import type { FieldResult } from "../model";
import type { FieldSettings } from "../project";
import { boxesOf, type Line, ocrConfidenceOf, spanOf, uprightSize } from "./lines";
import type { ReadContext, ValueKind } from "./values";
import { recipientWords } from "./party-blocks";
import { withoutSpecks } from "./specks";
import {
  markedWords,
  marksReadElsewhere,
  umlautsRead,
  withoutGrainAfterForm,
  withoutStrayLetter,
  withoutTrailingMark,
} from "./ocr-letters";
import type { Candidate } from "./candidate";
import { labelCandidates, patternCandidates } from "./label-candidates";
import { recognizerCandidates } from "./field-recognizers";
import { summaryRowCandidates } from "./summary-row";
import { pushAll } from "../arrays";

export function kindOf(field: FieldSettings): ValueKind {
  const r = field.hints.recognizer;
  if (r && r !== "currency") return r;
  switch (field.type) {
    case "date":
      return "date";
    case "amount":
      return "amount";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    case "enum":
      return "enum";
    default:
      return "text";
  }
}

/** Candidates outside the field's expected region (fractions of the page) count half. */
function applyRegion(field: FieldSettings, candidates: Candidate[]): void {
  const region = field.hints.expected_region;
  if (!region) return;
  for (const c of candidates) {
    const { page } = c.match.line;
    const words = c.match.line.words.filter((w) => w.start < c.match.end && w.end > c.match.start);
    if (!words.length) continue;
    const [width, height] = uprightSize(page);
    const cx = words.reduce((s, w) => s + (w.box[0] + w.box[2]) / 2, 0) / words.length / width;
    const cy = words.reduce((s, w) => s + (w.box[1] + w.box[3]) / 2, 0) / words.length / height;
    const inside = cx >= region[0] && cx <= region[2] && cy >= region[1] && cy <= region[3];
    if (!inside) {
      c.score *= 0.5;
      c.reasoning += ", outside the expected region";
    } else c.reasoning += ", in the expected region";
  }
}

/** All candidates for a field, best first. Ties keep reading order, except amounts: the larger wins. */
export function fieldCandidates(field: FieldSettings, lines: Line[], ctx: ReadContext): Candidate[] {
  const kind = kindOf(field);
  const labelled = labelCandidates(field, kind, lines, ctx);
  const recognised = recognizerCandidates(field, kind, lines, ctx);
  // A checksum- or format-valid value next to its label is the best evidence there is: better than the same kind
  // of value anywhere (a customer's VAT ID printed first) and better than a far-down label alone.
  if (kind === "iban" || kind === "vat_id" || kind === "email") {
    for (const c of labelled)
      if (recognised.some((r) => r.match.value === c.match.value)) c.score = Math.min(1, Math.max(c.score, 0.8) + 0.1);
  }
  const all = [...labelled, ...patternCandidates(field, kind, lines, ctx), ...recognised];
  if (kind === "amount") pushAll(all, summaryRowCandidates(field, lines, ctx));
  applyRegion(field, all);
  // The seller's fields (VAT ID, address, bank) are not read from the buyer's block.
  if (field.id.startsWith("vendor_") || field.id === "iban") {
    const recipient = recipientWords(lines);
    for (const c of all) {
      if (!c.match.line.words.some((w) => w.start < c.match.end && w.end > c.match.start && recipient.has(w.word)))
        continue;
      [c.score, c.reasoning] = [c.score * 0.5, `${c.reasoning}, in the buyer's block: counts half`];
    }
  }
  if (kind === "party") {
    let marked: Map<string, string> | undefined;
    for (const c of all) {
      c.match.value = withoutSpecks(c.match.value as string);
      if (c.match.line.page.text_source !== "ocr") continue;
      marked ??= markedWords(lines);
      const plain = withoutGrainAfterForm(withoutTrailingMark(withoutStrayLetter(umlautsRead(c.match.value))));
      c.match.value = marksReadElsewhere(plain, marked);
    }
  }
  // A zero amount is a balance after payment ("Balance due 0.00") far more often than the document's value.
  if (kind === "amount")
    for (const c of all)
      if (c.match.value === 0) [c.score, c.reasoning] = [c.score * 0.5, `${c.reasoning}, zero counts half`];
  return all.sort(
    (a, b) =>
      b.score - a.score ||
      (kind === "amount" ? Math.abs(b.match.value as number) - Math.abs(a.match.value as number) : 0),
  );
}

/** Builds the FieldResult for a chosen candidate (or an empty one): boxes are the union of the source words. */
export function toFieldResult(field: FieldSettings, best: Candidate | undefined, reviewThreshold: number): FieldResult {
  if (!best) {
    return {
      name: field.name,
      value: null,
      confidence: 0,
      bounding_boxes: [],
      reasoning: "not found",
      review_required: field.required,
      is_confirmed: null,
    };
  }
  const spans = [spanOf(best.match.line, best.match.start, best.match.end), ...(best.extraSpans ?? [])];
  const ocr = ocrConfidenceOf(spans);
  // OCR confidence scales the match strength; a perfect label match on a shaky word is still shaky.
  const confidence = round(best.score * (0.4 + 0.6 * ocr));
  return {
    name: field.name,
    value: best.match.value,
    confidence,
    bounding_boxes: boxesOf(spans),
    reasoning: best.reasoning,
    review_required: confidence < reviewThreshold,
    is_confirmed: null,
    raw_text: spans.map((s) => s.text).join(" | "),
  };
}

export const round = (x: number) => Math.round(x * 1000) / 1000;
