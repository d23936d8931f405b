/**
 * Arithmetic reconciliation: when the best candidates of amount fields break a `sum_equals` rule of the project
 * (subtotal + tax = total), the next-best candidates are tried, and the best-scoring combination that adds up
 * wins. Documents often print several "totals" (net, gross, paid); the arithmetic tells which is which.
 *
 * MUST only swap candidates when a combination adds up within the rule's tolerance; otherwise the picks stay and
 * validation reports the mismatch.
 */
import type { ProjectSettings, ValidationRule } from "../project";
import type { Candidate } from "./candidate";
import type { Line } from "./lines";
import type { DateOrder } from "./normalize";
import { findAmounts } from "./values";
import { type PrintedAmount, withRateSum, withRateTaxes } from "./rate-taxes";

export { type PrintedAmount, withRateTaxes } from "./rate-taxes";

type SumRule = Extract<ValidationRule, { type: "sum_equals" }>;
const TOP = 4;

/** Candidates with distinct values, best first. */
function distinct(list: Candidate[]): Candidate[] {
  const seen = new Set<number>();
  const out: Candidate[] = [];
  for (const c of list) {
    if (typeof c.match.value !== "number" || seen.has(c.match.value)) continue;
    seen.add(c.match.value);
    out.push(c);
    if (out.length >= TOP) break;
  }
  return out;
}

function* combinations(lists: Candidate[][], prefix: Candidate[] = []): Generator<Candidate[]> {
  if (prefix.length === lists.length) {
    yield prefix;
    return;
  }
  for (const c of lists[prefix.length]!) yield* combinations(lists, [...prefix, c]);
}

/** A tax term above another term of its sum would mean a tax rate over 100%: no such combination is taken. */
const TAXLIKE = /tax|vat/i;
function taxBelowNet(rule: SumRule, values: number[]): boolean {
  const taxes = rule.fields
    .map((id, i) => (TAXLIKE.test(id) ? Math.abs(values[i]!) : null))
    .filter((v): v is number => v !== null);
  const nets = rule.fields
    .map((id, i) => (TAXLIKE.test(id) ? null : Math.abs(values[i]!)))
    .filter((v): v is number => v !== null);
  return !taxes.length || !nets.length || taxes.every((t) => nets.every((n) => t < n));
}

const adds = (rule: SumRule, picks: Candidate[]) => {
  const values = picks.map((p) => p.match.value as number);
  if (!taxBelowNet(rule, values)) return false;
  const total = values.pop()!;
  return Math.abs(values.reduce((a, b) => a + b, 0) - total) <= rule.tolerance + 1e-9;
};

/**
 * Updates `best` in place for every applicable `sum_equals` rule whose fields all have candidates; returns the ids
 * of the fields whose pick changed.
 */
export function reconcileSums(
  project: ProjectSettings,
  classId: string,
  candidates: Record<string, Candidate[]>,
  best: Record<string, Candidate | undefined>,
  printed: PrintedAmount[] = [],
): string[] {
  const changed: string[] = [];
  const rules = project.validation_rules.filter(
    (r): r is SumRule => r.type === "sum_equals" && (!r.class_ids || r.class_ids.includes(classId)),
  );
  for (const rule of rules) {
    for (const id of rule.fields) {
      if (!TAXLIKE.test(id) || !candidates[id]?.length) continue;
      const first = candidates[id]![0];
      candidates[id] = withRateSum(withRateTaxes(candidates[id]!, printed));
      if (best[id] === first && candidates[id]![0] !== first) {
        best[id] = candidates[id]![0];
        changed.push(id);
      }
    }
    const ids = [...rule.fields, rule.total];
    const missing = ids.filter((id) => !candidates[id]?.length);
    if (classId !== "receipt" && netIsTotal(rule, candidates, best, printed))
      changed.push(rule.fields.find((id) => !TAXLIKE.test(id))!);
    if (missing.length > 1) continue;
    const current = ids.map((id) => best[id]);
    if (!missing.length && adds(rule, current as Candidate[])) continue;
    let winner: Candidate[] | null = null;
    let winnerScore = -1;
    if (!missing.length) {
      for (const combo of combinations(ids.map((id) => distinct(withOcrReadings(candidates[id]!))))) {
        const score = combo.reduce((s, c) => s + c.score, 0);
        if (score > winnerScore && adds(rule, combo)) [winner, winnerScore] = [combo, score];
      }
    }
    winner ??= solved(rule, ids, candidates, printed);
    if (!winner) continue;
    winner.forEach((c, i) => {
      const id = ids[i]!;
      if (best[id] === c) return;
      best[id] = { ...c, reasoning: `${c.reasoning}; chosen so that ${rule.fields.join(" + ")} = ${rule.total}` };
      changed.push(id);
    });
  }
  return changed;
}

/**
 * An invoice that prints no tax at all, or a zero tax, and no net amount, only its total (a small business exempt
 * from VAT, a hosting bill "ohne MwSt.", a cloud bill with "Tax $0.00") has its net equal to its total, unless two
 * printed amounts add up to the total (net and tax in a table no label reads). Sets the one net term of `rule` to the total,
 * at a lower score (so it goes to review under a strict threshold); true when it did.
 */
