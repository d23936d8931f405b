/**
 * Sums that do not add up on a scan because OCR misread one amount's digits (ocr-digits.ts says how): after the
 * candidates were reconciled (reconcile.ts), a rule `a + b = total` still broken, or short of one term, is settled
 * with a reading of one amount one slip away from what OCR read, when exactly that reading makes the rule hold.
 *
 * MUST NOT change amounts that already add up, amounts read from a text layer, or more than one amount per rule;
 * MUST NOT take a value no reading of a printed number supports. What it takes scores lower than the reading it
 * replaces, and its reasoning names the slip.
 */
import type { ProjectSettings, ValidationRule } from "../project";
import type { Candidate } from "./candidate";
import type { Line } from "./lines";
import { amountReadings, type DigitReading } from "./ocr-digits";
import { findAmounts } from "./values";
import { maxOf, minOf } from "../arrays";

type SumRule = Extract<ValidationRule, { type: "sum_equals" }>;

/** A reading takes this share of the score of the one it replaces: sure enough to show, never surer. */
const DOUBT = 0.8;
/** A term found only as a misread number elsewhere on the page is weaker still. */
const FOUND_DOUBT = 0.5;
/** Readings dearer than this (a digit lost) are taken only where the term was read, never looked for elsewhere. */
const SEARCH_COST = 1;
const TAXLIKE = /tax|vat/i;
const CENT = 0.005;

interface Option {
  index: number;
  candidate: Candidate;
  cost: number;
  confidence: number;
}

/** Settles every applicable sum rule that still does not hold; returns the ids of the fields it changed. */
export function repairOcrSums(
  project: ProjectSettings,
  classId: string,
  candidates: Record<string, Candidate[]>,
  best: Record<string, Candidate | undefined>,
  lines: Line[],
): string[] {
  const changed: string[] = [];
  const rules = project.validation_rules.filter(
    (r): r is SumRule => r.type === "sum_equals" && (!r.class_ids || r.class_ids.includes(classId)),
  );
  for (const rule of rules) {
    const ids = [...rule.fields, rule.total];
    const picks = ids.map((id) => best[id]);
    const missing = picks.filter((p) => !p || typeof p.match.value !== "number").length;
    const options =
      missing === 0 ? misread(rule, ids, picks as Candidate[]) : missing === 1 ? unread(rule, ids, picks, lines) : [];
    if (missing === 2) for (const id of brokenDown(rule, ids, picks, candidates, best, lines)) changed.push(id);
    const pick = choose(options);
    if (!pick) continue;
    const id = ids[pick.index]!;
    best[id] = pick.candidate;
    candidates[id] = [pick.candidate, ...(candidates[id] ?? [])];
    changed.push(id);
  }
  return changed;
}

const valueOf = (c: Candidate | undefined) => (c && typeof c.match.value === "number" ? c.match.value : null);

/** What term `u` must be for the rule to hold, from the other terms' values. */
function target(ids: string[], values: Array<number | null>, u: number): number | null {
  const others = values.filter((_, i) => i !== u);
  if (others.some((v) => v === null)) return null;
  const last = ids.length - 1;
  const sum = values.slice(0, last).reduce<number>((s, v, i) => s + (i === u ? 0 : v!), 0);
  const t = u === last ? sum : values[last]! - sum;
  return t > 0 ? Math.round(t * 100) / 100 : null;
}

/** Taxes below the net amounts (a tax over 100% is no reading of an invoice). */
function plausible(rule: SumRule, ids: string[], values: number[]): boolean {
  const terms = rule.fields.map((id) => values[ids.indexOf(id)]!);
  const taxes = terms.filter((_, i) => TAXLIKE.test(rule.fields[i]!));
  const nets = terms.filter((_, i) => !TAXLIKE.test(rule.fields[i]!));
  return taxes.every((t) => nets.every((n) => t < n));
}

/** All terms read but the sum broken: each term read on an OCR page, read the way that makes the sum hold. */
function misread(rule: SumRule, ids: string[], picks: Candidate[]): Option[] {
  const values = picks.map((p) => p.match.value as number);
  const sum = values.slice(0, -1).reduce((a, b) => a + b, 0);
  if (Math.abs(sum - values[values.length - 1]!) <= rule.tolerance + 1e-9) return [];
  const out: Option[] = [];
  picks.forEach((pick, index) => {
    const want = target(ids, values, index);
    if (want === null || pick.match.line.page.text_source !== "ocr") return;
    if (
      !plausible(
        rule,
        ids,
        values.map((v, i) => (i === index ? want : v)),
      )
    )
      return;
    const token = tokenAt(pick.match.line, pick.match.start, pick.match.end);
    const reading = amountReadings(token.text).find((r) => Math.abs(r.value - want) < CENT);
    if (!reading) return;
    out.push({
      index,
      cost: reading.cost,
      confidence: token.confidence,
      candidate: retaken(pick, token, reading, rule),
    });
  });
  return out;
}

/**
 * One term not found (its label or its digits lost): a number printed on an OCR page whose reading one slip away is
 * what the other terms make it, and which is no other term.
 */
