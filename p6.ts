import { parseXmlDocument } from "slimdom";
import { evaluateXPathToNodes, evaluateXPathToBoolean } from "fontoxpath";
import { readFileSync } from "fs";
import { ruleSet } from "./src/core/einvoice/validate/rulesets";
const set = ruleSet("EN16931-UBL");
const ns = set.namespaces;
const o = { namespaceResolver: (p: string) => (p ? ns[p] ?? null : null) };
const d = parseXmlDocument(readFileSync("/tmp/az/UBL-Invoice-2.1.xml", "utf8"));
const tot = new Map<string, number>(); const cnt = new Map<string, number>();
for (let round = 0; round < 4; round++) for (const p of set.patterns) for (const r of p.rules) {
  const e = r.context.startsWith("/") ? r.context : "//" + r.context;
  let nodes: any[] = [];
  let t0 = performance.now();
  try { nodes = evaluateXPathToNodes(e, d, null, null, o); } catch {}
  if (round > 0) tot.set("CTX " + e.slice(0, 90), (tot.get("CTX " + e.slice(0, 90)) ?? 0) + performance.now() - t0);
  for (const n of nodes) for (const c of r.checks) {
    t0 = performance.now();
    try { evaluateXPathToBoolean(c.test, n, null, null, o); } catch {}
    if (round > 0) { tot.set(c.id, (tot.get(c.id) ?? 0) + performance.now() - t0); cnt.set(c.id, (cnt.get(c.id) ?? 0) + 1); }
  }
}
const all = [...tot].sort((a, b) => b[1] - a[1]); console.log((all.reduce((a, b) => a + b[1], 0) / 3).toFixed(0), "ms/run");
console.log(all.slice(0, 15).map(([k, v]) => (v / 3).toFixed(1) + " " + (cnt.get(k) ?? 0) / 3 + " " + k).join("\n"));
