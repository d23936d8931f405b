/**
 * Learning from more than one document: a further confirmation of an issuer refines that issuer's memory instead of
 * adding a rival one. Where a field stood at the same label (or measured from the same fixed word), its offsets are
 * averaged; where it stood elsewhere (the issuer's other template), the placement is kept as a variant; names,
 * identifiers, fixed strings and layouts are gathered. So a vendor with two templates is read right after one
 * confirmation of each.
 *
 * MUST keep every memory readable by MemorySchema (stored memories of older versions included: they are parsed,
 * with their defaults, before being merged) and MUST NOT merge two issuers that merely share an identifier.
 */
import { compactText, similarity } from "./frame";
import { layoutSimilarity } from "./evidence";
import { MemorySchema, type Memory, type Placement, type RememberedField } from "../project/memory";

/** Whether `b` is a further confirmation of the issuer of `a` (same class). */
export function sameIssuer(a: Memory, b: Memory): boolean {
  if (a.class_id !== b.class_id) return false;
  const [an, bn] = [a.issuer.name, b.issuer.name];
  // Two issuers of one group print the same VAT ID under different names: the name decides when both have one.
  if (an && bn) return similarity(an, bn) >= 0.9;
  const ids = (m: Memory) => [...m.issuer.vat_ids, ...m.issuer.ibans];
  if (!ids(a).some((x) => ids(b).includes(x))) return false;
  return a.issuer.layouts.some((la) => b.issuer.layouts.some((lb) => layoutSimilarity(la, lb) >= 0.5));
}

const samePlace = (a: Placement, b: Placement) =>
  a.relation === b.relation &&
  (a.label !== null && b.label !== null
    ? compactText(a.label) === compactText(b.label)
    : a.label === b.label && (a.anchor?.text ?? null) === (b.anchor?.text ?? null));

const avg = (
  x: [number, number] | undefined,
  y: [number, number] | undefined,
  nx: number,
): [number, number] | undefined =>
  x && y
    ? ([(x[0] * nx + y[0]) / (nx + 1), (x[1] * nx + y[1]) / (nx + 1)].map((v) => Math.round(v * 1000) / 1000) as [
        number,
        number,
      ])
    : (x ?? y);

function refine(p: Placement, q: Placement): Placement {
  const n = p.seen ?? 1;
  const anchor =
    p.anchor && q.anchor ? { text: p.anchor.text, rel: avg(p.anchor.rel, q.anchor.rel, n)! } : (p.anchor ?? q.anchor);
  return {
    ...p,
    rel: avg(p.rel, q.rel, n),
    place: avg(p.place, q.place, n),
    offset: p.offset && q.offset ? avg(p.offset, q.offset, n)! : p.offset,
    position: avg(p.position, q.position, n)!,
    anchor,
    example: q.example,
    seen: n + 1,
  };
}

function mergeField(old: RememberedField, add: RememberedField): RememberedField {
  const { variants, ...primary } = old;
  const all: Placement[] = [primary, ...(variants ?? [])];
  const { variants: _, ...incoming } = add;
  const i = all.findIndex((p) => samePlace(p, incoming));
  if (i >= 0) all[i] = refine(all[i]!, incoming);
  else all.push(incoming);
  // The placement seen most often reads first; the others stay as variants (at most 4).
  const [first, ...rest] = all.sort((a, b) => (b.seen ?? 1) - (a.seen ?? 1));
  return { ...first!, variants: rest.slice(0, 4) };
}

const union = <T>(a: T[], b: T[]) => [...new Set([...a, ...b])];

export function mergeMemory(old: Memory, add: Memory): Memory {
  const fields: Record<string, RememberedField> = { ...old.fields };
  for (const [id, f] of Object.entries(add.fields)) fields[id] = fields[id] ? mergeField(fields[id]!, f) : f;
  const oi = old.issuer,
    ai = add.issuer;
  const places = [...oi.name_places];
  for (const q of ai.name_places)
    if (!places.some((p) => Math.abs(p[0] - q[0]) <= 0.15 && Math.abs(p[1] - q[1]) <= 5)) places.push(q);
  const anchors = [...oi.anchors];
  for (const a of ai.anchors) if (!anchors.some((b) => b.text === a.text && b.from === a.from)) anchors.push(a);
  const layouts = [...oi.layouts];
  for (const l of ai.layouts) if (!layouts.some((k) => layoutSimilarity(k, l) >= 0.6)) layouts.push(l);
  return {
    ...old,
    source: add.source,
    confirmed_at: add.confirmed_at > old.confirmed_at ? add.confirmed_at : old.confirmed_at,
    transaction_id: add.transaction_id ?? old.transaction_id,
    document_id: add.document_id ?? old.document_id,
    issuer: {
      ...oi,
      vat_ids: union(oi.vat_ids, ai.vat_ids),
      ibans: union(oi.ibans, ai.ibans),
      domains: union(oi.domains, ai.domains),
      name: oi.name ?? ai.name,
      names: [...oi.names.filter((n) => !ai.names.includes(n)), ...ai.names],
      name_places: places.slice(0, 6),
      anchors: anchors.slice(0, 80),
      layouts: layouts.slice(-4),
    },
    fields,
    confirmations: old.confirmations + add.confirmations,
  };
}

/**
 * The project's memories after learning `added`: each joins the memory of its issuer (moved last, as the most recent
 * confirmation) or is appended.
 */
export function mergeMemories(existing: unknown[], added: Memory[]): Memory[] {
  const out = existing.map((m) => {
    const parsed = MemorySchema.safeParse(m);
    return parsed.success ? parsed.data : (m as Memory);
  });
  for (const m of added) {
    const i = out.findLastIndex((o) => sameIssuer(o, m));
    if (i < 0) out.push(m);
    else out.push(mergeMemory(out.splice(i, 1)[0]!, m));
  }
  return out;
}
