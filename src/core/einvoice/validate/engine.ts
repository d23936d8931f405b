/**
 * Runs a Schematron schema (schematron.ts) over a DOM with fontoxpath, an XPath 3.1 engine in JavaScript.
 *
 * Semantics follow the ISO Schematron skeleton the official XSLT was compiled with: each pattern visits every node;
 * a node is handled by the FIRST rule of the pattern whose context matches it; every assert whose test is false
 * (every report whose test is true) on that node is a result. Variables: the schema's and patterns' lets are
 * globals, a rule's lets are evaluated on its context node; both are passed to an expression as an XPath 3.1
 * `let ... return` prefix holding only the variables it uses (so the official expressions run as written).
 * An expression that fails (unsupported construct, dynamic error such as a cast of a non-number) does not decide
 * anything: its rule is listed as unevaluated with the engine's message.
 */
import {
  evaluateXPathToBoolean,
  evaluateXPathToNodes,
  evaluateXPathToString,
  registerXQueryModule,
  type Options,
} from "fontoxpath";
import type { Node } from "slimdom";
import { exactRewrite, registerExactFunctions } from "./exact";
import type { Check, Let, Schema } from "./schematron";

export interface CheckFinding {
  rule_id: string;
  severity: Check["flag"];
  message: string;
  xpath: string;
}
export interface Unevaluated {
  rule_id: string;
  reason: string;
}
export interface SchemaRun {
  results: CheckFinding[];
  unevaluated: Unevaluated[] /** ids of every check the schema holds */;
  checked: string[];
}

interface Compiled {
  options: Options;
  /** Per rule: its context expression with the lets it needs. */
  patterns: Array<Array<{ context: string; checks: Array<Check & { expr: string; parts: Part[] }> }>>;
  prefixes: Map<string, string>;
}

type Part = { text: string } | { name: true } | { expr: string };
const VAR = /\$([A-Za-z_][\w.\-]*)/g;
const registered = new Set<string>();
const compiledCache = new WeakMap<Schema, Compiled>();

/** `let $a := (..), $b := (..) return (expr)` with the lets expr needs, directly or through other lets. */
function withLets(expr: string, globals: Let[], locals: Let[]): string {
  const byName = new Map<string, { l: Let; order: number }>();
  [...globals, ...locals].forEach((l, order) => byName.set(l.name, { l, order }));
  const needed = new Set<string>();
  const walk = (e: string) => {
    for (const m of e.matchAll(VAR)) {
      const name = m[1]!;
      if (needed.has(name) || !byName.has(name)) continue;
      needed.add(name);
      walk(byName.get(name)!.l.value);
    }
  };
  walk(expr);
  if (!needed.size) return expr;
  const order = [...needed].map((n) => byName.get(n)!).sort((a, b) => a.order - b.order);
  return `let ${order.map(({ l }) => `$${l.name} := (${l.value})`).join(", ")} return (${expr})`;
}

/** A rule context is an XSLT match pattern; the nodes it matches are those the pattern selects from the root. */
function matchExpr(pattern: string): string {
  const branches: string[] = [];
  let depth = 0,
    quote = "",
    start = 0;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (quote) {
      if (c === quote) quote = "";
      continue;
    }
    if (c === "'" || c === '"') quote = c;
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === "|" && depth === 0) {
      branches.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  branches.push(pattern.slice(start));
  return branches
    .map((b) => b.trim())
    .map((b) => (b.startsWith("/") || b.startsWith("(/") ? b : `//${b}`))
    .join(" | ");
}

