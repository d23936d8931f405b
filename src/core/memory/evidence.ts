/**
 * Who issued a document: what a confirmation teaches about the issuer beyond its identifiers (the name and where it
 * stood, the letterhead's and footer's fixed strings, the header block's layout), and how a new document is matched
 * against the project's memories.
 *
 * Contracts (issue 33):
 * - An identifier (VAT ID, IBAN) alone is evidence, never proof: two issuers of one group print the same VAT ID, and
 *   an invoice prints its customer's. A memory applies only when the issuer's name is printed where that issuer
 *   prints it (as OCR reads it: fuzzy) together with one more sign, when an identifier agrees with the issuer's own
 *   fixed strings and layout, or when most of those fixed strings (three at least) stand at their places in that
 *   layout (a receipt whose shop name is a logo).
 * - The layout alone never matches (many vendors share a template); neither do fixed strings that several issuers'
 *   memories share (the customer's own address, printed by every vendor).
 * - Every match carries its evidence and score, for the reasoning of the fields it changes.
 * - Memories written before these signs existed (no anchors, no layouts) match as they did: identifier or name,
 *   with another sign.
 */
import type { Page } from "../model";
import type { Line } from "../extract/lines";
import { compactText, findText, fromBottom, placeOf, similarity, type Frame, type Found } from "./frame";
import { frameOf } from "./frame";
import { editDistance } from "../extract/fuzzy";
import type { Issuer, Memory } from "../project/memory";

export interface Evidence {
  id: string | null;
  name: number;
  anchors: number;
  layout: number;
  domain: string | null;
}
export interface MemoryMatch {
  memory: Memory;
  score: number;
  signs: string[];
  evidence: Evidence;
  nameHit: Found | null;
}

const firstPage = (lines: Line[]): { page: Page; lines: Line[]; frame: Frame } | null => {
  const page = lines[0]?.page;
  if (!page) return null;
  const on = lines.filter((l) => l.page === page);
  return { page, lines: on, frame: frameOf(on, page) };
};

const r2 = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/** Label-like words of the header block (upper half of the text) with their frame places: "word@x,y". */
export function layoutOf(lines: Line[]): string[] {
  const p = firstPage(lines);
  if (!p) return [];
  const height = (p.frame.bottom - p.frame.top) / p.frame.unit;
  const out = new Set<string>();
  for (const l of p.lines) {
    for (const w of l.words) {
      if (!/^\p{L}{3,}[:.]?$/u.test(w.word.text)) continue;
      const [x, y] = placeOf(p.frame, w.box);
      if (y > height / 2) continue;
      out.add(`${compactText(w.word.text)}@${r2(x, 2).toFixed(2)},${r2(y, 1).toFixed(1)}`);
    }
  }
  return [...out].slice(0, 150);
}

const parseCell = (c: string) => {
  const m = /^(.*)@(-?\d+\.\d+),(-?\d+\.\d+)$/.exec(c);
  return m ? { w: m[1]!, x: Number(m[2]), y: Number(m[3]) } : null;
};

/** How alike two layouts are, 0..1: words of one found in the other at (nearly) the same place. */
export function layoutSimilarity(a: string[], b: string[]): number {
  const [ca, cb] = [a.map(parseCell).filter((c) => c !== null), b.map(parseCell).filter((c) => c !== null)];
  if (!ca.length || !cb.length) return 0;
  const byWord = new Map<string, Array<{ x: number; y: number }>>();
  for (const c of cb) byWord.set(c.w, [...(byWord.get(c.w) ?? []), c]);
  const hit = ca.filter((c) =>
    (byWord.get(c.w) ?? []).some((d) => Math.abs(d.x - c.x) <= 0.06 && Math.abs(d.y - c.y) <= 2.5),
  ).length;
  return Math.min(1, hit / Math.sqrt(ca.length * cb.length));
}

const valueLike = /\d[.,]\d{2}\b|\b\d{1,4}[./-]\d{1,2}[./-]\d{2,4}\b/;

/**
 * The letterhead's and footer's fixed strings: lines of the first page's top third and bottom fifth that hold none of
 * the confirmed values and no amount or date (those change from document to document), long enough to be the
 * issuer's own (a lone "INVOICE" is everybody's).
 */
