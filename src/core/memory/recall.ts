/**
 * Using what was learned: recognise the issuer of a document among the project's memories and read its fields at
 * the remembered places first.
 *
 * Contracts:
 * - A document MUST match only on an identifier of the issuer (VAT ID, IBAN) or on two weaker signs together (name,
 *   e-mail/web domain, layout fingerprint); the layout alone never matches (many vendors share a template).
 * - An unmatched document MUST come back exactly as the general extractor made it.
 * - For a matched document, a field read at its remembered place (and of the remembered shape) replaces the general
 *   result, with reasoning that says so and names the confirmation date; a field that cannot be read there keeps the
 *   general result.
 */
import type { Classification, FieldResult, FieldValue, Page } from "../model";
import type { FieldSettings, ProjectSettings } from "../project";
import { boxesOf, ocrConfidenceOf, pageLines, spanOf, uprightSize, type Line, type LineWord } from "../extract/lines";
import { kindOf } from "../extract/fields";
import { readValue } from "../extract/values";
import { inferDateOrder, type DateOrder } from "../extract/normalize";
import { compact, domainsOf, fingerprint, locate, shapeOf } from "./learn";
import type { Memory, RememberedField } from "./model";

export interface MemoryMatch { memory: Memory; score: number; signs: string[] }

const MATCH_AT = 0.6;

export function matchMemory(memories: Memory[], lines: Line[]): MemoryMatch | null {
  if (!memories.length || !lines.length) return null;
  const text = lines.map((l) => l.text).join("\n");
  const upper = text.toUpperCase().replace(/[^A-Z0-9]/g, "");
  const flat = compact(text);
  const domains = new Set(domainsOf(text));
  const print = new Set(fingerprint(lines));
  let best: MemoryMatch | null = null;
  for (const m of memories) {
    const signs: string[] = [];
    let score = 0;
    const vat = m.issuer.vat_ids.find((v) => v.length >= 6 && upper.includes(v.replace(/[^A-Z0-9]/gi, "").toUpperCase()));
    if (vat) [score, signs[signs.length]] = [score + 0.6, `VAT ID ${vat}`];
    const iban = m.issuer.ibans.find((v) => v.length >= 12 && upper.includes(v));
    if (iban) [score, signs[signs.length]] = [score + 0.6, `IBAN ${iban}`];
    if (m.issuer.name && m.issuer.name.length >= 4 && flat.includes(m.issuer.name)) [score, signs[signs.length]] = [score + 0.35, "name"];
    const domain = m.issuer.domains.find((d) => domains.has(d));
    if (domain) [score, signs[signs.length]] = [score + 0.3, `domain ${domain}`];
    if (m.issuer.fingerprint.length && print.size) {
      const shared = m.issuer.fingerprint.filter((c) => print.has(c)).length;
      const jaccard = shared / (m.issuer.fingerprint.length + print.size - shared);
      if (jaccard >= 0.5) [score, signs[signs.length]] = [score + 0.3 * jaccard, `layout ${Math.round(100 * jaccard)}% alike`];
    }
    // The most recent confirmation wins a tie: it shows the issuer's current template.
    if (score >= MATCH_AT && (!best || score > best.score || (score === best.score && m.confirmed_at > best.memory.confirmed_at))) best = { memory: m, score, signs };
  }
  return best;
}

interface Read { line: Line; start: number; end: number; value: FieldValue; how: string }

const near = (a: number, b: number, tol: number) => Math.abs(a - b) <= tol;

function readAt(field: FieldSettings, r: RememberedField, line: Line, from: LineWord, order: DateOrder): { start: number; end: number; value: FieldValue } | null {
  const kind = kindOf(field);
  if (field.type === "string" && (kind === "identifier" || kind === "text" || kind === "party")) {
    const i = line.words.indexOf(from);
    const words = line.words.slice(i, i + r.words);
    if (words.length < r.words) return null;
    const value = words.map((w) => w.word.text).join(" ").replace(/[,;:]+$/, "");
    return { start: words[0]!.start, end: words[words.length - 1]!.end, value };
  }
  const m = readValue(kind, line, from.start, { dateOrder: order, values: field.values });
  return m && m.start <= from.end ? { start: m.start, end: m.end, value: m.value } : null;
}

function fits(field: FieldSettings, r: RememberedField, value: FieldValue): boolean {
  if (value === null || value === "") return false;
  return !r.shape || shapeOf(String(value)) === r.shape;
}

