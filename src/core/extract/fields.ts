/**
 * Finding one field's value on a document's lines: labelled values (right of or below a label), configured
 * patterns, built-in recognisers and fallbacks, each scored; the best candidate becomes the FieldResult.
 */
import type { FieldResult } from "../model";
import type { FieldSettings } from "../project";
import { boxesOf, type Line, ocrConfidenceOf, type Span, spanOf, uprightSize } from "./lines";
import { below, findLabels, labelRegex, type LabelHit, rowPartners } from "./labels";
import { fold } from "./fuzzy";
import { findAmounts, readValue, type ReadContext, type ValueKind, type ValueMatch } from "./values";
import { findDates } from "./normalize";
import { legalForm } from "./company";
import { issuerCandidates } from "./parties";
import { recipientWords } from "./party-blocks";
import { recipientCandidates } from "./recipient";
import { NO_ALNUM_AFTER, NO_ALNUM_BEFORE } from "./word-bounds";
import { pushAll } from "../arrays";
import { pastSpecks, withoutSpecks } from "./specks";
import { unlabelledTotal } from "./unlabelled-total";

export interface Candidate {
  match: ValueMatch;
  /** 0..1 before OCR confidence is applied. */
  score: number;
  reasoning: string;
  extraSpans?: Span[];
}

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

/**
 * A name has a word of letters only (a customer number such as "SCONL0303" is no name); an address has a digit
 * (street number or postcode).
 */
function plausible(kind: ValueKind, value: unknown): boolean {
  if (kind === "party") return /(?<![\p{L}\p{N}])\p{L}{2,}(?![\p{L}\p{N}])/u.test(String(value));
  if (kind === "address") return /\d/.test(String(value));
  return true;
}

const where = (line: Line) => `page ${line.page.page_number}, line ${line.index + 1}`;

function labelCandidates(field: FieldSettings, kind: ValueKind, lines: Line[], ctx: ReadContext): Candidate[] {
  const { labels, exclude_before, exclude_after } = field.hints;
  if (!labels.length) return [];
  const out: Candidate[] = [];
  const hits = findLabels(lines, labels, exclude_before, exclude_after);
  for (const hit of hits) {
    // A label read with an OCR error allowance is weaker evidence than an exact one.
    const labelFactor = (1 - (0.3 * hit.rank) / Math.max(1, labels.length)) * (hit.fuzzy ? 0.85 : 1);
    let read = readValue(kind, hit.line, hit.end, ctx);
    // OCR reads specks in the gap between a label and its far value ("Invoice no: ey : FA-80553"): past them.
    const past = read ? hit.end : pastSpecks(hit.line, hit.end);
    if (past > hit.end) read = readValue(kind, hit.line, past, ctx);
    // Nothing right of the label on its line: OCR (or a text layer) may have put the same row into a line of its own.
    // Lines further right on the row are tried in turn past a lone word (a currency column: "Total  USD  12.00").
    // Not for names: a party heading's partner far right is the other party's heading ("Buyer ... Seller").
    const across = read || kind === "party" || kind === "address" ? [] : rowPartners(hit, lines).slice(0, 3);
    for (const partner of across) {
      const m = readValue(kind, partner, 0, ctx);
      // Only a clear value counts from another block: a bare "1" there is more likely a misread "1.125,25".
      if (m && m.start <= 4 && m.strength >= 0.9) read = { ...m, strength: m.strength * 0.95 };
      if (read || partner.words.length > 1) break;
    }
    const right = read && plausible(kind, read.value) && !claimedBetween(hit, read, ctx) ? read : null;
    if (right) {
      out.push({
        match: right,
        score: right.strength * labelFactor,
        reasoning: `value right of label "${hit.line.text.slice(hit.start, hit.end).trim()}"${hit.fuzzy ? ` (read as "${hit.label}")` : ""} (${where(hit.line)})`,
      });
      if (right.strength >= 0.9) continue;
    }
    pushAll(out, belowCandidates(hit, kind, lines, ctx, labelFactor));
  }
  return out;
}

