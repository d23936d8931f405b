/**
 * The small path language of the BT mapping table (bt-map.ts), read by the reader and the writers alike:
 *
 *   step ("/" step)*      step = prefix:Name predicate* | @attribute | "."
 *   predicate = "[" "!"? lhs ("=" | "!=") value (":" 'written')? "]"   lhs = a relative path (may end in @attr)
 *   value = 'literal' | $BT-n (a document-level BT's value)
 *
 * Reading compares local names (the prefix of the source does not matter) and applies every predicate without "!";
 * "=" needs the value, "!=" accepts a missing or different one. Writing finds the first child that matches or
 * creates it, and creates with it what its predicates state ("=" values, the `:'written'` value of "!=", and the
 * "!" ones, which are constants only written: `TaxCategory[!cac:TaxScheme/cbc:ID='VAT']`).
 */
import { element, localName, type XNode } from "./xml";

interface Predicate {
  writeOnly: boolean;
  lhs: string[];
  op: "=" | "!=";
  value: string;
  written?: string;
}
interface Step {
  name: string;
  attr: boolean;
  preds: Predicate[];
}

const cache = new Map<string, Step[]>();

function splitSteps(path: string): string[] {
  const steps: string[] = [];
  let depth = 0;
  let cur = "";
  for (const ch of path) {
    if (ch === "[") depth++;
    if (ch === "]") depth--;
    if (ch === "/" && depth === 0) {
      steps.push(cur);
      cur = "";
    } else cur += ch;
  }
  steps.push(cur);
  return steps.filter((s) => s !== "" && s !== ".");
}

const PRED = /^(!?)([^!=\]]+?)(!?=)'?(\$?[^':\]]*)'?(?::'([^']*)')?$/;

const stepCache = new Map<string, Step>();
function parseStep(raw: string): Step {
  let step = stepCache.get(raw);
  if (!step) stepCache.set(raw, (step = parseStepNow(raw)));
  return step;
}

function parseStepNow(raw: string): Step {
  const open = raw.indexOf("[");
  const name = open < 0 ? raw : raw.slice(0, open);
  const preds: Predicate[] = [];
  for (const m of raw.slice(open < 0 ? raw.length : open).matchAll(/\[([^\]]+)\]/g)) {
    const p = PRED.exec(m[1]!);
    if (!p) throw new Error(`bad predicate ${m[0]} in ${raw}`);
    preds.push({
      writeOnly: p[1] === "!",
      lhs: splitSteps(p[2]!),
      op: p[3] as "=" | "!=",
      value: p[4]!,
      written: p[5],
    });
  }
  return { name: name.startsWith("@") ? name.slice(1) : name, attr: name.startsWith("@"), preds };
}

export function parsePath(path: string): Step[] {
  let steps = cache.get(path);
  if (!steps) cache.set(path, (steps = splitSteps(path).map(parseStep)));
  return steps;
}

/** Values of `$BT-n` references. */
export type Refs = Record<string, string | undefined>;

const resolve = (value: string, refs: Refs): string | undefined =>
  value.startsWith("$") ? refs[value.slice(1)] : value;

/** The text of a relative path (first match), or of an attribute at its end. */
function valueAt(node: XNode, steps: string[], refs: Refs): string | undefined {
  let cur: XNode | undefined = node;
  for (const [i, raw] of steps.entries()) {
    if (!cur) return undefined;
    if (raw.startsWith("@")) return i === steps.length - 1 ? cur.attrs[raw.slice(1)] : undefined;
    const s = parseStep(raw);
    cur = cur.children.find((c) => matches(c, s, refs));
  }
  return cur?.text;
}

function holds(node: XNode, p: Predicate, refs: Refs): boolean {
  const actual = valueAt(node, p.lhs, refs);
  const wanted = resolve(p.value, refs);
  return p.op === "=" ? actual !== undefined && actual === wanted : actual === undefined || actual !== wanted;
}

function matches(node: XNode, step: Step, refs: Refs): boolean {
  return localName(node.name) === localName(step.name) && step.preds.every((p) => p.writeOnly || holds(node, p, refs));
}

/** Every element the path reaches from `node` (all branches). An attribute step is not allowed here. */
export function selectAll(node: XNode, path: string, refs: Refs): XNode[] {
  let cur = [node];
  for (const step of parsePath(path)) {
    if (step.attr) throw new Error(`attribute step in element path ${path}`);
    cur = cur.flatMap((n) => n.children.filter((c) => matches(c, step, refs)));
  }
  return cur;
}

/** The first value the path gives (element text or attribute), or undefined. */
export function valueAtPath(node: XNode, path: string, refs: Refs): string | undefined {
  const steps = parsePath(path);
  const last = steps[steps.length - 1];
  if (last?.attr) {
    const elementPath = path.slice(0, path.lastIndexOf("@")).replace(/\/$/, "");
    for (const el of elementPath ? selectAll(node, elementPath, refs) : [node]) {
      const v = el.attrs[last.name];
      if (v !== undefined) return v;
    }
    return undefined;
  }
  for (const el of selectAll(node, path, refs)) if (el.text !== undefined) return el.text;
  return undefined;
}

function create(parent: XNode, step: Step, refs: Refs): XNode {
  const child = element(step.name);
  parent.children.push(child);
  for (const p of step.preds) {
    const v = p.op === "=" ? resolve(p.value, refs) : p.written;
    if (v !== undefined) setAt(child, p.lhs, v, refs);
  }
  return child;
}

function setAt(node: XNode, steps: string[], value: string, refs: Refs): void {
  let cur = node;
  for (const [i, raw] of steps.entries()) {
    if (raw.startsWith("@")) {
      cur.attrs[raw.slice(1)] = value;
      return;
    }
    const s = parseStep(raw);
    cur = cur.children.find((c) => matches(c, s, refs)) ?? create(cur, s, refs);
    if (i === steps.length - 1) cur.text = value;
  }
}

/** Finds or creates the element at `path` (`fresh`: every step is created, for a new instance of a repeated group). */
export function ensure(node: XNode, path: string, refs: Refs, fresh = false): XNode {
  let cur = node;
  for (const step of parsePath(path))
    cur = (fresh ? undefined : cur.children.find((c) => matches(c, step, refs))) ?? create(cur, step, refs);
  return cur;
}

/** Writes a value at `path` (element text, or an attribute when the path ends in @name). */
export function writeValue(node: XNode, path: string, value: string, refs: Refs): XNode {
  const steps = parsePath(path);
  const last = steps[steps.length - 1];
  if (last?.attr) {
    const elementPath = path.slice(0, path.lastIndexOf("@")).replace(/\/$/, "");
    const el = elementPath ? ensure(node, elementPath, refs) : node;
    el.attrs[last.name] = value;
    return el;
  }
  const el = ensure(node, path, refs);
  el.text = value;
  return el;
}
