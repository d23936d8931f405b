/**
 * Unlabelled field values: recognisers (IBAN, VAT ID, e-mail, phone anywhere), parties by position, allowed enum
 * values, and the fallbacks (first date, unlabelled total, the address printed with the company name).
 */
import type { FieldSettings } from "../project";
import { type Line, spanOf } from "./lines";
import { findAmounts, readValue, type ReadContext, type ValueKind } from "./values";
import { findDates } from "./normalize";
import { legalForm } from "./company";
import { issuerCandidates, type PartyCandidate } from "./parties";
import { recipientWords } from "./party-blocks";
import { recipientCandidates } from "./recipient";
import { NO_ALNUM_AFTER, NO_ALNUM_BEFORE } from "./word-bounds";
import { unlabelledTotal } from "./unlabelled-total";
import { paymentDeadlines } from "./payment-deadline";
import { type Candidate, where } from "./candidate";

/** Unlabelled recognisers: IBAN, VAT ID, e-mail, phone anywhere; a party from a company-suffix line; dates/amounts as fallback. */
export function recognizerCandidates(
  field: FieldSettings,
  kind: ValueKind,
  lines: Line[],
  ctx: ReadContext,
): Candidate[] {
  if (kind === "iban" || kind === "vat_id" || kind === "email" || kind === "phone")
    return formatCandidates(kind, lines, ctx);
  if (kind === "party" && field.hints.fallback_first)
    // The issuer by position and evidence (letterhead, legal form, footer, title, web domain); never the recipient.
    return partyCandidates(issuerCandidates(lines).slice(0, 3));
  if (kind === "party" && field.id === "customer_name")
    // The buyer by position: the block under a buyer heading, else the window address block.
    return partyCandidates(recipientCandidates(lines).slice(0, 2));
  if (kind === "enum" && field.values?.length) return enumCandidates(field.values, lines);
  if (kind === "address" && field.hints.fallback_first) {
    const c = addressAfterCompany(lines);
    return c ? [c] : [];
  }
  if (field.hints.fallback_first && kind === "date") return firstDateCandidates(field, lines, ctx);
  // The due date in a payment sentence ("… bis zum 13.04.2018 ohne Abzug"), when no label names it.
  if (kind === "date" && field.id === "due_date") return paymentDeadlines(lines, ctx);
  if (field.hints.fallback_first && kind === "amount") {
    const best = unlabelledTotal(lines, ctx);
    return best ? [best] : [];
  }
  return [];
}

/** IBANs, VAT IDs, e-mail addresses and phone numbers anywhere: the first readable one on each line. */
function formatCandidates(kind: ValueKind, lines: Line[], ctx: ReadContext): Candidate[] {
  const out: Candidate[] = [];
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
      // OCR may glue a speck of the grain before the value ("'DE79 0000 …"): the value starts after it. A word
      // opening with a letter, a digit, "+" or "(" has no speck (the speck pattern fails on it), so one that cannot
      // start a value is passed over without it.
      const opens = kind === "email" || canStart.test(w.word.text);
      if (!opens && PLAIN_START.test(w.word.text)) continue;
      const lead = opens ? 0 : (SPECK_LEAD.exec(w.word.text)?.[0].length ?? 0);
      if (!canStart.test(w.word.text.slice(lead))) continue;
      const m = readValue(kind, line, w.start + lead, ctx);
      // An IBAN's first groups read like a VAT ID ("PL58 8417 9332 …" → PL5884179332): the IBAN is what is printed.
      if (m && kind === "vat_id" && readValue("iban", line, w.start + lead, ctx)) continue;
      // A document number that happens to read as a VAT ID ("Invoice No.  SI-2025-4252": Slovenia's SI + 8 digits)
      // is the value of the label before it.
      if (m && kind === "vat_id" && DOCUMENT_NUMBER_BEFORE.test(line.text.slice(0, m.start))) continue;
      if (m && m.start >= w.start + lead) {
        out.push({ match: m, score: 0.8, reasoning: `${kind} recogniser (${where(line)})` });
        break;
      }
    }
  }
  return out;
}

const DOCUMENT_NUMBER_BEFORE =
  /(?<![\p{L}])(?:invoice|order|quote|quotation|receipt|document|delivery note|credit note|po|ref|reference)\s*(?:no|nr|number|#)?\.?\s*[:#]?\s*$/iu;
const SPECK_LEAD = /^[^\p{L}\p{N}+(]{1,2}(?=[\p{L}\p{N}])/u;
const PLAIN_START = /^[A-Za-z0-9+(]/;

function partyCandidates(parties: PartyCandidate[]): Candidate[] {
  const out: Candidate[] = [];
  for (const c of parties) {
    out.push({
      match: { value: c.value, line: c.line, start: c.start, end: c.end, strength: c.score },
      score: c.score,
      reasoning: `${c.why} (${where(c.line)})`,
    });
  }
  return out;
}

/** An allowed value printed anywhere, as a whole word: weaker than one next to a label. */
function enumCandidates(values: string[], lines: Line[]): Candidate[] {
  const out: Candidate[] = [];
  const res = values.map((v) => ({
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
  return out;
}

/** The first date on the first page. A date labelled as some other date ("Order Date: ...", "Due ...") is not a fallback for this one. */
function firstDateCandidates(field: FieldSettings, lines: Line[], ctx: ReadContext): Candidate[] {
  const out: Candidate[] = [];
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
