/**
 * ISO Schematron (queryBinding xslt2) read into a plain model that the XPath 3.1 engine (engine.ts) runs. The
 * official rule files stay the source of truth: nothing here knows a rule; it only reads what the .sch says.
 *
 * Supported: ns, include (resolved through the caller's file map), let (schema, pattern and rule level), pattern,
 * rule (context, first matching rule of a pattern wins), assert/report (id, flag, test, message with <name/> and
 * <value-of/>), and xsl:function whose body is one xsl:sequence (turned into an XQuery library module).
 * Anything else in the schema (phases, titles, diagnostics) is not needed to decide a rule and is ignored.
 */
import { parseXmlDocument, type Element } from "slimdom";
import { pushAll } from "../../arrays";

const SCH = "http://purl.oclc.org/dsdl/schematron";
const XSL = "http://www.w3.org/1999/XSL/Transform";

export interface Let {
  name: string;
  value: string;
}
export type MessagePart = { text: string } | { name: true } | { select: string };
export interface Check {
  kind: "assert" | "report";
  id: string;
  flag: "fatal" | "warning" | "information";
  test: string;
  message: MessagePart[];
}
export interface Rule {
  context: string;
  lets: Let[];
  checks: Check[];
}
export interface Pattern {
  id: string;
  rules: Rule[];
}
export interface XslFunction {
  prefix: string;
  uri: string;
  local: string;
  params: string[];
  as: string | null;
  body: string;
}
export interface Schema {
  name: string;
  namespaces: Record<string, string>;
  /** Schema- and pattern-level lets: global variables, in document order (later ones may use earlier ones). */
  globals: Let[];
  patterns: Pattern[];
  functions: XslFunction[];
}

const children = (el: Element, ns: string, local?: string) =>
  el.children.filter((c) => c.namespaceURI === ns && (!local || c.localName === local));

function flagOf(raw: string | null): Check["flag"] {
  const f = (raw ?? "fatal").toLowerCase();
  return f === "warning" ? "warning" : f === "information" || f === "info" ? "information" : "fatal";
}

function message(el: Element): MessagePart[] {
  const parts: MessagePart[] = [];
  for (const n of el.childNodes) {
    if (n.nodeType === 3 || n.nodeType === 4) parts.push({ text: n.nodeValue ?? "" });
    else if (n.nodeType === 1) {
      const c = n as Element;
      if (c.localName === "name") parts.push({ name: true });
      else if (c.localName === "value-of") parts.push({ select: c.getAttribute("select") ?? "." });
      else parts.push({ text: c.textContent ?? "" });
    }
  }
  return parts;
}

function lets(el: Element): Let[] {
  return children(el, SCH, "let").map((l) => ({
    name: l.getAttribute("name")!,
    value: l.getAttribute("value") ?? "()",
  }));
}

function rule(el: Element): Rule {
  const checks: Check[] = [];
  for (const c of children(el, SCH)) {
    if (c.localName !== "assert" && c.localName !== "report") continue;
    checks.push({
      kind: c.localName,
      id: c.getAttribute("id") ?? "",
      flag: flagOf(c.getAttribute("flag")),
      test: c.getAttribute("test") ?? "true()",
      message: message(c),
    });
  }
  return { context: el.getAttribute("context") ?? "/", lets: lets(el), checks };
}

function xslFunction(el: Element, namespaces: Record<string, string>): XslFunction {
  const [prefix, local] = (el.getAttribute("name") ?? "").split(":") as [string, string];
  const uri = el.lookupNamespaceURI(prefix) ?? namespaces[prefix] ?? "";
  const params = children(el, XSL, "param").map((p) => p.getAttribute("name")!);
  const seq = children(el, XSL, "sequence");
  if (seq.length !== 1 || el.children.length !== params.length + 1) {
    throw new Error(`xsl:function ${prefix}:${local}: only a body of one xsl:sequence is supported`);
  }
  return { prefix, uri, local, params, as: el.getAttribute("as"), body: seq[0]!.getAttribute("select")! };
}

/**
 * Reads a schema. `files` maps paths (as written in include/@href, relative to the including file) to their text;
 * `path` is the key of the main file.
 */
export function readSchema(name: string, path: string, files: Record<string, string>): Schema {
  const schema: Schema = {
    name,
    namespaces: { xs: "http://www.w3.org/2001/XMLSchema" },
    globals: [],
    patterns: [],
    functions: [],
  };
  const visit = (el: Element, at: string) => {
    for (const c of el.children) {
      if (c.namespaceURI === XSL && c.localName === "function") {
        schema.functions.push(xslFunction(c, schema.namespaces));
        continue;
      }
      if (c.namespaceURI !== SCH) continue;
      if (c.localName === "ns") schema.namespaces[c.getAttribute("prefix")!] = c.getAttribute("uri")!;
      else if (c.localName === "let")
        schema.globals.push({ name: c.getAttribute("name")!, value: c.getAttribute("value") ?? "()" });
      else if (c.localName === "include") visitFile(resolve(at, c.getAttribute("href")!));
      else if (c.localName === "pattern") {
        if (c.getAttribute("abstract") === "true" || c.hasAttribute("is-a"))
          throw new Error(`${name}: abstract patterns must be preprocessed first`);
        pushAll(schema.globals, lets(c));
        schema.patterns.push({
          id: c.getAttribute("id") ?? `pattern-${schema.patterns.length + 1}`,
          rules: children(c, SCH, "rule").map(rule),
        });
      }
    }
  };
  const visitFile = (at: string) => {
    const text = files[at];
    if (text === undefined) throw new Error(`${name}: ${at} is not among the rule files`);
    const root = parseXmlDocument(text).documentElement!;
    // An included file may be a whole <schema> or a single top-level element (a <pattern>).
    if (root.localName === "schema") visit(root, at);
    else visit({ children: [root] } as unknown as Element, at);
  };
  visitFile(path);
  return schema;
}

function resolve(from: string, href: string): string {
  const parts = from.split("/").slice(0, -1);
  for (const p of href.split("/")) {
    if (p === "..") parts.pop();
    else if (p !== ".") parts.push(p);
  }
  return parts.join("/");
}