function compile(schema: Schema): Compiled {
  const cached = compiledCache.get(schema);
  if (cached) return cached;
  registerExactFunctions();
  const exact = (ls: Let[]) => ls.map((l) => ({ ...l, value: exactRewrite(l.value) }));
  const globals = exact(schema.globals);
  const moduleImports: Record<string, string> = {};
  for (const f of schema.functions) {
    moduleImports[f.prefix] = f.uri;
    const key = `${f.uri} ${f.local}`;
    if (registered.has(key)) continue;
    registered.add(key);
    const decls = Object.entries(schema.namespaces)
      .filter(([p]) => p !== f.prefix && p !== "xs")
      .map(([p, u]) => `declare namespace ${p} = "${u}";`)
      .join("\n");
    registerXQueryModule(
      `module namespace ${f.prefix} = "${f.uri}";\n${decls}\ndeclare function ${f.prefix}:${f.local}(${f.params.map((p) => `$${p}`).join(", ")})${f.as ? ` as ${f.as}` : ""} { ${f.body} };`,
    );
  }
  const namespaces = schema.namespaces;
  const options: Options = { namespaceResolver: (p: string) => (p ? (namespaces[p] ?? null) : null), moduleImports };
  const prefixes = new Map<string, string>();
  for (const [p, u] of Object.entries(namespaces)) if (!prefixes.has(u)) prefixes.set(u, p);
  const patterns = schema.patterns.map((p) =>
    p.rules.map((r) => {
      const lets = exact(r.lets);
      return {
        context: withLets(matchExpr(r.context), globals, []),
        checks: r.checks.map((c) => ({
          ...c,
          expr: withLets(exactRewrite(c.test), globals, lets),
          parts: c.message.map(
            (m): Part =>
              "select" in m ? { expr: withLets(`string-join((${m.select}) ! string(.), ' ')`, globals, lets) } : m,
          ),
        })),
      };
    }),
  );
  const out = { options, patterns, prefixes };
  compiledCache.set(schema, out);
  return out;
}

/** Where a node is, as an XPath with the schema's prefixes: /ubl:Invoice[1]/cac:TaxTotal[2]/cbc:TaxAmount[1]. */
export function locate(node: Node, prefixes: Map<string, string>): string {
  const steps: string[] = [];
  let cur: any = node;
  while (cur && cur.nodeType !== 9) {
    if (cur.nodeType === 2) {
      steps.unshift(`@${cur.name}`);
      cur = cur.ownerElement;
      continue;
    }
    if (cur.nodeType !== 1) {
      cur = cur.parentNode;
      continue;
    }
    const ns = cur.namespaceURI as string | null;
    const name = ns ? `${prefixes.get(ns) ?? "*"}:${cur.localName}` : cur.localName;
    let index = 1;
    for (let s = cur.previousElementSibling; s; s = s.previousElementSibling)
      if (s.localName === cur.localName && s.namespaceURI === ns) index++;
    steps.unshift(`${name}[${index}]`);
    cur = cur.parentNode;
  }
  return `/${steps.join("/")}`;
}

const reason = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0]!.slice(0, 300);

/**
 * Runs every pattern of the schema on the document. Never throws for a rule: failing rules are listed unevaluated.
 * `only` limits the checks evaluated to those ids (the unit tests assert one rule a test); contexts of the rules
 * before them in their pattern are still matched, since those claim nodes first.
 */
export function runSchema(schema: Schema, doc: Node, only?: Set<string>): SchemaRun {
  const { options, patterns, prefixes } = compile(schema);
  const results: CheckFinding[] = [];
  const unevaluated = new Map<string, string>();
  const checked: string[] = [];
  for (const all of patterns) {
    const claimed = new Set<Node>();
    const last = only ? all.findLastIndex((r) => r.checks.some((c) => only.has(c.id))) : all.length - 1;
    for (const rule of all.slice(0, last + 1)) {
      const checks = only ? rule.checks.filter((c) => only.has(c.id)) : rule.checks;
      for (const c of checks) checked.push(c.id);
      let nodes: Node[];
      try {
        nodes = evaluateXPathToNodes(rule.context, doc, null, null, options) as Node[];
      } catch (e) {
        for (const c of checks)
          unevaluated.set(c.id, `context ${JSON.stringify(rule.context.slice(0, 120))}: ${reason(e)}`);
        continue;
      }
      for (const node of nodes) {
        if (claimed.has(node)) continue;
        claimed.add(node);
        for (const c of checks) {
          let value: boolean;
          try {
            value = evaluateXPathToBoolean(c.expr, node, null, null, options);
          } catch (e) {
            unevaluated.set(c.id, reason(e));
            continue;
          }
          if (value === (c.kind === "report"))
            results.push({
              rule_id: c.id,
              severity: c.flag,
              message: text(c.parts, node, options),
              xpath: locate(node, prefixes),
            });
        }
      }
    }
  }
  return { results, unevaluated: [...unevaluated].map(([rule_id, r]) => ({ rule_id, reason: r })), checked };
}

function text(parts: Part[], node: Node, options: Options): string {
  const out = parts.map((p) => {
    if ("text" in p) return p.text;
    if ("name" in p) return (node as any).nodeName ?? "";
    try {
      return evaluateXPathToString(p.expr, node, null, null, options);
    } catch {
      return "";
    }
  });
  return out.join("").replace(/\s+/g, " ").trim();
}