function unread(rule: SumRule, ids: string[], picks: Array<Candidate | undefined>, lines: Line[]): Option[] {
  const index = picks.findIndex((p) => valueOf(p) === null);
  const values = picks.map(valueOf);
  const want = target(ids, values, index);
  if (
    want === null ||
    !plausible(
      rule,
      ids,
      values.map((v, i) => (i === index ? want : v!)),
    )
  )
    return [];
  const taken = new Set(picks.filter((p): p is Candidate => !!p).map((p) => `${p.match.line.index}:${p.match.start}`));
  const out: Option[] = [];
  for (const line of lines) {
    if (line.page.text_source !== "ocr") continue;
    for (const token of numberTokens(line)) {
      if (taken.has(`${line.index}:${token.start}`)) continue;
      const reading = amountReadings(token.text).find((r) => Math.abs(r.value - want) < CENT);
      if (!reading || reading.cost > SEARCH_COST) continue;
      const candidate: Candidate = {
        match: { value: want, line, start: token.start, end: token.end, strength: FOUND_DOUBT },
        score: FOUND_DOUBT,
        reasoning: `the number read as "${token.text}" (page ${line.page.page_number}, line ${line.index + 1}) taken as ${want}: ${reading.slip}; so ${rule.fields.join(" + ")} = ${rule.total}`,
      };
      out.push({ index, cost: reading.cost, confidence: token.confidence, candidate });
    }
  }
  return out;
}

/** The cheapest option; of equally cheap ones the one on the least sure words; none when still undecided. */
function choose(options: Option[]): Option | null {
  if (!options.length) return null;
  const cost = minOf(options.map((o) => o.cost));
  const cheapest = options.filter((o) => o.cost === cost);
  if (cheapest.length === 1) return cheapest[0]!;
  const sure = minOf(cheapest.map((o) => o.confidence));
  const least = cheapest.filter((o) => o.confidence === sure);
  const values = new Set(least.map((o) => `${o.index}:${o.candidate.match.value}`));
  return values.size === 1 ? least[0]! : null;
}

function retaken(pick: Candidate, token: Token, reading: DigitReading, rule: SumRule): Candidate {
  return {
    ...pick,
    match: { ...pick.match, value: reading.value, start: token.start, end: token.end },
    score: pick.score * DOUBT,
    reasoning: `${pick.reasoning}; read as "${token.text}", taken as ${reading.value} (${reading.slip}) so that ${rule.fields.join(" + ")} = ${rule.total}`,
  };
}

interface Token {
  text: string;
  start: number;
  end: number;
  /** The lowest OCR confidence of its words. */
  confidence: number;
}

/** The words of `line` a value's characters fall in, as one token. */
function tokenAt(line: Line, start: number, end: number): Token {
  const words = line.words.filter((w) => w.end > start && w.start < end && /\d/.test(w.word.text));
  if (!words.length) return { text: line.text.slice(start, end), start, end, confidence: 1 };
  const s = minOf(words.map((w) => w.start));
  const e = maxOf(words.map((w) => w.end));
  return {
    text: line.text.slice(s, e),
    start: s,
    end: e,
    confidence: minOf(words.map((w) => w.word.confidence)),
  };
}

/** Words of a line with three digits or more and nothing but digits, separators and marks: misread numbers. */
function numberTokens(line: Line): Token[] {
  return line.words
    .filter((w) => (w.word.text.match(/\d/g)?.length ?? 0) >= 3 && /^[^\p{L}]*$/u.test(w.word.text))
    .map((w) => ({ text: w.word.text, start: w.start, end: w.end, confidence: w.word.confidence }));
}

/** Lines above the total (in reading order, on its page) where its breakdown is looked for. */
const ABOVE = 8;
/** The highest VAT rate anywhere is 27%: a larger "tax" is no tax of that net. */
const MAX_RATE = 0.3;

/**
 * Net and tax both unread (their labels lost to OCR, dot leaders read as letters) but the total read: the two
 * amounts printed just above it that add up to it are its net and its tax, the smaller the tax, when exactly one
 * such pair is there.
 */
function brokenDown(
  rule: SumRule,
  ids: string[],
  picks: Array<Candidate | undefined>,
  candidates: Record<string, Candidate[]>,
  best: Record<string, Candidate | undefined>,
  lines: Line[],
): string[] {
  const total = picks[ids.length - 1];
  const net = rule.fields.find((id) => !TAXLIKE.test(id));
  const tax = rule.fields.find((id) => TAXLIKE.test(id));
  if (rule.fields.length !== 2 || !net || !tax || !total || valueOf(total) === null) return [];
  const line = total.match.line;
  if (line.page.text_source !== "ocr") return [];
  const sum = valueOf(total)!;
  const above = lines.filter((l) => l.page === line.page && l.index < line.index && l.index >= line.index - ABOVE);
  const amounts = above.flatMap((l) =>
    findAmounts(l.text)
      .filter((a) => a.decimals && a.value > 0 && a.value < sum)
      .map((a) => ({ ...a, line: l })),
  );
  const pairs: Array<[(typeof amounts)[number], (typeof amounts)[number]]> = [];
  for (const a of amounts)
    for (const b of amounts)
      if (a.value > b.value && Math.abs(a.value + b.value - sum) < CENT && b.value <= a.value * MAX_RATE)
        if (!pairs.some(([x, y]) => x.value === a.value && y.value === b.value)) pairs.push([a, b]);
  if (pairs.length !== 1) return [];
  const [n, t] = pairs[0]!;
  const why = `the two amounts printed above the total ${sum} that add up to it (${n.value} + ${t.value}), no label read`;
  const found = (a: (typeof amounts)[number], what: string): Candidate => ({
    match: { value: a.value, line: a.line, start: a.start, end: a.end, strength: FOUND_DOUBT },
    score: FOUND_DOUBT,
    reasoning: `${what}: ${why} (page ${a.line.page.page_number}, line ${a.line.index + 1})`,
  });
  best[net] = found(n, "the larger one, the net");
  best[tax] = found(t, "the smaller one, the tax");
  candidates[net] = [best[net]!];
  candidates[tax] = [best[tax]!];
  return [net, tax];
}
