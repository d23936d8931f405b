/**
 * Reads a UBL 2.1 (Invoice, CreditNote) or CII D16B invoice into the BT model through the mapping table.
 * Returns null for XML that is no such invoice; throws on XML that is not well-formed.
 */
import { INVOICE, type BgDef, type BtDef, type PickContext } from "./bt-map";
import { CREDIT_NOTE_NAMES, emptyNode, type BtNode, type EInvoiceModel, type Syntax } from "./model";
import { valueAtPath, selectAll, type Refs } from "./path";
import { parseXml, type XNode } from "./xml";

export const pathsOf = (p: string | string[] | undefined): string[] =>
  p === undefined ? [] : Array.isArray(p) ? p : [p];

/** ISO date from CII format 102 (YYYYMMDD) or an ISO date; anything else is kept as it is. */
function isoDate(text: string): string {
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(text.trim());
  return m ? `${m[1]}-${m[2]}-${m[3]}` : text;
}

function normalise(def: BtDef, syntax: Syntax, text: string): string {
  if (def.kind === "date") return isoDate(text);
  if (def.codes && syntax === "CII") return def.codes.find(([, cii]) => cii === text)?.[0] ?? text;
  return text;
}

function readBts(def: BgDef, el: XNode, syntax: Syntax, refs: Refs, values: Record<string, string>): void {
  for (const bt of def.bts) {
    for (const path of pathsOf(syntax === "UBL" ? bt.ubl : bt.cii)) {
      const v = valueAtPath(el, path, refs);
      if (v !== undefined && v !== "") {
        values[bt.id] = normalise(bt, syntax, v);
        break;
      }
    }
  }
  // The EN 16931 UBL binding writes a note's subject code as "#CODE#text".
  if (syntax === "UBL" && def.id === "BG-1" && values["BT-22"]) {
    const m = /^#([A-Za-z0-9]{1,5})#([\s\S]*)$/.exec(values["BT-22"]);
    if (m) {
      values["BT-21"] = m[1]!;
      values["BT-22"] = m[2]!;
      if (!values["BT-22"]) delete values["BT-22"];
    }
  }
}

export function groupElements(g: BgDef, parent: XNode, syntax: Syntax, refs: Refs): XNode[] {
  const where = syntax === "UBL" ? g.ubl : g.cii;
  const bases = where.base ? selectAll(parent, where.base, refs) : [parent];
  const found = bases.flatMap((b) => pathsOf(where.el).flatMap((p) => selectAll(b, p, refs)));
  return g.repeat ? found : found.slice(0, 1);
}

function readGroup(def: BgDef, el: XNode, syntax: Syntax, refs: Refs, values: Record<string, string> = {}): BtNode {
  const node: BtNode = { values, groups: {} };
  readBts(def, el, syntax, refs, values);
  for (const g of def.groups) {
    const found = groupElements(g, el, syntax, refs)
      .map((child) => readGroup(g, child, syntax, refs))
      .filter(hasContent);
    if (found.length) node.groups[g.id] = found;
  }
  return node;
}

export const hasContent = (n: BtNode): boolean =>
  Object.keys(n.values).length > 0 || Object.values(n.groups).some((l) => l.some(hasContent));

function renamed(node: XNode): XNode {
  return { ...node, name: CREDIT_NOTE_NAMES[node.name] ?? node.name, children: node.children.map(renamed) };
}

/** The BT model of an XML invoice, or null when the XML is no UBL/CII invoice. */
export function readEInvoiceModel(xml: string | Uint8Array): EInvoiceModel | null {
  const root = parseXml(xml);
  if (root.name === "CrossIndustryInvoice") return { syntax: "CII", credit: false, data: readRoot(root, "CII") };
  if (root.name === "Invoice") return { syntax: "UBL", credit: false, data: readRoot(root, "UBL") };
  if (root.name === "CreditNote") return { syntax: "UBL", credit: true, data: readRoot(renamed(root), "UBL") };
  return null;
}

function readRoot(root: XNode, syntax: Syntax): BtNode {
  // Document-level values double as the $BT-n references of predicates (the currency is read first).
  const values: Record<string, string> = {};
  return readGroup(INVOICE, root, syntax, values, values);
}

/** The alternative path a writer uses for `def` in `ctx`. */
export function chosenPath(
  p: string | string[] | undefined,
  pick: ((c: PickContext) => number) | undefined,
  ctx: PickContext,
): string | undefined {
  const paths = pathsOf(p);
  if (paths.length <= 1) return paths[0];
  return paths[Math.min(pick ? pick(ctx) : 0, paths.length - 1)];
}

export { emptyNode };
