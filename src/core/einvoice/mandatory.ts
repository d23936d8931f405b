/**
 * What an e-invoice must carry before docproc writes it: the mandatory terms of EN 16931 (and of the XRechnung and
 * Peppol BIS 3 CIUS when the profile claims one), listed by BT number, and the totals arithmetic (BR-CO-10/13/14/15/
 * 16), checked exactly as the official rules do. These are docproc's own checks; the full validator (EN 16931 rules,
 * schema, code lists) runs after them when the export context has one.
 */
import { allDefs } from "./bt-map";
import type { BtNode } from "./model";

export type Specification = "en16931" | "xrechnung" | "peppol";

/** BT-24 (and BT-23 where the CIUS wants one) of each specification a profile can claim. */
export const SPECIFICATION_IDS: Record<Specification, { bt24: string; bt23?: string }> = {
  en16931: { bt24: "urn:cen.eu:en16931:2017" },
  xrechnung: {
    bt24: "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0",
    bt23: "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0",
  },
  peppol: {
    bt24: "urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0",
    bt23: "urn:fdc:peppol.eu:2017:poacc:billing:01:1.0",
  },
};

/** The specification an invoice claims in BT-24 (the CIUS whose extra rules apply). */
export function specificationOf(data: BtNode): Specification {
  const id = data.values["BT-24"] ?? "";
  return /xrechnung/i.test(id) ? "xrechnung" : /peppol/i.test(id) ? "peppol" : "en16931";
}

export interface TermFinding {
  /** BT/BG id for a missing term, rule id (BR-CO-15) for a broken one. */
  id: string;
  message: string;
}

let names: Map<string, string> | null = null;
/** "BT-55 Country code (Buyer postal address)": the term's name, with its group's where the name is generic. */
export function termName(id: string): string {
  if (!names) {
    names = new Map();
    for (const { def, path } of allDefs()) {
      const parent = path[path.length - 1];
      const generic =
        parent && !def.name.toLowerCase().includes(parent.name.split(" ")[0]!.toLowerCase()) && def.id.startsWith("BT");
      if (!names.has(def.id)) names.set(def.id, generic ? `${def.name} (${parent.name})` : def.name);
    }
  }
  return `${id} ${names.get(id) ?? ""}`.trim();
}

const at = (node: BtNode | undefined, ...path: string[]): BtNode | undefined =>
  path.reduce<BtNode | undefined>((n, g) => n?.groups[g]?.[0], node);
const has = (node: BtNode | undefined, bt: string) => node?.values[bt] !== undefined && node.values[bt] !== "";

function requireAll(node: BtNode | undefined, ids: string[], out: TermFinding[], where = ""): void {
  for (const id of ids) if (!has(node, id)) out.push({ id, message: `${termName(id)}${where}` });
}

function vatCategories(data: BtNode): Set<string> {
  const cats = new Set<string>();
  for (const b of data.groups["BG-23"] ?? []) if (b.values["BT-118"]) cats.add(b.values["BT-118"]);
  for (const l of data.groups["BG-25"] ?? []) if (l.values["BT-151"]) cats.add(l.values["BT-151"]);
  return cats;
}

function coreTerms(data: BtNode, out: TermFinding[]): void {
  requireAll(data, ["BT-1", "BT-2", "BT-3", "BT-5"], out);
  requireAll(at(data, "BG-4"), ["BT-27"], out);
  requireAll(at(data, "BG-4", "BG-5"), ["BT-40"], out);
  requireAll(at(data, "BG-7"), ["BT-44"], out);
  requireAll(at(data, "BG-7", "BG-8"), ["BT-55"], out);
  requireAll(data, ["BT-106", "BT-109", "BT-112", "BT-115"], out);
  const breakdown = data.groups["BG-23"] ?? [];
  if (!breakdown.length)
    out.push({ id: "BG-23", message: "BG-23 VAT breakdown (needs BT-109 net total and BT-110 VAT total)" });
  breakdown.forEach((b, i) =>
    requireAll(
      b,
      ["BT-116", "BT-117", "BT-118", ...(b.values["BT-118"] === "O" ? [] : ["BT-119"])],
      out,
      breakdown.length > 1 ? ` in VAT breakdown ${i + 1}` : "",
    ),
  );
  for (const b of breakdown) {
    if (["E", "AE", "K", "G", "O"].includes(b.values["BT-118"] ?? "") && !has(b, "BT-120") && !has(b, "BT-121"))
      out.push({ id: "BT-120", message: `${termName("BT-120")} or BT-121 (VAT category ${b.values["BT-118"]})` });
  }
  const lines = data.groups["BG-25"] ?? [];
  if (!lines.length) out.push({ id: "BG-25", message: "BG-25 Invoice line (at least one)" });
  lines.forEach((l, i) =>
    requireAll(l, ["BT-126", "BT-129", "BT-130", "BT-131", "BT-146", "BT-151", "BT-153"], out, ` in line ${i + 1}`),
  );
  (data.groups["BG-16"] ?? []).forEach((p) => requireAll(p, ["BT-81"], out));
  const cats = vatCategories(data);
  const seller = at(data, "BG-4");
  const taxRep = at(data, "BG-11");
  if ([...cats].some((c) => c !== "O") && !has(seller, "BT-31") && !has(seller, "BT-32") && !has(taxRep, "BT-63")) {
    out.push({ id: "BT-31", message: `${termName("BT-31")} (or BT-32 tax registration identifier)` });
  }
  if ((cats.has("AE") || cats.has("K")) && !has(at(data, "BG-7"), "BT-48") && !has(at(data, "BG-7"), "BT-47"))
    out.push({ id: "BT-48", message: termName("BT-48") });
  if (Number(data.values["BT-115"] ?? 0) > 0 && !has(data, "BT-9") && !has(data, "BT-20"))
    out.push({ id: "BT-9", message: `${termName("BT-9")} or BT-20 payment terms` });
}

