/**
 * Arithmetic reconciliation: when the best candidates of amount fields break a `sum_equals` rule of the project
 * (subtotal + tax = total), the next-best candidates are tried, and the best-scoring combination that adds up
 * wins. Documents often print several "totals" (net, gross, paid); the arithmetic tells which is which.
 *
 * MUST only swap candidates when a combination adds up within the rule's tolerance; otherwise the picks stay and
 * validation reports the mismatch.
 */
import type { ProjectSettings, ValidationRule } from "../project";
import type { Candidate } from "./fields";

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

const adds = (rule: SumRule, picks: Candidate[]) => {
  const values = picks.map((p) => p.match.value as number);
  const total = values.pop()!;
  return Math.abs(values.reduce((a, b) => a + b, 0) - total) <= rule.tolerance + 1e-9;
};

/**
 * Updates `best` in place for every applicable `sum_equals` rule whose fields all have candidates; returns the ids
 * of the fields whose pick changed.
 */
export function reconcileSums(project: ProjectSettings, classId: string, candidates: Record<string, Candidate[]>, best: Record<string, Candidate | undefined>): string[] {
  const changed: string[] = [];
  const rules = project.validation_rules.filter((r): r is SumRule => r.type === "sum_equals" && (!r.class_ids || r.class_ids.includes(classId)));
  for (const rule of rules) {
    const ids = [...rule.fields, rule.total];
    if (ids.some((id) => !candidates[id]?.length)) continue;
    const current = ids.map((id) => best[id]!);
    if (adds(rule, current)) continue;
    let winner: Candidate[] | null = null;
    let winnerScore = -1;
    for (const combo of combinations(ids.map((id) => distinct(candidates[id]!)))) {
      const score = combo.reduce((s, c) => s + c.score, 0);
      if (score > winnerScore && adds(rule, combo)) [winner, winnerScore] = [combo, score];
    }
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
