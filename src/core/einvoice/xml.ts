/**
 * A minimal element tree for e-invoice XML: what the BT mapping reads (local names, namespaces dropped) and what the
 * writers build (prefixed names) before serialising it in schema order.
 */
import type { XMLParser } from "fast-xml-parser";

export interface XNode {
  /** Local name when parsed; `prefix:local` when built by a writer. */
  name: string;
  attrs: Record<string, string>;
  children: XNode[];
  text?: string;
}

export const localName = (name: string): string => name.slice(name.indexOf(":") + 1);

export function element(name: string, text?: string): XNode {
  return { name, attrs: {}, children: [], ...(text === undefined ? {} : { text }) };
}

let parser: XMLParser | null = null;
function xmlParser(): XMLParser {
  if (!parser) {
    const { XMLParser: Parser } = require("fast-xml-parser") as typeof import("fast-xml-parser");
    // Entities are decoded by hand below: the parser's own handling leaves numeric references alone.
    parser = new Parser({
      preserveOrder: true,
      removeNSPrefix: true,
      ignoreAttributes: false,
      attributeNamePrefix: "",
      parseTagValue: false,
      parseAttributeValue: false,
      trimValues: false,
      processEntities: false,
      ignoreDeclaration: true,
      ignorePiTags: true,
    });
  }
  return parser;
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
function decode(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (m, e: string) => {
    if (e[0] !== "#") return NAMED[e] ?? m;
    const code = e[1] === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : m;
  });
}

type Raw = Record<string, unknown>;
function toNode(raw: Raw): XNode | null {
  const name = Object.keys(raw).find((k) => k !== ":@");
  if (!name || name.startsWith("?") || name === "#text") return null;
  const attrs: Record<string, string> = {};
  for (const [k, v] of Object.entries((raw[":@"] as Raw | undefined) ?? {})) {
    if (k === "xmlns" || k.startsWith("xmlns:")) continue;
    attrs[localName(k)] = decode(String(v));
  }
  const node: XNode = { name, attrs, children: [] };
  const texts: string[] = [];
  for (const child of (raw[name] as Raw[] | undefined) ?? []) {
    if ("#text" in child) texts.push(String(child["#text"]));
    else {
      const c = toNode(child);
      if (c) node.children.push(c);
    }
  }
  // A leaf keeps its text as written: XRechnung's payment terms (BR-DE-18) give line breaks a meaning. Between child
  // elements text is indentation.
  const text = decode(texts.join(""));
  if (node.children.length === 0 && text.trim()) node.text = text;
  return node;
}

/** The root element of an XML document; throws on XML that is not well-formed. */
export function parseXml(xml: string | Uint8Array): XNode {
  const source = typeof xml === "string" ? xml : new TextDecoder().decode(xml);
  const { XMLValidator } = require("fast-xml-parser") as typeof import("fast-xml-parser");
  const valid = XMLValidator.validate(source);
  if (valid !== true) throw new Error(`not well-formed XML: ${valid.err.msg} (line ${valid.err.line})`);
  const raws = xmlParser().parse(source) as Raw[];
  for (const raw of raws) {
    const node = toNode(raw);
    if (node) return node;
  }
  throw new Error("no root element");
}

/** Characters XML 1.0 cannot carry are dropped; the five specials are escaped. */
const INVALID_XML = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
function escape(s: string, attr: boolean): string {
  const t = s.replace(INVALID_XML, "").replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return attr
    ? t.replace(/"/g, "&quot;").replace(/\n/g, "&#10;").replace(/\r/g, "&#13;").replace(/\t/g, "&#9;")
    : t.replace(/\r/g, "&#13;");
}

function write(node: XNode, indent: string, out: string[]): void {
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => ` ${k}="${escape(v, true)}"`)
    .join("");
  if (node.children.length === 0) {
    out.push(
      node.text === undefined
        ? `${indent}<${node.name}${attrs}/>`
        : `${indent}<${node.name}${attrs}>${escape(node.text, false)}</${node.name}>`,
    );
    return;
  }
  out.push(`${indent}<${node.name}${attrs}>`);
  for (const c of node.children) write(c, `${indent}  `, out);
  out.push(`${indent}</${node.name}>`);
}

/** Serialises with a declaration, two-space indentation and `namespaces` declared on the root. */
export function serializeXml(root: XNode, namespaces: Record<string, string>): string {
  const ns = Object.fromEntries(Object.entries(namespaces).map(([p, uri]) => [p ? `xmlns:${p}` : "xmlns", uri]));
  const out: string[] = [];
  write({ ...root, attrs: { ...ns, ...root.attrs } }, "", out);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${out.join("\n")}\n`;
}
