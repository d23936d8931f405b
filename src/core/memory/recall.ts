/**
 * Using what was learned: recognise the issuer of a document among the project's memories (evidence.ts) and read its
 * fields at the remembered places (read.ts).
 *
 * Contracts:
 * - An unmatched document MUST come back exactly as the general extractor made it.
 * - Memory is the second line after zero-config reading, never above what the document itself proves: values read
 *   from an e-invoice XML (embedded or standalone) and amounts whose arithmetic closes (net + tax = total) are never
 *   replaced.
 * - A field read at its remembered place replaces the general result, with reasoning naming the confirmation, the
 *   evidence and the match score; its confidence never exceeds what that evidence supports (the score caps it).
 * - A remembered value that leaves the page's amounts contradicting each other is flagged for review.
 */
import type { Classification, FieldResult, Page } from "../model";
import type { FieldSettings, ProjectSettings } from "../project";
import { boxesOf, ocrConfidenceOf, pageLines, spanOf, type Line } from "../extract/lines";
import { inferDateOrder, type DateOrder } from "../extract/normalize";
import { bestMemoryMatch, type MemoryMatch } from "./evidence";
import { fingerprint } from "./issuer";
import type { Memory, RememberedField } from "../project/memory";
import { recallField } from "./read";

export type { MemoryMatch } from "./evidence";

/** A memory written before layouts were relative to the text: its page-grid fingerprint, as matched then. */
function legacyLayout(m: Memory, lines: Line[]): number {
  if (!m.issuer.fingerprint.length) return 0;
  const print = new Set(fingerprint(lines));
  const shared = m.issuer.fingerprint.filter((c) => print.has(c)).length;
  return shared / (m.issuer.fingerprint.length + print.size - shared || 1);
}

export function matchMemory(memories: Memory[], lines: Line[]): MemoryMatch | null {
  return bestMemoryMatch(memories, lines, legacyLayout);
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
  const since = `as on the document confirmed on ${day(m.confirmed_at)} (issuer recognised by ${match.signs.join(", ")}; match score ${match.score})`;
  // What the evidence supports: a strong match (identifier, name at its place, fixed strings, layout) up to 0.97.
  const cap = Math.min(0.97, 0.55 + 0.5 * match.score);
  // The remembered class decides only where the classifier was unsure: an issuer sends invoices and credit notes.
  if (
    classification.class_id !== m.class_id &&
    classification.confidence < project.review_thresholds.classification &&
    project.classes.some((c) => c.id === m.class_id)
  ) {
    const cls = project.classes.find((c) => c.id === m.class_id)!;
    classification = {
      ...classification,
      class_id: cls.id,
      type: cls.name,
      confidence: Math.max(classification.confidence, Math.min(0.9, cap)),
      reasoning: `${since}; the classifier said ${classification.class_id} (${classification.confidence})`,
      review_required: Math.min(0.9, cap) < project.review_thresholds.classification,
    };
    fields = extract(cls.id);
  }
  if (classification.class_id !== m.class_id) return { classification, fields };
  return {
    classification,
    fields: applyFields(pages, lines, fields, project, match, since, cap),
    memory_id: m.memory_id,
  };
}

const fromXml = (f: FieldResult | undefined) =>
  Boolean(f?.reasoning.startsWith("read from the") && f.reasoning.includes("e-invoice XML"));
const AMOUNTS = ["subtotal_amount", "tax_amount", "total_amount"] as const;
const num = (f: FieldResult | undefined) => (typeof f?.value === "number" ? f.value : null);

/** Net + tax = total on these fields (all three read). */
function closes(fields: Record<string, FieldResult>): boolean | null {
  const [n, t, g] = AMOUNTS.map((k) => num(fields[k]));
  if (n === null || t === null || g === null) return null;
  return Math.abs(Math.abs(n + t) - Math.abs(g)) <= 0.02;
}

interface ReadingContext {
  pages: Page[];
  lines: Line[];
  order: DateOrder;
  text: string;
  cap: number;
  since: string;
  threshold: number;
}

/**
 * The issuer's confirmed constant in place of the general reading, or null: a name printed only as a logo, a
 * currency the page shows only as a symbol, a value never printed. Only where the remembered places read nothing.
 */