export function anchorsOf(lines: Line[], values: string[]): Issuer["anchors"] {
  const p = firstPage(lines);
  if (!p) return [];
  const height = (p.frame.bottom - p.frame.top) / p.frame.unit;
  const vals = values.map(compactText).filter((v) => v.length >= 3);
  const out: Issuer["anchors"] = [];
  for (const l of p.lines) {
    const text = compactText(l.text);
    if (
      text.length < 8 ||
      text.length > 80 ||
      valueLike.test(l.text) ||
      vals.some((v) => text.includes(v) || (v.length > 6 && similarity(v, text) >= 0.8))
    )
      continue;
    const [x, y] = placeOf(p.frame, l.box);
    const below = fromBottom(p.frame, l.box);
    if (y <= height / 3) out.push({ text, at: [r2(x, 3), r2(y, 2)], from: "top" });
    else if (below <= height / 5) out.push({ text, at: [r2(x, 3), r2(below, 2)], from: "bottom" });
  }
  return out.slice(0, 40);
}

/** Where the confirmed name stands on the first page (frame place), if printed. */
export function namePlaceOf(lines: Line[], name: string): [number, number] | null {
  const p = firstPage(lines);
  const hit = p ? findText(name, p.lines, 0.85)[0] : undefined;
  return hit && p ? (placeOf(p.frame, hit.words[0]!.box).map((v, i) => r2(v, i ? 2 : 3)) as [number, number]) : null;
}

interface Page1 {
  lines: Line[];
  frame: Frame;
  height: number;
  compact: Map<Line, string>;
  grams: Set<string>;
}

const gramsOf = (s: string) => Array.from({ length: Math.max(0, s.length - 2) }, (_, i) => s.slice(i, i + 3));

/** The share of the issuer's own fixed strings found at their places, and how many were found. */
function anchorShare(anchors: Issuer["anchors"], p: Page1, generic: Set<string>): [number, number] {
  const own = anchors.filter((a) => !generic.has(a.text));
  if (!own.length) return [0, 0];
  let found = 0;
  for (const a of own) {
    const ok = p.lines.some((l) => {
      const [x, y] = placeOf(p.frame, l.box);
      const pos = a.from === "top" ? y : fromBottom(p.frame, l.box);
      return (
        Math.abs(x - a.at[0]) <= 0.12 && Math.abs(pos - a.at[1]) <= 4 && similarity(p.compact.get(l)!, a.text) >= 0.8
      );
    });
    if (ok) found++;
  }
  return [found / own.length, found];
}

/** The name near one of its remembered places (or anywhere, for a memory that never noted a place). */
function nameEvidence(m: Memory, p: Page1): { score: number; hit: Found | null } {
  const names = [...new Set([...m.issuer.names, ...(m.issuer.name ? [m.issuer.name] : [])])].filter(
    (n) => compactText(n).length >= 3,
  );
  let best: { score: number; hit: Found | null } = { score: 0, hit: null };
  for (const n of names) {
    // Cheap first (500 memories: 280 -> 15 ms a document): a good part of the name's letter triples must be on the
    // page before its lines are searched for it.
    const grams = gramsOf(compactText(n));
    if (grams.filter((g) => p.grams.has(g)).length < grams.length * 0.4) continue;
    for (const hit of findText(n, p.lines, 0.8)) {
      const [x, y] = placeOf(p.frame, hit.words[0]!.box);
      const placed =
        !m.issuer.name_places.length ||
        m.issuer.name_places.some((q) => Math.abs(q[0] - x) <= 0.15 && Math.abs(q[1] - y) <= 5);
      if (placed && hit.score > best.score) best = { score: hit.score, hit };
    }
  }
  return best;
}

/** Fixed strings that more than one issuer's memory holds say nothing about the issuer (the customer's address). */
function genericAnchors(memories: Memory[]): Set<string> {
  const owners = new Map<string, Set<string>>();
  for (const m of memories) {
    const who = m.issuer.name ?? m.issuer.vat_ids[0] ?? m.memory_id;
    for (const a of m.issuer.anchors) owners.set(a.text, (owners.get(a.text) ?? new Set()).add(who));
  }
  return new Set([...owners].filter(([, s]) => s.size > 1).map(([t]) => t));
}

const CONFUSED: Record<string, string> = { O: "0", Q: "0", D: "0", I: "1", L: "1", S: "5", B: "8", Z: "2", G: "6" };
const idKey = (s: string) =>
  s
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, "")
    .replace(/[OQDILSBZG]/g, (c) => CONFUSED[c]!);

