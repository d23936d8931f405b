/**
 * Structural checks from the XML Schemas (UBL 2.1, UN/CEFACT CII D16B) that the Schematron rules take for granted.
 * The XSDs are not in the repository and there is no complete XSD validator in JavaScript, so this is PARTIAL
 * schema validation, and says so (docs/einvoices.md): it checks element namespaces, simple-content elements
 * (no child elements, dates, decimals, the required currencyID of UBL amounts, CII date format 102 and indicators)
 * and that aggregates carry no text. It does not check element order, cardinalities or which children an
 * aggregate may hold.
 */
import type { Document, Element } from "slimdom";
import { locate } from "./engine";
import type { EInvoiceFinding, DocumentSyntax } from "./types";

const UBL = {
  cac: "urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2",
  cbc: "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2",
  ext: "urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2",
};
const CII = {
  rsm: "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100",
  ram: "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100",
  udt: "urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100",
  qdt: "urn:un:unece:uncefact:data:standard:QualifiedDataType:100",
};

const DATE = /^-?\d{4,}-\d{2}-\d{2}(Z|[+-]\d{2}:\d{2})?$/;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
const ownText = (el: Element) =>
  el.childNodes
    .filter((n) => n.nodeType === 3 || n.nodeType === 4)
    .map((n) => n.nodeValue ?? "")
    .join("");

export function structuralChecks(doc: Document, syntax: DocumentSyntax): EInvoiceFinding[] {
  const root = doc.documentElement;
  if (!root || syntax === "unknown") return [];
  const ubl = syntax !== "cii";
  const prefixes = new Map<string, string>(
    Object.entries(ubl ? { ...UBL, root: root.namespaceURI! } : CII).map(([p, u]) => [
      u,
      p === "root" ? (syntax === "ubl-invoice" ? "ubl" : "cn") : p,
    ]),
  );
  const out: EInvoiceFinding[] = [];
  const fail = (rule_id: string, el: Element, message: string) =>
    out.push({ rule_id, severity: "fatal", xpath: locate(el, prefixes), message });
  // Iterative (a stack, not recursion): a hostile file nested 100,000 deep must not exhaust the call stack.
  const stack: Element[] = [root];
  while (stack.length) {
    const el = stack.pop()!;
    const ns = el.namespaceURI ?? "";
    if (!prefixes.has(ns)) {
      fail(
        "XSD-NAMESPACE",
        el,
        `Element ${el.nodeName} (namespace ${ns || "none"}) is not part of the ${ubl ? "UBL 2.1" : "CII D16B"} schema.`,
      );
      continue;
    }
    const text = ownText(el).trim();
    // UBL extension content may hold anything.
    if (ubl && ns === UBL.ext && el.localName === "ExtensionContent") continue;
    if (ubl ? ns === UBL.cbc : ns === CII.udt || ns === CII.qdt) {
      if (el.children.length)
        fail(
          "XSD-SIMPLE",
          el,
          `${el.nodeName} has simple content but contains the element ${el.children[0]!.nodeName}.`,
        );
      checkValue(el, text, ubl, fail);
      continue;
    }
    if (text && (ubl ? ns === UBL.cac : el.children.length > 0))
      fail("XSD-TEXT", el, `${el.nodeName} holds elements and must not contain text ("${text.slice(0, 40)}").`);
    if (!ubl && ns === CII.ram && /Amount$/.test(el.localName) && !el.children.length && !DECIMAL.test(text)) {
      fail("XSD-DECIMAL", el, `${el.nodeName} "${text.slice(0, 40)}" is not a decimal number.`);
    }
    for (let i = el.children.length - 1; i >= 0; i--) stack.push(el.children[i]!);
  }
  return out;
}

function checkValue(el: Element, text: string, ubl: boolean, fail: (id: string, el: Element, m: string) => void): void {
  const name = el.localName;
  if (ubl) {
    if (/Date$/.test(name) && !DATE.test(text))
      fail("XSD-DATE", el, `${el.nodeName} "${text.slice(0, 40)}" is not a date (YYYY-MM-DD).`);
    if (/(Amount|Quantity)$/.test(name) && !DECIMAL.test(text))
      fail("XSD-DECIMAL", el, `${el.nodeName} "${text.slice(0, 40)}" is not a decimal number.`);
    if (/Amount$/.test(name) && !el.hasAttribute("currencyID"))
      fail("XSD-CURRENCY", el, `${el.nodeName} must have a currencyID attribute.`);
    return;
  }
  if (name === "DateTimeString" && el.getAttribute("format") === "102" && !/^\d{8}$/.test(text))
    fail("XSD-DATE", el, `${el.nodeName} "${text.slice(0, 40)}" is not a date in format 102 (YYYYMMDD).`);
  if (name === "Indicator" && !/^(true|false|1|0)$/.test(text))
    fail("XSD-BOOLEAN", el, `${el.nodeName} "${text.slice(0, 40)}" is not true or false.`);
}