function constantReading(
  field: FieldSettings,
  r: RememberedField,
  general: FieldResult,
  match: MemoryMatch,
  ctx: ReadingContext,
): FieldResult | null {
  const m = match.memory;
  const constant = [r, ...(r.variants ?? [])].find((p) => p.constant);
  // The issuer's name as a logo: once the issuer is recognised, its confirmed name is known, whatever was read.
  const isName = constant !== undefined && m.issuer.names.includes(String(constant.example));
  // A currency the page shows only as a symbol OCR may misread (€ as £) gives way to the issuer's confirmed one; a
  // printed ISO code does not.
  const symbolOnly =
    field.hints.recognizer === "currency" &&
    typeof general.value === "string" &&
    /^[A-Z]{3}$/.test(general.value) &&
    general.value !== constant?.example &&
    !new RegExp(`\\b${general.value}\\b`).test(ctx.text);
  const silent = general.value === null || general.value === "" || symbolOnly;
  if (!constant || !(isName ? !match.nameHit : silent)) return null;
  if (recallField(field, r, ctx.lines, ctx.pages, ctx.order)) return null;
  const confidence = Math.round(Math.min(ctx.cap, 0.85) * 1000) / 1000;
  const why = isName
    ? "the recognised issuer's name as confirmed (not printed as text)"
    : symbolOnly
      ? "the issuer's confirmed currency (the page shows only a symbol)"
      : "not printed; the value confirmed for this issuer";
  return {
    ...general,
    value: constant.example,
    confidence,
    bounding_boxes: [],
    reasoning: `${ctx.since}: ${why}; the general reading gave ${JSON.stringify(general.value)}`,
    review_required: confidence < ctx.threshold,
    raw_text: "",
  };
}

function applyFields(
  pages: Page[],
  lines: Line[],
  fields: Record<string, FieldResult>,
  project: ProjectSettings,
  match: MemoryMatch,
  since: string,
  cap: number,
): Record<string, FieldResult> {
  const m = match.memory;
  const text = lines.map((l) => l.text).join("\n");
  const order = inferDateOrder([text], project.locale, false);
  const negative = project.classes.find((c) => c.id === m.class_id)?.amount_sign === "negative";
  const threshold = project.review_thresholds.field;
  const locked = closes(fields) === true ? new Set<string>(AMOUNTS) : new Set<string>();
  const out = { ...fields };
  const changed = new Set<string>();
  for (const field of project.fields[m.class_id] ?? []) {
    const r = m.fields[field.id];
    const general = out[field.id];
    if (!r || !general || fromXml(general) || locked.has(field.id)) continue;
    const fixed = constantReading(field, r, general, match, { pages, lines, order, text, cap, since, threshold });
    if (fixed) {
      out[field.id] = fixed;
      changed.add(field.id);
      continue;
    }
    const read = recallField(field, r, lines, pages, order);
    // The issuer's name, found where the issuer prints it, is given as it was confirmed (OCR slips and all).
    const asConfirmed = field.type === "string" && m.issuer.names.includes(String(r.example)) && match.nameHit;
    if (!read && !asConfirmed) continue;
    const spans = read
      ? [spanOf(read.line, read.start, read.end)]
      : [
          spanOf(
            match.nameHit!.line,
            match.nameHit!.words[0]!.start,
            match.nameHit!.words[match.nameHit!.words.length - 1]!.end,
          ),
        ];
    let value = read?.value ?? null;
    let how = read?.how ?? "";
    if (asConfirmed && (!read || typeof value !== "string" || value !== r.example)) {
      value = m.issuer.names[m.issuer.names.length - 1]!;
      how = `the issuer's name as confirmed, found ${Math.round(100 * match.evidence.name)}% alike on the page`;
    }
    const conf = Math.round(Math.min(cap, r.label ? 0.97 : 0.9) * (0.4 + 0.6 * ocrConfidenceOf(spans)) * 1000) / 1000;
    if (negative && field.type === "amount" && typeof value === "number") value = -Math.abs(value);
    const same = general.value === value;
    const confidence = same ? Math.max(conf, general.confidence) : conf;
    out[field.id] = {
      ...general,
      value,
      confidence,
      bounding_boxes: boxesOf(spans),
      reasoning: `${since}: ${how} (page ${spans[0]!.line.page.page_number}, line ${spans[0]!.line.index + 1})${same ? "; the general reading agrees" : `; the general reading gave ${JSON.stringify(general.value)}`}`,
      review_required: confidence < threshold,
      raw_text: spans.map((s) => s.text).join(" | "),
    };
    if (!same) changed.add(field.id);
  }
  // A remembered amount that leaves net + tax ≠ total is not trusted on its own.
  if (closes(out) === false && AMOUNTS.some((k) => changed.has(k))) {
    for (const k of AMOUNTS.filter((k) => changed.has(k))) {
      out[k] = {
        ...out[k]!,
        review_required: true,
        reasoning: `${out[k]!.reasoning}; contradicts the page's arithmetic (net + tax ≠ total): check it`,
      };
    }
  }
  return out;
}