/** Reads one remembered field: next to its label first, else at its place on the page. */
function recallField(field: FieldSettings, r: RememberedField, lines: Line[], pages: Page[], order: DateOrder): Read | null {
  const page = pages[r.page - 1] ?? pages[0];
  if (!page) return null;
  const [W, H] = uprightSize(page);
  const onPage = lines.filter((l) => l.page === page);
  if (r.label && r.offset) {
    for (const hit of locate("string", r.label, onPage, order)) {
      const last = hit.words[hit.words.length - 1]!, first = hit.words[0]!;
      let target: { line: Line; word: LineWord } | null = null;
      if (r.relation === "right") {
        const x = last.box[2] / W + r.offset[0];
        const w = hit.line.words.filter((w) => w.box[0] >= last.box[2] - 1 && near(w.box[0] / W, x, 0.2)).sort((a, b) => Math.abs(a.box[0] / W - x) - Math.abs(b.box[0] / W - x))[0];
        if (w) target = { line: hit.line, word: w };
      } else {
        const x = first.box[0] / W + r.offset[0], y = first.box[3] / H + r.offset[1];
        const cands = onPage.filter((l) => l.box[1] >= first.box[1] && near(l.box[1] / H, y, 0.03)).flatMap((l) => l.words.map((w) => ({ line: l, word: w })));
        target = cands.filter((c) => near(c.word.box[0] / W, x, 0.1)).sort((a, b) => Math.abs(a.word.box[0] / W - x) - Math.abs(b.word.box[0] / W - x))[0] ?? null;
      }
      if (!target) continue;
      const got = readAt(field, r, target.line, target.word, order);
      if (got && fits(field, r, got.value)) return { line: target.line, ...got, how: `value ${r.relation === "right" ? "right of" : "below"} label "${hit.words.map((w) => w.word.text).join(" ")}"` };
    }
  }
  // A value that had a label and lost it is not guessed from its old place (totals move with the item count).
  if (r.label) return null;
  // A value that stood alone (a name in the letterhead, an ID in the footer): the word starting nearest its place.
  const cands = onPage.flatMap((l) => l.words.map((w) => ({ line: l, word: w, d: Math.hypot(w.box[0] / W - r.position[0], 3 * (w.box[1] / H - r.position[1])) })));
  for (const c of cands.filter((c) => c.d <= 0.06).sort((a, b) => a.d - b.d).slice(0, 3)) {
    const got = readAt(field, r, c.line, c.word, order);
    if (got && fits(field, r, got.value)) return { line: c.line, ...got, how: "value at the remembered place on the page" };
  }
  return null;
}

const day = (iso: string) => iso.slice(0, 10);

/**
 * The narrow hook the pipeline calls after classification and extraction: returns the document's classification
 * and fields, changed only when a memory matches (see the module contract).
 */
export function applyMemory(
  pages: Page[],
  classification: Classification,
  fields: Record<string, FieldResult>,
  project: ProjectSettings,
  extract: (classId: string) => Record<string, FieldResult>,
): { classification: Classification; fields: Record<string, FieldResult>; memory_id?: string } {
  const memories = project.memory;
  if (!memories.length) return { classification, fields };
  const lines = pages.flatMap((p) => pageLines(p));
  const match = matchMemory(memories, lines);
  if (!match) return { classification, fields };
  const m = match.memory;
  const since = `as on the document confirmed on ${day(m.confirmed_at)} (issuer recognised by ${match.signs.join(", ")})`;
  // The remembered class decides only where the classifier was unsure: an issuer sends invoices and credit notes.
  if (classification.class_id !== m.class_id && classification.confidence < project.review_thresholds.classification && project.classes.some((c) => c.id === m.class_id)) {
    const cls = project.classes.find((c) => c.id === m.class_id)!;
    classification = { ...classification, class_id: cls.id, type: cls.name, confidence: Math.max(classification.confidence, 0.9), reasoning: `${since}; the classifier said ${classification.class_id} (${classification.confidence})`, review_required: false };
    fields = extract(cls.id);
  }
  if (classification.class_id !== m.class_id) return { classification, fields };
  const text = lines.map((l) => l.text).join("\n");
  const order = inferDateOrder([text], project.locale, false);
  const negative = project.classes.find((c) => c.id === m.class_id)?.amount_sign === "negative";
  const threshold = project.review_thresholds.field;
  const out = { ...fields };
  for (const field of project.fields[m.class_id] ?? []) {
    const r = m.fields[field.id];
    if (!r || !out[field.id]) continue;
    const read = recallField(field, r, lines, pages, order);
    if (!read) continue;
    const spans = [spanOf(read.line, read.start, read.end)];
    const confidence = Math.round((r.label ? 0.97 : 0.9) * (0.4 + 0.6 * ocrConfidenceOf(spans)) * 1000) / 1000;
    const value = negative && field.type === "amount" && typeof read.value === "number" ? -Math.abs(read.value) : read.value;
    out[field.id] = {
      ...out[field.id]!,
      value,
      confidence,
      bounding_boxes: boxesOf(spans),
      reasoning: `${since}: ${read.how} (page ${read.line.page.page_number}, line ${read.line.index + 1})`,
      review_required: confidence < threshold,
      raw_text: spans.map((s) => s.text).join(" | "),
    };
  }
  return { classification, fields: out, memory_id: m.memory_id };
}