/** Qualifiers before a label that make it part of this one's wording ("Total incl. VAT", "Subtotal before tax"). */
const QUALIFIED =
  /(?<![\p{L}])(incl|inkl|excl|exkl|including|excluding|inclusive|exclusive|inclusief|exclusief|zzgl|plus|ohne|hors|sans|before|after|of|on|zonder|sin|con|senza|\()[.\s]*$/iu;

/**
 * Another amount field's label between a label and the amount read right of it claims the amount: in "BTW 21% —
 * Totaal €717,97" (OCR joined two rows) 717,97 is the total, not the tax.
 */
function claimedBetween(hit: LabelHit, read: ValueMatch, ctx: ReadContext): boolean {
  if (!ctx.foreignLabels?.length || read.line !== hit.line || read.start <= hit.end) return false;
  const between = fold(hit.line.text.slice(hit.end, read.start).toLowerCase());
  if (!/\p{L}{3,}/u.test(between)) return false;
  // The qualifier may end the label itself ("Total excl." + "VAT"), so the text before is read from the line start.
  const before = fold(hit.line.text.slice(0, hit.end).toLowerCase());
  return ctx.foreignLabels.some((label) =>
    [...between.matchAll(labelRegex(label))].some((m) => !QUALIFIED.test(before + between.slice(0, m.index))),
  );
}

function belowCandidates(
  hit: LabelHit,
  kind: ValueKind,
  lines: Line[],
  ctx: ReadContext,
  labelFactor: number,
): Candidate[] {
  const label = hit.line.text.slice(hit.start, hit.end).trim();
  if ((kind === "amount" || kind === "number") && ctx.tableHeaders?.has(hit.line)) return [];
  const rows = below(hit, lines, kind === "address" ? 4 : 2);
  if (kind === "address" || kind === "party") {
    const taken = kind === "party" ? rows.slice(0, 1) : rows.slice(0, 3);
    const reads = taken
      .map((row) => readValue("text", row, 0, ctx))
      .filter((m): m is ValueMatch => m !== null && plausible(kind, m.value));
    if (!reads.length) return [];
    const [first, ...rest] = reads;
    const value = reads.map((r) => r.value).join(", ");
    return [
      {
        match: { ...first!, value },
        score: first!.strength * labelFactor * 0.85,
        reasoning: `value below label "${label}" (${where(hit.line)})`,
        extraSpans: rest.map((r) => spanOf(r.line, r.start, r.end)),
      },
    ];
  }
  // Only the first line under the label: a value further down belongs to some other label in between.
  const row = rows[0];
  const m = row ? readValue(kind, row, 0, ctx) : null;
  // Below a label the value should start the column cell, not sit somewhere inside it.
  if (m && m.start <= 2)
    return [
      {
        match: m,
        score: m.strength * labelFactor * 0.9,
        reasoning: `value below label "${label}" (${where(hit.line)})`,
      },
    ];
  return [];
}

function patternCandidates(field: FieldSettings, kind: ValueKind, lines: Line[], ctx: ReadContext): Candidate[] {
  const out: Candidate[] = [];
  for (const source of field.hints.patterns) {
    const re = new RegExp(source, "giu");
    for (const line of lines) {
      for (const m of line.text.matchAll(re)) {
        const group = m[1] ?? m[0];
        const start = m.index! + (m[1] !== undefined ? m[0].indexOf(m[1]) : 0);
        const value =
          kind === "text" || kind === "identifier" || kind === "party"
            ? group
            : readValue(kind, line, start, ctx)?.value;
        if (value === undefined || value === null || value === "") continue;
        out.push({
          match: { value, line, start, end: start + group.length, strength: 0.95 },
          score: 0.95,
          reasoning: `pattern /${source}/ (${where(line)})`,
        });
      }
    }
  }
  return out;
}

/** Unlabelled recognisers: IBAN, VAT ID, e-mail, phone anywhere; a party from a company-suffix line; dates/amounts as fallback. */
function recognizerCandidates(field: FieldSettings, kind: ValueKind, lines: Line[], ctx: ReadContext): Candidate[] {
  const out: Candidate[] = [];
  if (kind === "iban" || kind === "vat_id" || kind === "email" || kind === "phone") {
    // Only words that can start such a value are tried (each try joins up to nine words).
    // IBANs may start misread on OCR pages ("1T93"): the checksum decides (see readIban).
    const canStart =
      kind === "iban"
        ? /^[A-Z0-9[|]{2}[0-9OISBZ]/
        : kind === "vat_id"
          ? /^[A-Z]{2}/
          : kind === "email"
            ? /@|^[\p{L}\p{N}]/u
            : /^[+(\d]/;
    for (const line of lines) {
      if (kind === "email" && !line.text.includes("@")) continue;
      for (const w of line.words) {
        if (!canStart.test(w.word.text)) continue;
        const m = readValue(kind, line, w.start, ctx);
        if (m && m.start >= w.start) {
          out.push({ match: m, score: 0.8, reasoning: `${kind} recogniser (${where(line)})` });
          break;
        }
      }
    }
  } else if (kind === "party" && field.hints.fallback_first) {
    // The issuer by position and evidence (letterhead, legal form, footer, title, web domain); never the recipient.
    for (const c of issuerCandidates(lines).slice(0, 3)) {
      out.push({
        match: { value: c.value, line: c.line, start: c.start, end: c.end, strength: c.score },
        score: c.score,
        reasoning: `${c.why} (${where(c.line)})`,
      });
    }
  } else if (kind === "party" && field.id === "customer_name") {
    // The buyer by position: the block under a buyer heading, else the window address block.
    for (const c of recipientCandidates(lines).slice(0, 2)) {
      out.push({
        match: { value: c.value, line: c.line, start: c.start, end: c.end, strength: c.score },
        score: c.score,
        reasoning: `${c.why} (${where(c.line)})`,
      });
    }
  } else if (kind === "enum" && field.values?.length) {
    // An allowed value printed anywhere, as a whole word: weaker than one next to a label.
    const res = field.values.map((v) => ({
      v,
      re: new RegExp(`${NO_ALNUM_BEFORE}${v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}${NO_ALNUM_AFTER}`, "iu"),
    }));
    for (const line of lines) {
      const hit = res.map(({ v, re }) => ({ v, m: re.exec(line.text) })).find((x) => x.m);
      if (hit) {
        out.push({
          match: { value: hit.v, line, start: hit.m!.index, end: hit.m!.index + hit.m![0].length, strength: 0.6 },
          score: 0.6,
          reasoning: `allowed value "${hit.v}" found (${where(line)})`,
        });
        break;
      }
    }
  } else if (kind === "address" && field.hints.fallback_first) {
    const c = addressAfterCompany(lines);
    if (c) out.push(c);
  } else if (field.hints.fallback_first && kind === "date") {
    // A date labelled as some other date ("Order Date: ...", "Due ...") is not a fallback for this one.
    const qualifiers = new Set(field.hints.exclude_before.map((w) => w.toLowerCase()));
    const qualified = (text: string, at: number) =>
      (
        text
          .slice(0, at)
          .toLowerCase()
          .match(/[\p{L}]+/gu) ?? []
      )
        .slice(-3)
        .some((w) => qualifiers.has(w));
    for (const line of lines.filter((l) => l.page === lines[0]?.page)) {
      const d = findDates(line.text, ctx.dateOrder).find((x) => x.iso && !qualified(line.text, x.start));
      if (d) {
        out.push({
          match: { value: d.iso, line, start: d.start, end: d.end, strength: 0.5 },
          score: 0.5,
          reasoning: `first date on the first page, no label found (${where(line)})`,
        });
        break;
      }
    }
  } else if (field.hints.fallback_first && kind === "amount") {
    const best = unlabelledTotal(lines, ctx);
    if (best) out.push(best);
  }
  return out;
}

const firstPageByTop = (lines: Line[]) =>
  lines.filter((l) => l.page === lines[0]?.page).sort((a, b) => a.box[1] - b.box[1]);

/** The address printed with the first company name: the rest of its line, else the lines right under it. */
function addressAfterCompany(lines: Line[]): Candidate | null {
  const recipient = recipientWords(lines);
  const pageLines = firstPageByTop(lines);
  const idx = pageLines.findIndex((l) => legalForm(l.text) !== null && !l.words.some((w) => recipient.has(w.word)));
  if (idx < 0) return null;
  const line = pageLines[idx]!;
  const m = legalForm(line.text)!;
  const restStart = m.index + m[0].length;
  const rest = /^[\s,\-–·|•]*(.*\d.*)$/.exec(line.text.slice(restStart));
  if (rest) {
    const start = line.text.length - rest[1]!.length;
    return {
      match: { value: rest[1]!.replace(/\s+[-·|•]\s+/g, ", "), line, start, end: line.text.length, strength: 0.5 },
      score: 0.5,
      reasoning: `address after the company name (page ${line.page.page_number}, line ${line.index + 1})`,
    };
  }
  const parts: Line[] = [];
  for (const next of pageLines.slice(idx + 1, idx + 4)) {
    const last = parts[parts.length - 1] ?? line;
    if (
      next.box[1] - last.box[3] > (last.box[3] - last.box[1]) * 1.5 ||
      Math.abs(next.box[0] - line.box[0]) > (line.box[3] - line.box[1]) * 2
    )
      break;
    // A labelled line ("Invoice no: ...") or a one-word title ("INVOICE") is no longer the address.
    if (/[\p{L}]:/u.test(next.text) || (/^[\p{Lu}\s]+$/u.test(next.text.trim()) && next.words.length <= 2)) break;
    if (findDates(next.text, "dmy").some((d) => d.iso) || findAmounts(next.text).some((a) => a.decimals)) break;
    parts.push(next);
  }
  if (!parts.length || !parts.some((p) => /\d/.test(p.text))) return null;
  const [first, ...others] = parts;
  return {
    match: {
      value: parts.map((p) => p.text).join(", "),
      line: first!,
      start: 0,
      end: first!.text.length,
      strength: 0.5,
    },
    score: 0.5,
    reasoning: `lines under the company name (page ${line.page.page_number}, line ${line.index + 2})`,
    extraSpans: others.map((p) => spanOf(p, 0, p.text.length)),
  };
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
  if (kind === "party") for (const c of all) c.match.value = withoutSpecks(c.match.value as string);
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
