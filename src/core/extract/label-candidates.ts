/**
 * Labelled and configured field values: the value right of or below one of a field's labels, and the field's own
 * patterns, each scored.
 */
import type { FieldSettings } from "../project";
import { type Line, lineHeight, spanOf } from "./lines";
import { below, findLabels, type LabelHit, rowPartners, sameBlockEnd } from "./labels";
import { compiledOf, holdsWords, labelRegex } from "./label-regex";
import { legalForm } from "./company";
import { fold } from "./fuzzy";
import { readValue, type ReadContext, type ValueKind, type ValueMatch } from "./values";
import { pushAll } from "../arrays";
import { pastSpecks } from "./specks";
import { datedNumber, NUMBER_LABEL } from "./identifier-value";
import { taxRegistration } from "./tax-registrations";
import { type Candidate, plausible, where } from "./candidate";
import { sectionNameValue } from "./name-rows";

export function labelCandidates(field: FieldSettings, kind: ValueKind, lines: Line[], ctx: ReadContext): Candidate[] {
  const { labels, exclude_before, exclude_after } = field.hints;
  if (!labels.length) return [];
  const out: Candidate[] = [];
  const hits = findLabels(lines, labels, exclude_before, exclude_after);
  for (const hit of hits) {
    if (field.id === "total_amount" && NOT_GROSS.test(hit.line.text.slice(hit.end))) continue;
    if (kind === "party" && insideCompanyName(hit)) continue;
    // A label word in the possessive is a word of a phrase ("Seller's Permit 385-290721", "Buyer's premium").
    if (POSSESSIVE.test(hit.line.text.slice(hit.end, hit.end + 3))) continue;
    // A label read with an OCR error allowance is weaker evidence than an exact one.
    const labelFactor = (1 - (0.3 * hit.rank) / Math.max(1, labels.length)) * (hit.fuzzy ? 0.85 : 1);
    let read =
      (kind === "vat_id" ? taxRegistration(hit.line, hit.end) : null) ??
      readValue(kind, hit.line, hit.end, ctx) ??
      (kind === "vat_id"
        ? nationalVatId(hit.line, hit.end)
        : kind === "iban" && hit.label !== "iban"
          ? bankAccount(hit.line, hit.end)
          : kind === "identifier" && NUMBER_LABEL.test(hit.label)
            ? (datedNumber(hit.line, hit.end) ?? shortInvoiceNumber(hit, kind))
            : null);
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
        ...(right.line !== hit.line ? { labelLine: hit.line } : {}),
        score: right.strength * labelFactor,
        reasoning: `value right of label "${hit.line.text.slice(hit.start, hit.end).trim()}"${hit.fuzzy ? ` (read as "${hit.label}")` : ""} (${where(hit.line)})`,
      });
      if (right.strength >= 0.9) continue;
    }
    pushAll(out, belowCandidates(hit, kind, lines, ctx, labelFactor));
  }
  return out;
}

