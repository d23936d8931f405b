/**
 * CII invoices are validated against the official UN/CEFACT CII D16B XML Schema (libxml2 in WebAssembly): every
 * XRechnung CII instance is schema-valid (their code lists are newer than the schema's coupled D16A lists, which
 * are left to EN 16931's BR-CL rules), and element order, unknown elements, wrong types and missing mandatory
 * elements are fatal `XSD-CII` findings with the XPath of the offending element.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { validateEInvoice } from "../../../../src/core/einvoice/validate";
import { ciiSchemaFindings } from "../../../../src/core/einvoice/validate/xsd";
import { RULES_DIR } from "./cases";

const CII_DIR = path.join(RULES_DIR, "xrechnung/test/instances/cii");
const base = readFileSync(path.join(CII_DIR, "cii-br-de-1-test.xml"), "utf8");

describe("CII D16B XML Schema", () => {
  test("every XRechnung CII instance is schema-valid, including codes newer than the schema's D16A lists", () => {
    const files = readdirSync(CII_DIR).filter((f) => f.endsWith(".xml"));
    expect(files.length).toBeGreaterThan(100);
    const failing = files.filter((f) => ciiSchemaFindings(readFileSync(path.join(CII_DIR, f))).length > 0);
    expect(failing).toEqual([]);
    // The charge reason code TAC (UNTDID 7161 after 2016) is in this instance and is not a schema error.
    expect(readFileSync(path.join(CII_DIR, "cii-br-tmp-2-test.xml"), "utf8")).toContain(">TAC<");
  });

  test("order, unknown elements, wrong types and missing mandatory elements are fatal, with where", () => {
    const context = /<rsm:ExchangedDocumentContext>[\s\S]*?<\/rsm:ExchangedDocumentContext>/.exec(base)![0];
    const swapped = base.replace(context, "").replace("</rsm:ExchangedDocument>", `</rsm:ExchangedDocument>${context}`);
    const order = ciiSchemaFindings(swapped);
    expect(order.length).toBeGreaterThan(0);
    expect(order[0]).toMatchObject({
      rule_id: "XSD-CII",
      severity: "fatal",
      xpath: "/rsm:CrossIndustryInvoice/rsm:ExchangedDocument",
    });
    expect(order[0]!.message).toMatch(/ExchangedDocument.*Expected is.*ExchangedDocumentContext/);

    const unknown = ciiSchemaFindings(
      base.replace("<ram:TypeCode>380</ram:TypeCode>", "<ram:TypeCode>380</ram:TypeCode><ram:Colour>red</ram:Colour>"),
    );
    expect(unknown.map((f) => f.xpath)).toEqual(["/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:Colour"]);

    const typed = ciiSchemaFindings(base.replace(/<ram:TypeCode>380</, "<ram:TypeCode><ram:ID>380</ram:ID><"));
    expect(typed[0]!.xpath).toBe("/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:TypeCode");

    const missing = ciiSchemaFindings(base.replace(/<rsm:ExchangedDocument>[\s\S]*?<\/rsm:ExchangedDocument>/, ""));
    expect(missing[0]!.message).toMatch(/Expected is .*ExchangedDocument/);
  });

  test("the report names the schema among its rule sets; UBL has none (no UBL 2.1 XSD vendored)", async () => {
    const cii = await validateEInvoice(
      base.replace("<ram:TypeCode>380</ram:TypeCode>", "<ram:TypeCode>380</ram:TypeCode><ram:Colour>red</ram:Colour>"),
      { cius: "none" },
    );
    expect(cii.ruleSets).toEqual(["XML-structure", "CII-D16B-XSD", "EN16931-CII"]);
    expect(cii.valid).toBe(false);
    expect(cii.results.filter((r) => r.rule_id === "XSD-CII")).toHaveLength(1);
    const ubl = readFileSync(path.join(RULES_DIR, "xrechnung/test/instances/ubl-inv/ubl-inv-br-de-1-test.xml"));
    expect((await validateEInvoice(ubl, { cius: "none" })).ruleSets).toEqual(["XML-structure", "EN16931-UBL"]);
  }, 60_000);

  test("a Factur-X EXTENDED invoice (D22B elements) is not held to the D16B schema: listed as not evaluated", async () => {
    const extended = base
      .replace(
        "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0",
        "urn:cen.eu:en16931:2017#conformant#urn:factur-x.eu:1p0:extended",
      )
      .replace("<ram:TypeCode>380</ram:TypeCode>", "<ram:TypeCode>380</ram:TypeCode><ram:Colour>red</ram:Colour>");
    expect(ciiSchemaFindings(extended)).toHaveLength(1); // the schema would say so ...
    const report = await validateEInvoice(extended);
    expect(report.ruleSets).not.toContain("CII-D16B-XSD"); // ... but it is not applied, and the report says why
    expect(report.results.filter((r) => r.rule_id === "XSD-CII")).toEqual([]);
    expect(report.unevaluated.find((u) => u.rule_id === "XSD-CII")!.reason).toContain("EXTENDED");
  }, 60_000);
});