function cuisTerms(data: BtNode, spec: Specification, out: TermFinding[]): void {
  if (spec === "xrechnung") {
    requireAll(data, ["BT-10"], out);
    requireAll(at(data, "BG-4"), ["BT-34"], out);
    requireAll(at(data, "BG-4", "BG-5"), ["BT-37", "BT-38"], out);
    requireAll(at(data, "BG-4", "BG-6"), ["BT-41", "BT-42", "BT-43"], out);
    requireAll(at(data, "BG-7"), ["BT-49"], out);
    requireAll(at(data, "BG-7", "BG-8"), ["BT-52", "BT-53"], out);
    if (!(data.groups["BG-16"] ?? []).length)
      out.push({
        id: "BG-16",
        message: "BG-16 Payment instructions (BT-81 payment means, with BT-84 IBAN for a transfer)",
      });
  }
  if (spec === "peppol") {
    requireAll(at(data, "BG-4"), ["BT-34", "BT-34-1"], out);
    requireAll(at(data, "BG-7"), ["BT-49", "BT-49-1"], out);
    if (!has(data, "BT-10") && !has(data, "BT-13"))
      out.push({ id: "BT-10", message: `${termName("BT-10")} or BT-13 purchase order reference` });
  }
}

/** "BT-151 … in line 1", "… in line 2" → "BT-151 … in lines 1, 2". */
function mergeLines(findings: TermFinding[]): TermFinding[] {
  const merged = new Map<string, { f: TermFinding; lines: string[] }>();
  for (const f of findings) {
    const m = / in line (\d+)$/.exec(f.message);
    const key = m ? f.message.slice(0, m.index) : f.message;
    const entry = merged.get(key) ?? { f: { ...f, message: key }, lines: [] };
    if (m) entry.lines.push(m[1]!);
    merged.set(key, entry);
  }
  return [...merged.values()].map(({ f, lines }) =>
    lines.length ? { ...f, message: `${f.message} in line${lines.length > 1 ? "s" : ""} ${lines.join(", ")}` } : f,
  );
}

/** Mandatory terms the model lacks, by BT/BG number (empty when complete). */
export function missingTerms(data: BtNode, spec: Specification): TermFinding[] {
  const out: TermFinding[] = [];
  coreTerms(data, out);
  cuisTerms(data, spec, out);
  return mergeLines(out);
}

const cents = (v: string | undefined): number => Math.round(Number(v ?? 0) * 100);
const sumCents = (nodes: BtNode[] | undefined, bt: string) =>
  (nodes ?? []).reduce((s, n) => s + cents(n.values[bt]), 0);

/** The totals rules of EN 16931 the data breaks (BR-CO-10, 13, 14, 15, 16), with the figures. */
export function brokenTotals(data: BtNode): TermFinding[] {
  const v = data.values;
  const out: TermFinding[] = [];
  const money = (c: number) => (c / 100).toFixed(2);
  const check = (id: string, present: boolean, left: number, right: number, text: string) => {
    if (present && left !== right) out.push({ id, message: `${id}: ${text} (${money(left)} ≠ ${money(right)})` });
  };
  // Only where the terms are there: a missing one is listed by missingTerms already.
  check(
    "BR-CO-10",
    v["BT-106"] !== undefined && (data.groups["BG-25"] ?? []).length > 0,
    cents(v["BT-106"]),
    sumCents(data.groups["BG-25"], "BT-131"),
    "BT-106 line total must equal the sum of the line net amounts",
  );
  check(
    "BR-CO-13",
    v["BT-109"] !== undefined && v["BT-106"] !== undefined,
    cents(v["BT-109"]),
    cents(v["BT-106"]) - cents(v["BT-107"]) + cents(v["BT-108"]),
    "BT-109 net total must equal BT-106 − BT-107 + BT-108",
  );
  check(
    "BR-CO-14",
    v["BT-110"] !== undefined && (data.groups["BG-23"] ?? []).length > 0,
    cents(v["BT-110"]),
    sumCents(data.groups["BG-23"], "BT-117"),
    "BT-110 VAT total must equal the sum of the VAT breakdown amounts",
  );
  check(
    "BR-CO-15",
    v["BT-112"] !== undefined && v["BT-109"] !== undefined && v["BT-110"] !== undefined,
    cents(v["BT-112"]),
    cents(v["BT-109"]) + cents(v["BT-110"]),
    "BT-112 gross total must equal BT-109 net + BT-110 VAT",
  );
  check(
    "BR-CO-16",
    v["BT-115"] !== undefined && v["BT-112"] !== undefined,
    cents(v["BT-115"]),
    cents(v["BT-112"]) - cents(v["BT-113"]) + cents(v["BT-114"]),
    "BT-115 amount due must equal BT-112 − BT-113 paid + BT-114 rounding",
  );
  return out;
}