const POSSESSIVE = /^['’]s(?![\p{L}\p{N}])/u;

/**
 * A party label that is a word of a company name ("Test Seller Inc.", "Buyer Services GmbH") labels nothing: a name
 * word runs into it in the same cell and the cell ends in a legal form.
 */
function insideCompanyName(hit: LabelHit): boolean {
  const before = hit.line.text.slice(0, hit.start);
  if (!/\p{Lu}[\p{L}&.-]*\s+$/u.test(before)) return false;
  const cellStart = hit.line.words
    .filter(
      (w, i) => i > 0 && w.end <= hit.start && w.box[0] - hit.line.words[i - 1]!.box[2] > lineHeight(hit.line) * 2,
    )
    .pop();
  const cell = hit.line.text.slice(cellStart?.start ?? 0, sameBlockEnd(hit.line, hit.end));
  const form = legalForm(cell);
  return form !== null && form.index >= hit.end - (cellStart?.start ?? 0);
}

/**
 * A VAT registration printed without its country code right after its label ("NIP: 774-00-01-454", "BTW 8512.34.567"):
 * 8 to 12 digits in groups of digits only (a German Steuernummer "123/456/78901" has slashes: no VAT ID). Only
 * after a label: unlabelled, such a number is anything.
 */
function nationalVatId(line: Line, offset: number): ValueMatch | null {
  const m = /^[\s:.#]*((?:\d[\d\s.-]{6,16}\d))(?![\d/\p{L}])/u.exec(line.text.slice(offset));
  const digits = m?.[1]!.replace(/[\s.-]/g, "") ?? "";
  if (!m || digits.length < 8 || digits.length > 12 || /\s{2,}/.test(m[1]!)) return null;
  const start = offset + m[0].length - m[1]!.length;
  return { value: digits, line, start, end: start + m[1]!.length, strength: 0.8 };
}

/**
 * A document number of one or two digits right after an invoice-number label ("Invoice # 88", a tradesman's
 * sheet numbering its invoices from 1): readIdentifier takes three characters or more, as a shorter run after a
 * looser label ("No. 1", "Page 1") is anything. Only after a label naming the invoice, and only a bare run of
 * digits ending its cell's words (no amount, date or unit after it).
 */
function shortInvoiceNumber(hit: LabelHit, kind: ValueKind): ValueMatch | null {
  if (kind !== "identifier" || !INVOICE_WORD.test(hit.label)) return null;
  const m = /^[\s:.#]*(\d{1,2})(?=\s*$|\s+\p{L})/u.exec(hit.line.text.slice(hit.end));
  if (!m || Number(m[1]) === 0) return null;
  const start = hit.end + m[0].length - m[1]!.length;
  return { value: m[1]!, line: hit.line, start, end: start + m[1]!.length, strength: 0.7 };
}
const INVOICE_WORD = /invoice|inv\b|rechnung|facture|factuur|factura|fattura|faktura|bill/iu;

/**
 * A bank account number that is no IBAN, right of a bank-account label ("Bank Account: US1234567890", "Bank account no.
 * 12345678"): one token of 8-30 digits, after at most a country prefix, in digit groups one space apart at most. The
 * payment account of an invoice (EN 16931 BT-84) is an IBAN where there is one, the account number otherwise.
 */
function bankAccount(line: Line, offset: number): ValueMatch | null {
  const m = /^[\s:.#]*((?:[A-Z]{2})?\d(?:[\d-]| (?=\d)){6,34}\d)(?![\p{L}\p{N}.,\/])/u.exec(line.text.slice(offset));
  const digits = m?.[1]!.replace(/[\s-]/g, "") ?? "";
  if (!m || digits.replace(/^[A-Z]{2}/, "").length < 8) return null;
  const start = offset + m[0].length - m[1]!.length;
  return { value: digits, line, start, end: start + m[1]!.length, strength: 0.7 };
}

/** Words after a total's label that make it the net or the tax ("Invoice total without VAT", "Summe Umsatzsteuer"). */
const NOT_GROSS =
  /^\s*(amount\s+)?(without|w\/o|ohne|sans|senza|sin|zonder|umsatzsteuer|mehrwertsteuer|steuer|vat amount|tax amount)(?![\p{L}])/iu;

/**
 * Qualifiers before a label that make it part of this one's wording ("Total incl. VAT", "Subtotal before tax", a till's
 * "Total RM inc.GST", "TOTAL INCLUDES 6% GST").
 */
const QUALIFIED =
  /(?<![\p{L}])(incl|inc|inkl|excl|exkl|ex|including|includes|excluding|inclusive|exclusive|inclusief|exclusief|zzgl|plus|ohne|hors|sans|before|after|of|on|zonder|sin|con|senza|\()[.\s]*(?:\d{1,2}(?:[.,]\d{1,2})?\s?%\s*)?$/iu;

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
  // A label is searched for only when the text between holds all its words (label-regex.ts CompiledList).
  const { words } = compiledOf(ctx.foreignLabels);
  const checkWords = !between.includes("\u017f");
  return ctx.foreignLabels.some(
    (label, i) =>
      (!checkWords || holdsWords(between, words[i]!)) &&
      [...between.matchAll(labelRegex(label))].some((m) => !QUALIFIED.test(before + between.slice(0, m.index))),
  );
}

/**
 * A label and its value as the row under a party label ("Customer   Te Awa Early Learning" over "Invoice Number
 * 1980", a payment slip's label / value rows): the words read end in a number's, date's or amount's label word and
 * a number follows them on the row ("Address   825 Voortrekker Road"). No name.
 */
function labelRow(m: ValueMatch, lines: Line[]): boolean {
  if (
    !/(?<![\p{L}])(?:number|no|nr|date|amount|total|due|balance|ref|reference|address|phone|tel)[\s.:\-–]*$/iu.test(
      String(m.value),
    )
  )
    return false;
  // The row under the label is cut to the label's column (labels.ts below): the rest of it is on the page's line.
  const last = m.line.words.findLast((w) => w.end <= m.end)?.word;
  const full = lines.find((l) => l.page === m.line.page && l.index === m.line.index);
  const at = full?.words.find((w) => w.word === last);
  return at !== undefined && /^[\s:#]+\S*\d/u.test(full!.text.slice(at.end));
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
  // A party section of label / value rows ("Seller" over "Company name   Acme GmbH", "Cedente/prestatore" over
  // "Identificativo fiscale ai fini IVA: …" and "Denominazione: Acme S.r.l."): the name is its name row's value.
  const named = kind === "party" && rows[0] ? sectionNameValue(hit, lines, ctx) : undefined;
  if (named !== undefined)
    return named
      ? [
          {
            match: named,
            // A heading over a name row is the clearest a page says whose name it is.
            score: Math.max(named.strength, 0.85) * labelFactor * 0.9,
            reasoning: `value of the name row under label "${label}" (${where(named.line)})`,
          },
        ]
      : [];
  if (kind === "address" || kind === "party") {
    const taken = kind === "party" ? rows.slice(0, 1) : rows.slice(0, 3);
    const reads = taken
      .map((row) => readValue("text", row, 0, ctx))
      .filter((m): m is ValueMatch => m !== null && plausible(kind, m.value));
    if (!reads.length || (kind === "party" && labelRow(reads[0]!, lines))) return [];
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
  const m = row
    ? (readValue(kind, row, 0, ctx) ??
      (kind === "identifier" && NUMBER_LABEL.test(hit.label) ? datedNumber(row, 0) : null) ??
      // A registration stacked under its label ("GST Number" over "123-456-789", as accounting packages print it).
      (kind === "vat_id" ? (taxRegistration(row, 0) ?? nationalVatId(row, 0)) : null))
    : null;
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

export function patternCandidates(field: FieldSettings, kind: ValueKind, lines: Line[], ctx: ReadContext): Candidate[] {
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
