/**
 * E-invoice validation: an XML e-invoice (UBL 2.1 Invoice/CreditNote or UN/CEFACT CII D16B) checked against
 * structural checks (structure.ts), the EN 16931 business rules and, when the document claims it, the XRechnung
 * CIUS — all from the official Schematron files, run by engine.ts. Used by the pipeline (every e-invoice read),
 * `docproc validate`, and the exporters (every e-invoice written).
 *
 * Contract: never throws for bad input: malformed XML or an unknown root is a report with a fatal result.
 */
import { parseXmlDocument, serializeToWellFormedString, type Document } from "slimdom";
import { runSchema } from "./engine";
import { ruleSet, type RuleSetId } from "./rulesets";
import { structuralChecks } from "./structure";
import { pushAll } from "../../arrays";
import { peppolUnevaluated, XRECHNUNG_CLAIM } from "./peppol";
import { ciiSchemaApplies, ciiSchemaFindings, EXTENDED_NOT_CHECKED } from "./xsd";
import type { EInvoiceFinding, EInvoiceReport, DocumentSyntax, EInvoiceValidateOptions } from "./types";

export type { EInvoiceFinding, EInvoiceReport, DocumentSyntax, EInvoiceValidateOptions } from "./types";

const UBL_INV = "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2";
const UBL_CN = "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2";
const CII = "urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100";
const CBC = "urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2";
const RAM = "urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100";

export function syntaxOf(doc: Document): DocumentSyntax {
  const root = doc.documentElement;
  if (!root) return "unknown";
  if (root.namespaceURI === UBL_INV && root.localName === "Invoice") return "ubl-invoice";
  if (root.namespaceURI === UBL_CN && root.localName === "CreditNote") return "ubl-creditnote";
  if (root.namespaceURI === CII && root.localName === "CrossIndustryInvoice") return "cii";
  return "unknown";
}

/** BT-24, the specification identifier: which CIUS/extension the invoice claims. */
function customizationOf(doc: Document, syntax: DocumentSyntax): string | undefined {
  const root = doc.documentElement!;
  const child = (el: Element | undefined, ns: string, local: string) =>
    el?.children.find((c) => c.namespaceURI === ns && c.localName === local);
  const id =
    syntax === "cii"
      ? child(
          child(child(root, CII, "ExchangedDocumentContext"), RAM, "GuidelineSpecifiedDocumentContextParameter"),
          RAM,
          "ID",
        )
      : child(root, CBC, "CustomizationID");
  const text = id?.textContent?.trim();
  return text || undefined;
}

/**
 * Real invoices nest about 10 deep. A hostile file nested 100,000 deep would make every rule's traversal exhaust
 * the engine's stack (minutes of failing expressions), so such a file is refused before any rule runs.
 */
const MAX_DEPTH = 256;

function maxDepth(doc: Document): number {
  let max = 0;
  const stack: Array<[Element, number]> = doc.documentElement ? [[doc.documentElement, 1]] : [];
  while (stack.length) {
    const [el, d] = stack.pop()!;
    if (d > max) max = d;
    if (max > MAX_DEPTH) return max;
    for (const c of el.children) stack.push([c, d + 1]);
  }
  return max;
}
type Element = NonNullable<Document["documentElement"]>;

function parse(xml: string | Uint8Array): { doc: Document; text: string } | { error: string } {
  const text = (typeof xml === "string" ? xml : new TextDecoder().decode(xml)).replace(/^\uFEFF/, "");
  try {
    return { doc: parseXmlDocument(text), text };
  } catch (e) {
    return { error: (e instanceof Error ? e.message : String(e)).split("\n")[0]!.slice(0, 300) };
  }
}

/**
 * Validates an already parsed document (the unit-test harness builds documents itself); `text` is the document's
 * XML as read (the CII schema validator parses it again; serialised from `doc` when not given).
 */
