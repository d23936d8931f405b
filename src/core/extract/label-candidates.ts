/**
 * Labelled and configured field values: the value right of or below one of a field's labels, and the field's own
 * patterns, each scored.
 */
import type { FieldSettings } from "../project";
import { type Line, lineHeight, spanOf } from "./lines";
import { below, findLabels, labelRegex, type LabelHit, rowPartners, sameBlockEnd } from "./labels";
import { legalForm } from "./company";
import { fold } from "./fuzzy";
import { readValue, type ReadContext, type ValueKind, type ValueMatch } from "./values";
import { pushAll } from "../arrays";
import { afterSpeck, pastSpecks } from "./specks";
import { datedNumber, NUMBER_LABEL } from "./identifier-value";
import { type Candidate, plausible, where } from "./candidate";

export function labelCandidates(field: FieldSettings, kind: ValueKind, lines: Line[], ctx: ReadContext): Candidate[] {
  const { labels, exclude_before, exclude_after } = field.hints;
  if (!labels.length) return [];
  const out: Candidate[] = [];
  const hits = findLabels(lines, labels, exclude_before, exclude_after);
  for (const hit of hits) {
    if (field.id === "total_amount" && NOT_GROSS.test(hit.line.text.slice(hit.end))) continue;
    if (kind === "party" && insideCompanyName(hit)) continue;
    // A label read with an OCR error allowance is weaker evidence than an exact one.
    const labelFactor = (1 - (0.3 * hit.rank) / Math.max(1, labels.length)) * (hit.fuzzy ? 0.85 : 1);
    let read =
      readValue(kind, hit.line, hit.end, ctx) ??
      (kind === "vat_id"
        ? nationalVatId(hit.line, hit.end)
        : kind === "iban" && hit.label !== "iban"
          ? bankAccount(hit.line, hit.end)
          : kind === "identifier" && NUMBER_LABEL.test(hit.label)
            ? datedNumber(hit.line, hit.end)
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
        score: right.strength * labelFactor,
        reasoning: `value right of label "${hit.line.text.slice(hit.start, hit.end).trim()}"${hit.fuzzy ? ` (read as "${hit.label}")` : ""} (${where(hit.line)})`,
      });
      if (right.strength >= 0.9) continue;
    }
    pushAll(out, belowCandidates(hit, kind, lines, ctx, labelFactor));
  }
  return out;
}

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
  // A party section of label / value rows ("Seller" over "Company name   Acme GmbH"): the name is the row's value.
  const named = kind === "party" && rows[0] ? nameRowValue(hit, rows[0], lines, ctx) : undefined;
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
  const m = row
    ? (readValue(kind, row, 0, ctx) ??
      (kind === "identifier" && NUMBER_LABEL.test(hit.label) ? datedNumber(row, 0) : null))
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

/** Labels of a name row in a party section (the XRechnung visualisation's "Firmenname", a portal's "Name"). */
const NAME_ROW =
  /^\s*(name|firmenname|firma|company|company name|legal name|registered name|trading name|raison sociale|nom|d[eé]nomination|naam|bedrijfsnaam|nombre|raz[oó]n social|nome|ragione sociale)\s*:?\s*$/iu;

/**
 * The value of the row under a party heading when that row is a name row: undefined when it is none (the heading's
 * value is the row itself), null when it is one without a readable value. The value is read right of the row's
 * label on its full line, or from the line OCR made of the row's right part.
 */
function nameRowValue(hit: LabelHit, row: Line, lines: Line[], ctx: ReadContext): ValueMatch | null | undefined {
  const label = row.words.filter((w) => NAME_ROW.test(row.text.slice(0, w.end)));
  if (!label.length || !NAME_ROW.test(row.text.slice(0, label[label.length - 1]!.end))) return undefined;
  const lastWord = label[label.length - 1]!.word;
  const full = lines.find((l) => l.page === row.page && l.words.some((w) => w.word === lastWord));
  if (!full) return null;
  const at = full.words.find((w) => w.word === lastWord)!;
  const right = withoutTermRef(readValue("text", full, pastLoose(full, at.end), ctx));
  if (right && String(right.value ?? "").trim() && plausible("party", right.value)) return continued(right, lines);
  const sub: LabelHit = { ...hit, line: full, start: at.start, end: at.end, box: at.box };
  for (const partner of rowPartners(sub, lines).slice(0, 1)) {
    const m = withoutTermRef(readValue("text", partner, 0, ctx));
    if (m && plausible("party", m.value)) return continued(m, lines);
  }
  return null;
}

