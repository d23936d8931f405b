/**
 * Scores the gap between two neighbouring pages: is the second page the start of a new document?
 * Evidence is summed into a score; `boundaryProbability` turns the score into 0..1.
 */
import type { BoundaryEvidence, PageFeatures } from "./signals";
import { jaccard } from "./signals";
import { pushAll } from "../arrays";

export interface GapContext {
  /** The second page is the first page of another source file. */
  fileBorder: boolean;
  /** Blank pages lay between the two pages (dropped from the stream). */
  blankBetween: boolean;
}

/** With no signal at all, pages stay together: a wrong merge is cheaper to fix in review than a wrong cut. */
const PRIOR: BoundaryEvidence = { weight: -0.25, reason: "no boundary signal" };
/** Steepness of the logistic mapping from score to probability. */
const STEEPNESS = 3;

export function boundaryEvidence(prev: PageFeatures, next: PageFeatures, gap: GapContext): BoundaryEvidence[] {
  const ev: BoundaryEvidence[] = [PRIOR];
  pushAll(ev, counterEvidence(prev, next));
  pushAll(ev, documentNumberEvidence(prev, next));
  pushAll(ev, issuerEvidence(prev, next));
  pushAll(ev, layoutEvidence(prev, next));
  if (prev.classId && next.classId && prev.classId !== "other" && next.classId !== "other") {
    ev.push(
      prev.classId !== next.classId
        ? { weight: 0.5, reason: `document class changes (${prev.classId} → ${next.classId})` }
        : { weight: -0.1, reason: `same document class (${next.classId})` },
    );
  }
  if (gap.fileBorder) ev.push({ weight: 0.55, reason: "a new source file starts" });
  if (gap.blankBetween) ev.push({ weight: 0.4, reason: "blank page in between" });
  return ev;
}

function counterEvidence(prev: PageFeatures, next: PageFeatures): BoundaryEvidence[] {
  const p = prev.counter;
  const n = next.counter;
  const ev: BoundaryEvidence[] = [];
  if (n && n.current === 1) {
    ev.push({ weight: 1.2, reason: `page counter restarts ("page 1${n.total ? ` of ${n.total}` : ""}")` });
  } else if (n && p && n.current === p.current + 1 && (n.total === p.total || n.total === null || p.total === null)) {
    ev.push({ weight: -1.3, reason: `page counter continues (${p.current} → ${n.current})` });
  } else if (n && p && n.current <= p.current) {
    ev.push({ weight: 0.9, reason: `page number resets (${p.current} → ${n.current})` });
  } else if (n && !p && n.current > 1) {
    ev.push({ weight: -0.6, reason: `page counter says page ${n.current}` });
  }
  if (p && p.total !== null && p.current === p.total) {
    ev.push({ weight: 0.7, reason: `previous page is the last one ("page ${p.current} of ${p.total}")` });
  } else if (p && p.total !== null && p.current < p.total && !(n && n.current === 1)) {
    ev.push({ weight: -0.7, reason: `previous page announces more pages ("page ${p.current} of ${p.total}")` });
  }
  return ev;
}

function documentNumberEvidence(prev: PageFeatures, next: PageFeatures): BoundaryEvidence[] {
  if (prev.documentNumbers.length === 0 || next.documentNumbers.length === 0) return [];
  const shared = next.documentNumbers.find((d) => prev.documentNumbers.includes(d));
  if (shared) return [{ weight: -0.9, reason: `same document number (${shared})` }];
  return [{ weight: 0.9, reason: `document number changes (${prev.documentNumbers[0]} → ${next.documentNumbers[0]})` }];
}

/** The kind of an issuer identifier: "iban", "vat" or "domain" (signals.ts parseIssuerIds). */
const idKind = (id: string) => id.slice(0, id.indexOf(":"));

function issuerEvidence(prev: PageFeatures, next: PageFeatures): BoundaryEvidence[] {
  if (prev.issuerIds.length === 0 || next.issuerIds.length === 0) return [];
  // Identifiers of different kinds cannot differ: a last page holding only the payment data (an IBAN) after a first
  // holding the parties' VAT IDs is the same invoice's.
  const kinds = new Set(prev.issuerIds.map(idKind));
  if (!next.issuerIds.some((id) => kinds.has(idKind(id)))) return [];
  const shared = next.issuerIds.some((id) => prev.issuerIds.includes(id));
  return shared
    ? [{ weight: -0.3, reason: "same issuer identifiers (IBAN, VAT ID or domain)" }]
    : [{ weight: 0.5, reason: "issuer changes (no shared IBAN, VAT ID or domain)" }];
}

function layoutEvidence(prev: PageFeatures, next: PageFeatures): BoundaryEvidence[] {
  const ev: BoundaryEvidence[] = [];
  if (prev.bandTokens.size >= 3 && next.bandTokens.size >= 3) {
    const sim = jaccard(prev.bandTokens, next.bandTokens);
    if (sim >= 0.5) ev.push({ weight: -0.4, reason: `header/footer alike (${sim.toFixed(2)})` });
    else if (sim < 0.15) ev.push({ weight: 0.25, reason: `header/footer differ (${sim.toFixed(2)})` });
  }
  if (next.hasTitle && next.documentNumbers.length > 0 && !next.hasContinuationCue) {
    ev.push({ weight: 0.3, reason: "page opens with a document title and number" });
  }
  if (next.hasContinuationCue) ev.push({ weight: -0.4, reason: 'page says it continues ("continued", "Übertrag")' });
  if (prev.hasClosingCue && next.hasTitle) ev.push({ weight: 0.2, reason: "previous page closes with a total" });
  // A page that opens nothing of its own (no title, no document number, no "page 1") and prints the previous page's
  // largest amount is that document's payment or remittance page (an Italian FatturaPA rendering's "Dati relativi al
  // pagamento", a bank transfer slip): its IBAN or footer link is not another issuer's. Only such tail pages: a
  // second invoice of the same amount opens with its own title or number and is cut as before.
  const opensNothing = !next.hasTitle && next.documentNumbers.length === 0 && next.counter?.current !== 1;
  if (opensNothing && prev.largestAmount !== null && prev.largestAmount === next.largestAmount)
    ev.push({ weight: -0.8, reason: `page repeats the previous page's total (${prev.largestAmount.toFixed(2)})` });
  // No title, number or "page 1", and nothing the classifier recognises: what such a page holds (payment data, terms,
  // an appendix) continues the document before it. Weak: different IBANs or VAT IDs still cut (they weigh 0.5).
  else if (opensNothing && prev.classId && prev.classId !== "other" && (next.classId ?? "other") === "other")
    ev.push({ weight: -0.2, reason: "page opens no document of its own (no title, number or page 1)" });
  return ev;
}

export function evidenceScore(ev: BoundaryEvidence[]): number {
  return ev.reduce((sum, e) => sum + e.weight, 0);
}

export function boundaryProbability(ev: BoundaryEvidence[]): number {
  return 1 / (1 + Math.exp(-STEEPNESS * evidenceScore(ev)));
}

/** The strongest pieces of evidence pointing the way the decision went, for the reason text. */
export function decisiveReasons(ev: BoundaryEvidence[], isBoundary: boolean, max = 3): string[] {
  return ev
    .filter((e) => e !== PRIOR && (isBoundary ? e.weight > 0 : e.weight < 0))
    .sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight))
    .slice(0, max)
    .map((e) => e.reason);
}
