/**
 * Writes the BT model as UBL 2.1 (Invoice or CreditNote) or CII D16B through the mapping table, children in schema
 * order (order.ts). Writes what the model holds and nothing else: mandatory data is checked before (mandatory.ts).
 */
import { INVOICE, type BgDef, type PickContext } from "./bt-map";
import { CREDIT_NOTE_CODES, CREDIT_NOTE_NAMES, type BtNode, type Syntax } from "./model";
import { rankOf } from "./order";
import { ensure, writeValue, type Refs } from "./path";
import { chosenPath, hasContent } from "./read";
import { element, localName, serializeXml, type XNode } from "./xml";

const UBL_NS = {
  cac: "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
  cbc: "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
};
const CII_NS = {
  rsm: "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
  ram: "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
  qdt: "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
  udt: "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
};

interface WriteContext {
  syntax: Syntax;
  credit: boolean;
  refs: Refs;
}

const cii102 = (iso: string): string => (/^\d{4}-\d{2}-\d{2}$/.test(iso) ? iso.replace(/-/g, "") : iso);

function writeBts(def: BgDef, el: XNode, node: BtNode, ctx: WriteContext): void {
  const pick: PickContext = { syntax: ctx.syntax, credit: ctx.credit, values: node.values };
  for (const bt of def.bts) {
    let value = node.values[bt.id];
    if (value === undefined) continue;
    if (ctx.syntax === "UBL" && def.id === "BG-1") {
      if (bt.id === "BT-21") continue;
      if (node.values["BT-21"]) value = `#${node.values["BT-21"]}#${value}`;
    }
    const path = chosenPath(ctx.syntax === "UBL" ? bt.ubl : bt.cii, bt.pick, pick);
    if (!path) continue;
    if (bt.codes && ctx.syntax === "CII") value = bt.codes.find(([ubl]) => ubl === value)?.[1] ?? value;
    if (bt.kind === "date" && ctx.syntax === "CII") value = cii102(value);
    const target = writeValue(el, path, value, ctx.refs);
    if (bt.kind === "date" && ctx.syntax === "CII" && /DateTimeString|DateString/.test(target.name))
      target.attrs.format = "102";
    if (bt.kind === "amount" && ctx.syntax === "UBL") {
      const currency = ctx.refs[bt.currency ?? "BT-5"];
      if (currency && target.attrs.currencyID === undefined) target.attrs.currencyID = currency;
    }
  }
  // A UBL note with only a subject code still needs its text element.
  if (ctx.syntax === "UBL" && def.id === "BG-1" && node.values["BT-22"] === undefined && node.values["BT-21"])
    el.text = `#${node.values["BT-21"]}#`;
}

function writeGroup(def: BgDef, el: XNode, node: BtNode, ctx: WriteContext): void {
  // Groups first: a document-level BT may live inside a group's element (CII BT-7 in the first ApplicableTradeTax).
  for (const g of def.groups) {
    const where = ctx.syntax === "UBL" ? g.ubl : g.cii;
    for (const inst of (node.groups[g.id] ?? []).filter(hasContent)) {
      const base = where.base ? ensure(el, where.base, ctx.refs) : el;
      const path = chosenPath(where.el, g.pick, { syntax: ctx.syntax, credit: ctx.credit, values: inst.values });
      const child = !path || path === "." ? base : ensure(base, path, ctx.refs, g.repeat);
      writeGroup(g, child, inst, ctx);
    }
  }
  writeBts(def, el, node, ctx);
}

/** Children in schema order (stable: repeated elements keep their order). */
function sortTree(node: XNode, syntax: Syntax): void {
  const parent = localName(node.name);
  const rank = (c: XNode) => rankOf(syntax, parent, localName(c.name)) ?? Number.MAX_SAFE_INTEGER;
  node.children = node.children
    .map((c, i) => ({ c, i }))
    .sort((a, b) => rank(a.c) - rank(b.c) || a.i - b.i)
    .map(({ c }) => c);
  for (const c of node.children) sortTree(c, syntax);
}

/** Elements whose parent's order list lacks them (tests assert there are none). */
export function unorderedElements(node: XNode, syntax: Syntax, out: string[] = []): string[] {
  for (const c of node.children) {
    if (rankOf(syntax, localName(node.name), localName(c.name)) === undefined)
      out.push(`${localName(node.name)}/${localName(c.name)}`);
    unorderedElements(c, syntax, out);
  }
  return out;
}

function renameCredit(node: XNode): void {
  const local = localName(node.name);
  const to = Object.entries(CREDIT_NOTE_NAMES).find(([, inv]) => inv === local)?.[0];
  if (to) node.name = node.name.replace(local, to);
  node.children.forEach(renameCredit);
}

export const isCreditNote = (data: BtNode): boolean => CREDIT_NOTE_CODES.has(data.values["BT-3"] ?? "");

/** The element tree of `data` in `syntax`, sorted (exported for the tests). */
export function buildTree(data: BtNode, syntax: Syntax): XNode {
  const credit = syntax === "UBL" && isCreditNote(data);
  const root = element(syntax === "UBL" ? "Invoice" : "rsm:CrossIndustryInvoice");
  const ctx: WriteContext = { syntax, credit, refs: data.values };
  writeGroup(INVOICE, root, data, ctx);
  if (syntax === "CII") {
    // Required by the CII schema even when empty.
    for (const part of [
      "ApplicableHeaderTradeAgreement",
      "ApplicableHeaderTradeDelivery",
      "ApplicableHeaderTradeSettlement",
    ])
      ensure(root, `rsm:SupplyChainTradeTransaction/ram:${part}`, ctx.refs);
    ensure(root, "rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter", ctx.refs);
  }
  if (credit) renameCredit(root);
  sortTree(root, syntax);
  return root;
}

export function writeUbl(data: BtNode): string {
  const root = buildTree(data, "UBL");
  const main =
    root.name === "CreditNote"
      ? "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2"
      : "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
  return serializeXml(root, { "": main, ...UBL_NS });
}

export function writeCii(data: BtNode): string {
  return serializeXml(buildTree(data, "CII"), CII_NS);
}

export const writeEInvoice = (data: BtNode, syntax: Syntax): string =>
  syntax === "UBL" ? writeUbl(data) : writeCii(data);