export function validateParsedEInvoice(
  doc: Document,
  opts: EInvoiceValidateOptions = {},
  text?: string,
): EInvoiceReport {
  const syntax = syntaxOf(doc);
  const customization = syntax === "unknown" ? undefined : customizationOf(doc, syntax);
  if (syntax === "unknown") {
    const root = doc.documentElement;
    const name = root ? `{${root.namespaceURI ?? ""}}${root.localName}` : "(no root element)";
    return {
      syntax,
      ruleSets: [],
      valid: false,
      unevaluated: [],
      results: [
        {
          rule_id: "DOCPROC-SYNTAX",
          severity: "fatal",
          xpath: "/",
          message: `Not an EN 16931 syntax: the root element ${name} is neither a UBL 2.1 Invoice/CreditNote nor a UN/CEFACT CII D16B CrossIndustryInvoice.`,
        },
      ],
    };
  }
  const depth = maxDepth(doc);
  if (depth > MAX_DEPTH) {
    return {
      syntax,
      customization,
      ruleSets: [],
      valid: false,
      unevaluated: [],
      results: [
        {
          rule_id: "DOCPROC-UNCHECKED",
          severity: "fatal",
          xpath: "/",
          message: `The e-invoice was not validated: its elements are nested ${depth} deep (UBL and CII need about 10; more than ${MAX_DEPTH} is refused).`,
        },
      ],
    };
  }
  const ubl = syntax !== "cii";
  const sets: RuleSetId[] = [ubl ? "EN16931-UBL" : "EN16931-CII"];
  if (opts.cius !== "none" && customization && XRECHNUNG_CLAIM.test(customization))
    sets.push(ubl ? "XRechnung-UBL" : "XRechnung-CII");
  const results: EInvoiceFinding[] = structuralChecks(doc, syntax);
  // CII: the official D16B schema too (xsd.ts). UBL: only the partial checks above (no UBL 2.1 XSD vendored).
  const schema = !ubl && ciiSchemaApplies(customization);
  if (schema) pushAll(results, ciiSchemaFindings(text ?? serializeToWellFormedString(doc)));
  const unevaluated: EInvoiceReport["unevaluated"] = [];
  if (!ubl && !schema) unevaluated.push({ rule_id: "XSD-CII", reason: EXTENDED_NOT_CHECKED });
  for (const id of sets) {
    const run = runSchema(ruleSet(id), doc);
    pushAll(results, run.results);
    pushAll(unevaluated, run.unevaluated);
  }
  if (opts.cius !== "none") pushAll(unevaluated, peppolUnevaluated(customization));
  const ruleSets = ["XML-structure", ...(schema ? ["CII-D16B-XSD"] : []), ...sets];
  return { syntax, customization, ruleSets, results, unevaluated, valid: !results.some((r) => r.severity === "fatal") };
}

export async function validateEInvoice(
  xml: string | Uint8Array,
  opts: EInvoiceValidateOptions = {},
): Promise<EInvoiceReport> {
  const parsed = parse(xml);
  if ("error" in parsed) {
    return {
      syntax: "unknown",
      ruleSets: ["XML-structure"],
      valid: false,
      unevaluated: [],
      results: [
        {
          rule_id: "XML-WELLFORMED",
          severity: "fatal",
          xpath: "/",
          message: `The file is not well-formed XML: ${parsed.error}`,
        },
      ],
    };
  }
  try {
    return validateParsedEInvoice(parsed.doc, opts, parsed.text);
  } catch (e) {
    // Not a rule's failure (those are caught per rule): the document as a whole could not be checked, e.g. nested
    // too deep for the engine. Never a crash, never a pass.
    const reason = (e instanceof Error ? e.message : String(e)).split("\n")[0]!.slice(0, 300);
    return {
      syntax: syntaxOf(parsed.doc),
      ruleSets: [],
      valid: false,
      unevaluated: [],
      results: [
        {
          rule_id: "DOCPROC-UNCHECKED",
          severity: "fatal",
          xpath: "/",
          message: `The e-invoice could not be validated: ${reason}`,
        },
      ],
    };
  }
}