function netIsTotal(
  rule: SumRule,
  candidates: Record<string, Candidate[]>,
  best: Record<string, Candidate | undefined>,
  printed: PrintedAmount[],
) {
  const nets = rule.fields.filter((id) => !TAXLIKE.test(id));
  const total = best[rule.total];
  if (nets.length !== 1 || !total || typeof total.match.value !== "number" || total.match.value <= 0) return false;
  if (nets.some((id) => candidates[id]?.length)) return false;
  // A tax printed as zero ("Tax $0.00") is no tax either.
  if (rule.fields.some((id) => TAXLIKE.test(id) && candidates[id]?.length && best[id]?.match.value !== 0)) return false;
  // Two printed amounts adding up to the total are its breakdown (a table's "257,59  23 %  59,24  316,83").
  if (breaksDown(total.match.value, printed)) return false;
  const net: Candidate = {
    ...total,
    score: total.score * 0.7,
    reasoning: `${total.reasoning}; no tax and no net amount printed: the net is the total`,
  };
  candidates[nets[0]!] = [net];
  best[nets[0]!] = net;
  return true;
}

/** Two printed amounts, other than `total`, add up to it. */
function breaksDown(total: number, printed: PrintedAmount[]): boolean {
  const values = [...new Set(printed.map((p) => Math.abs(p.value)))].filter((v) => v > 0 && v < total).slice(0, 400);
  const seen = new Set(values.map((v) => Math.round(v * 100)));
  return values.some((v) => seen.has(Math.round((total - v) * 100)));
}

/**
 * What an amount read from an OCR line may have been printed as, each a further candidate right after the reading
 * itself (taken only when the sums then add up): without its decimal point when OCR lost it ("474375 €" for "4743,75 €",
 * an amount of 3+ digits printed with no separator), and without a sign when the "minus" stood apart from the
 * digits (a speck in the gap read as a dash: "Total  -  5,645.06 €").
 */
function withOcrReadings(list: Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  for (const c of list) {
    out.push(c);
    const { line, start, end, value } = c.match;
    if (line.page.text_source !== "ocr" || typeof value !== "number") continue;
    const printed = line.text.slice(start, end);
    const alt = (v: number, why: string) =>
      out.push({ ...c, match: { ...c.match, value: v }, score: c.score * 0.9, reasoning: `${c.reasoning}, ${why}` });
    if (Number.isInteger(value) && /^\D*\d{3,}\D*$/.test(printed))
      alt(Math.round(value) / 100, "read without its decimal mark (OCR lost it)");
    // A currency sign read as a digit glued to the amount ("2319.00" for "₹319.00", "512.00" for "$12.00").
    const glued = /^([258])[\s]?(\d[\d.,\s]*)$/.exec(printed.trim());
    if (glued && !c.match.note && value > 0) {
      const rest = Number(String(value).slice(1));
      if (rest > 0 && Math.abs(rest - value) > 1) alt(rest, `its first digit read as the currency sign OCR misread`);
    }
    if (value < 0 && /(^|\s)[-−–]\s+\d/.test(line.text.slice(Math.max(0, start - 3), end)))
      alt(-value, "the dash apart from the digits read as a speck, not a sign");
  }
  return out;
}

/**
 * No combination of candidates adds up (or one field has none): one term is solved from the others ("tax =
 * total − subtotal") and taken when exactly that amount is printed on the document, next to no label we read
 * (OCR lost or misplaced it). The known terms come from the fields' best few candidates; a solved amount must be
 * positive and differ from the known ones.
 */
function solved(
  rule: SumRule,
  ids: string[],
  candidates: Record<string, Candidate[]>,
  printed: PrintedAmount[],
): Candidate[] | null {
  let winner: Candidate[] | null = null;
  let winnerScore = -1;
  ids.forEach((unknown, u) => {
    const lists = ids.map((id, i) => (i === u ? [] : distinct(withOcrReadings(candidates[id] ?? [])).slice(0, 2)));
    if (lists.some((l, i) => i !== u && !l.length)) return;
    for (const known of combinations(lists.filter((_, i) => i !== u))) {
      const full: Array<Candidate | null> = [];
      let k = 0;
      for (let i = 0; i < ids.length; i++) full.push(i === u ? null : known[k++]!);
      const values = full.map((c) => (c ? (c.match.value as number) : 0));
      const total = values[values.length - 1]!;
      const sumOthers = values.slice(0, -1).reduce((a, b) => a + b, 0);
      const target = u === ids.length - 1 ? sumOthers : total - sumOthers;
      if (!(target > 0) || values.some((v, i) => i !== u && Math.abs(v - target) < 0.005)) continue;
      if (
        !taxBelowNet(
          rule,
          values.map((v, i) => (i === u ? target : v)),
        )
      )
        continue;
      const hit = printed.find((p) => Math.abs(Math.abs(p.value) - target) < 0.005);
      if (!hit) continue;
      const score = known.reduce((s, c) => s + c.score, 0);
      if (score <= winnerScore) continue;
      const found: Candidate = {
        match: { value: Math.round(target * 100) / 100, line: hit.line, start: hit.start, end: hit.end, strength: 0.5 },
        score: 0.5,
        reasoning: `the printed amount that makes ${rule.fields.join(" + ")} = ${rule.total} (page ${hit.line.page.page_number}, line ${hit.line.index + 1})`,
      };
      full[u] = found;
      [winner, winnerScore] = [full as Candidate[], score];
    }
  });
  return winner;
}

/** Every amount printed with decimals, for the arithmetic of reconcileSums. */
export function printedAmounts(lines: Line[], dateOrder: DateOrder): PrintedAmount[] {
  return lines.flatMap((line) =>
    findAmounts(line.text, dateOrder)
      .filter((a) => a.decimals)
      .map((a) => ({ value: a.value, line, start: a.start, end: a.end })),
  );
}
