/**
 * Full XML Schema validation of CII invoices against the official UN/CEFACT CII D16B schema (rules/cii-d16b), run
 * by libxml2 compiled to WebAssembly (libxml2-wasm, MIT; the wasm is inside its JavaScript module, so nothing is
 * loaded from disk or the network). Element order, cardinalities, types and attributes are checked.
 *
 * One departure, on purpose: the D16B schema couples each code to the UN/CEFACT D16A code list of 2016, while
 * EN 16931 uses newer lists (e.g. charge reason `TAC`, UNTDID 7161 of 2020). The code lists of EN 16931 are its
 * BR-CL-* rules, which the Schematron checks with the current lists; an `[facet 'enumeration']` failure of the
 * coupled schema would reject valid EN 16931 invoices, so those are not reported.
 *
 * Not applied to the Factur-X / ZUGFeRD EXTENDED profile (BT-24 ending in `:extended`): Factur-X 1.07's EXTENDED
 * schema takes elements from CII D22B (ModelID, ModelName, InvoiceSpecifiedReferencedDocument) that D16B does not
 * know, so a valid EXTENDED invoice would fail it; the report lists the schema as not evaluated instead.
 *
 * UBL invoices get no XSD validation: the OASIS UBL 2.1 schemas are not in the repository (structure.ts checks
 * part of what they say).
 */
import {
  XmlBufferInputProvider,
  XmlDocument,
  XmlValidateError,
  XsdValidator,
  xmlRegisterInputProvider,
} from "libxml2-wasm";
import { CII_D16B_FILES, CII_D16B_ROOT } from "./rules/cii-d16b/files";
import type { EInvoiceFinding } from "./types";

/** Where the schema files appear to libxml2 (its input provider serves them from memory under this prefix). */
const BASE = "/docproc-cii-d16b/";
let validator: XsdValidator | undefined;

function ciiValidator(): XsdValidator {
  if (validator) return validator;
  const enc = new TextEncoder();
  const buffers = Object.fromEntries(Object.entries(CII_D16B_FILES).map(([p, text]) => [BASE + p, enc.encode(text)]));
  xmlRegisterInputProvider(new XmlBufferInputProvider(buffers));
  const schemaDoc = XmlDocument.fromBuffer(buffers[BASE + CII_D16B_ROOT]!, { url: BASE + CII_D16B_ROOT });
  try {
    validator = XsdValidator.fromDoc(schemaDoc);
  } finally {
    schemaDoc.dispose();
  }
  return validator;
}

const MAX_FINDINGS = 50;

/** Whether the D16B schema applies to a CII invoice claiming `customization` (BT-24); see the module comment. */
export function ciiSchemaApplies(customization: string | undefined): boolean {
  return !/:extended$/i.test(customization ?? "");
}

export const EXTENDED_NOT_CHECKED =
  "the document claims the Factur-X/ZUGFeRD EXTENDED profile, whose schema adds CII D22B elements unknown to the D16B schema: the XML Schema was not applied";

/**
 * The D16B schema's verdict on a CII document's text: one fatal `XSD-CII` finding per schema error (at most 50),
 * [] when the document is schema-valid. Throws only when the schema itself cannot be loaded (a build defect).
 */
export function ciiSchemaFindings(xml: string | Uint8Array): EInvoiceFinding[] {
  const v = ciiValidator();
  const bytes = typeof xml === "string" ? new TextEncoder().encode(xml) : xml;
  let doc: XmlDocument;
  try {
    doc = XmlDocument.fromBuffer(bytes);
  } catch (e) {
    // Already parsed by slimdom; libxml2 is stricter in a few corners (e.g. undeclared entities).
    return [finding("/", `The document could not be read by the schema validator: ${firstLine(e)}`)];
  }
  try {
    v.validate(doc);
    return [];
  } catch (e) {
    if (!(e instanceof XmlValidateError)) return [finding("/", `Schema validation failed: ${firstLine(e)}`)];
    return e.details
      .filter((d) => !d.message.includes("[facet 'enumeration']"))
      .slice(0, MAX_FINDINGS)
      .map((d) => finding(d.xpath ?? "/", `${d.message.trim()} (line ${d.line})`));
  } finally {
    doc.dispose();
  }
}

function finding(xpath: string, message: string): EInvoiceFinding {
  return { rule_id: "XSD-CII", severity: "fatal", xpath, message: `UN/CEFACT CII D16B schema: ${message}` };
}

const firstLine = (e: unknown) => (e instanceof Error ? e.message : String(e)).split("\n")[0]!.slice(0, 300);