/** Past short marks OCR read from the grain in the gap between a row's label and its value ("Name  feo  Acme"). */
function pastLoose(line: Line, offset: number): number {
  const words = line.words.filter((w) => w.start >= offset);
  let at = offset;
  for (let i = 0; i + 1 < words.length; i++) {
    const [w, next] = [words[i]!, words[i + 1]!];
    if (w.word.text.length > 3 || next.box[0] - w.box[2] < lineHeight(line)) break;
    at = w.end;
  }
  return at;
}

/**
 * A visualisation prints the EN 16931 term beside each value ("Acme GmbH   BT-27"): the value ends before it (a
 * text layer may join the next column after it).
 */
function withoutTermRef(m: ValueMatch | null): ValueMatch | null {
  const text = typeof m?.value === "string" ? m.value : "";
  // OCR reads the small reference loosely ("sr-27", "81-27").
  const ref = /\s+B[TG]-\d+(-\d+)?(?![\p{L}\p{N}])|\s+\S{1,3}[-–]\d{1,3}(?=\s|$)/u.exec(text);
  if (!m || !ref) return m;
  return { ...m, value: text.slice(0, ref.index), end: m.start + ref.index };
}

/** OCR words less sure than this in an empty label cell are grain read as letters ("SRS" at 0.23), no label. */
const GRAIN = 0.5;
/** An EN 16931 term reference as a word, as OCR reads it too ("BT-27", "sr-27"). */
const TERM_REF = /^\S{1,3}[-–]\d{1,3}(-\d+)?$/u;

/**
 * A name wrapped in its value cell ("Landesamt für Statistik" over "Heilbronn"): the next line's words that start
 * at the value's left edge, with nothing in the label cell left of them, continue it.
 */
function continued(m: ValueMatch, lines: Line[]): ValueMatch {
  // The value's first word, not a mark OCR read from the grain before it ("~"): the wrapped line starts under it.
  const first = m.line.words.find((w) => w.end > m.start && /[\p{L}\p{N}]/u.test(w.word.text));
  if (!first) return m;
  const lh = lineHeight(m.line);
  const x = first.box[0];
  // The next line down with a word starting at the value's edge (OCR may have put the other column's rows between).
  const startsAtX = (l: Line) => l.words.find((w) => Math.abs(w.box[0] - x) <= lh * 0.6);
  const next = lines
    .filter((l) => l.page === m.line.page && l.box[1] > m.line.box[1] + lh * 0.5 && l.box[1] - m.line.box[3] < lh)
    .filter((l) => startsAtX(l))
    .sort((a, b) => a.box[1] - b.box[1])[0];
  const start = next && startsAtX(next);
  if (!next || !start) return m;
  // A label of its own in the row's label cell, on this line or on one OCR made of the row's left part. The other
  // column's term reference ("BT-50") and marks or letters OCR read from the grain are no label: a skewed scan's
  // tall lines reach that far.
  const mid = (next.box[1] + next.box[3]) / 2;
  const row = lines.filter((l) => l.page === next.page && l.box[1] < mid && l.box[3] > mid);
  const labelLike = (w: Line["words"][number]) =>
    w.box[2] < x - lh * 0.5 &&
    w.box[2] > x - lh * 12 &&
    /\p{L}{2}/u.test(w.word.text) &&
    !TERM_REF.test(w.word.text) &&
    w.word.confidence >= GRAIN;
  if (row.some((l) => l.words.some(labelLike))) return m;
  const words = [start];
  for (const w of next.words.slice(next.words.indexOf(start) + 1)) {
    if (w.box[0] - words[words.length - 1]!.box[2] > lh || /^B[TG]-\d/.test(w.word.text)) break;
    words.push(w);
  }
  // Marks read from the grain between words are dropped; a street or a postcode is the next row, not the name.
  const tail = words
    .map((w) => afterSpeck(w.word.text)[0])
    .filter((t) => /[\p{L}\p{N}&(]/u.test(t))
    .join(" ");
  if (!/^[\p{L}(&]/u.test(tail) || /\d|:/.test(tail)) return m;
  const head = String(m.value).replace(/(\s+[^\p{L}\p{N}&(]+)+$/u, "");
  return { ...m, value: `${head} ${tail}` };
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