/** Whether an identifier is printed, as OCR reads it: confusable characters folded, one or two slips allowed. */
function printedId(id: string, keyedText: string): boolean {
  const k = idKey(id);
  if (k.length < 6) return false;
  if (keyedText.includes(k)) return true;
  if (k.length < 12) return false;
  const slips = k.length >= 16 ? 2 : 1;
  // Windows starting where the identifier's first four characters are printed.
  for (let i = keyedText.indexOf(k.slice(0, 4)); i >= 0; i = keyedText.indexOf(k.slice(0, 4), i + 1)) {
    for (let len = k.length - slips; len <= k.length + slips; len++)
      if (editDistance(keyedText.slice(i, i + len), k, slips) <= slips) return true;
  }
  return false;
}

export function bestMemoryMatch(
  memories: Memory[],
  lines: Line[],
  legacy: (m: Memory, lines: Line[]) => number = () => 0,
): MemoryMatch | null {
  const first = firstPage(lines);
  if (!memories.length || !first) return null;
  const compact = new Map(first.lines.map((l) => [l, compactText(l.text)]));
  const p: Page1 = {
    ...first,
    height: (first.frame.bottom - first.frame.top) / first.frame.unit,
    compact,
    grams: new Set([...compact.values()].flatMap(gramsOf)),
  };
  const text = lines.map((l) => l.text).join("\n");
  const keyed = idKey(text);
  const layout = layoutOf(lines);
  const generic = genericAnchors(memories);
  let best: MemoryMatch | null = null;
  for (const m of memories) {
    const vat = m.issuer.vat_ids.find((v) => printedId(v, keyed));
    const iban = m.issuer.ibans.find((v) => v.length >= 12 && printedId(v, keyed));
    const id = vat ? `VAT ID ${vat}` : iban ? `IBAN ${iban}` : null;
    const name = nameEvidence(m, p);
    const [anchors, anchorsFound] = anchorShare(m.issuer.anchors, p, generic);
    // Without the name at its place or an identifier, only most of the issuer's own fixed strings can match: the
    // layout (the dearer sign) is compared for those memories only.
    if (name.score < 0.8 && id === null && (anchors < 0.6 || anchorsFound < 3)) continue;
    const lay = m.issuer.layouts.length
      ? Math.max(...m.issuer.layouts.map((l) => layoutSimilarity(l, layout)))
      : legacy(m, lines);
    const domain = m.issuer.domains.find((d) => text.toLowerCase().includes(d)) ?? null;
    const fresh = m.issuer.anchors.length > 0 || m.issuer.layouts.length > 0;
    const named = name.score >= 0.8;
    const ok =
      (named && (id !== null || domain !== null || anchors >= 0.3 || lay >= 0.4)) ||
      (id !== null && anchors >= 0.4 && anchorsFound >= 2 && lay >= 0.5) ||
      // A receipt photo whose shop name OCR cannot read: its address, phone and greetings where the shop prints them.
      (anchors >= 0.6 && anchorsFound >= 3 && lay >= 0.5) ||
      // A memory written before anchors and layouts were learned: its identifier with its old layout sign.
      (!fresh && id !== null && (named || domain !== null || lay >= 0.5));
    if (!ok) continue;
    const score = r2(
      Math.min(1, 0.3 * (id ? 1 : 0) + 0.3 * name.score + 0.25 * anchors + 0.15 * lay + (domain ? 0.1 : 0)),
      3,
    );
    const signs = [
      ...(id ? [id] : []),
      ...(named ? [`name ${Math.round(100 * name.score)}% alike`] : []),
      ...(domain ? [`domain ${domain}`] : []),
      ...(anchors > 0 ? [`fixed strings ${Math.round(100 * anchors)}% found`] : []),
      ...(lay > 0 ? [`layout ${Math.round(100 * lay)}% alike`] : []),
    ];
    if (!best || score > best.score || (score === best.score && m.confirmed_at > best.memory.confirmed_at)) {
      best = {
        memory: m,
        score,
        signs,
        evidence: { id, name: r2(name.score, 3), anchors: r2(anchors, 3), layout: r2(lay, 3), domain },
        nameHit: named ? name.hit : null,
      };
    }
  }
  return best;
}
