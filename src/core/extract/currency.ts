/**
 * The document currency: the currency printed next to the total wins; otherwise a vote over every currency
 * mention (an ISO code counts twice, a symbol once, since `$` is shared by many currencies).
 */
import type { FieldResult } from "../model";
import type { FieldSettings } from "../project";
import { findCurrencies } from "./normalize";
import { boxesOf, type Line, ocrConfidenceOf, spanOf } from "./lines";
import type { Candidate } from "./fields";
import { round } from "./fields";

export function extractCurrency(field: FieldSettings, lines: Line[], total: Candidate | undefined, reviewThreshold: number): FieldResult {
  if (total?.match.note) {
    const line = total.match.line;
    const mention = findCurrencies(line.text).find((c) => c.code === total.match.note && c.start < total.match.end + 3 && c.end > total.match.start - 3);
    if (mention) {
      const spans = [spanOf(line, mention.start, mention.end)];
      return result(field, mention.code, 0.95, spans, `currency "${line.text.slice(mention.start, mention.end)}" printed with the total (page ${line.page.page_number}, line ${line.index + 1})`, reviewThreshold);
    }
  }
  const votes = new Map<string, { score: number; first: { line: Line; start: number; end: number } }>();
  let mentions = 0;
  for (const line of lines) {
    for (const c of findCurrencies(line.text)) {
      mentions++;
      const v = votes.get(c.code) ?? { score: 0, first: { line, start: c.start, end: c.end } };
      v.score += c.explicit ? 2 : 1;
      votes.set(c.code, v);
    }
  }
  const ranked = [...votes].sort((a, b) => b[1].score - a[1].score);
  const best = ranked[0];
  if (!best) {
    return { name: field.name, value: null, confidence: 0, bounding_boxes: [], reasoning: "no currency code or symbol found", review_required: field.required, is_confirmed: null };
  }
  const total_ = ranked.reduce((s, [, v]) => s + v.score, 0);
  const share = best[1].score / total_;
  const { line, start, end } = best[1].first;
  return result(field, best[0], 0.5 + 0.4 * share, [spanOf(line, start, end)], `most frequent currency (${best[0]}: ${best[1].score} of ${total_} points over ${mentions} mention(s)); first at page ${line.page.page_number}, line ${line.index + 1}`, reviewThreshold);
}

function result(field: FieldSettings, code: string, strength: number, spans: ReturnType<typeof spanOf>[], reasoning: string, reviewThreshold: number): FieldResult {
  const confidence = round(strength * (0.4 + 0.6 * ocrConfidenceOf(spans)));
  return { name: field.name, value: code, confidence, bounding_boxes: boxesOf(spans), reasoning, review_required: confidence < reviewThreshold, is_confirmed: null, raw_text: spans.map((s) => s.text).join(" ") };
}
