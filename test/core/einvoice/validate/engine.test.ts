/**
 * The Schematron engine's own mechanisms, on small schemas written here (the official rules are tested in
 * validate-unit.test.ts): first matching rule wins, lets, reports, messages, unevaluated rules, exact decimals;
 * and the report around it (syntax, CIUS choice, structure checks, broken input).
 */
import { describe, expect, test } from "bun:test";
import { parseXmlDocument } from "slimdom";
import { runSchema } from "../../../../src/core/einvoice/validate/engine";
import { exactRewrite } from "../../../../src/core/einvoice/validate/exact";
import { readSchema } from "../../../../src/core/einvoice/validate/schematron";
import { validateEInvoice } from "../../../../src/core/einvoice/validate";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { RULES_DIR } from "./cases";

const sch = (body: string) =>
  readSchema("t", "t.sch", {
    "t.sch": `<schema xmlns="http://purl.oclc.org/dsdl/schematron" xmlns:xsl="http://www.w3.org/1999/XSL/Transform" xmlns:u="urn:u" queryBinding="xslt2"><ns prefix="a" uri="urn:a"/>${body}</schema>`,
  });
const doc = (xml: string) => parseXmlDocument(xml);

describe("engine", () => {
  test("a node is handled by the first rule of a pattern that matches it; another pattern sees it again", () => {
    const s =
      sch(`<pattern><rule context="a:x[@k]"><assert id="R1" test="false()">first</assert></rule><rule context="a:x"><assert id="R2" test="false()">second</assert></rule></pattern>
      <pattern><rule context="a:x"><report id="R3" test="@k = 'v'">k is <value-of select="@k"/> on <name/></report></rule></pattern>`);
    const r = runSchema(s, doc(`<a:r xmlns:a="urn:a"><a:x k="v"/><a:x/></a:r>`));
    expect(r.results.map((x) => `${x.rule_id} ${x.xpath}`)).toEqual([
      "R1 /a:r[1]/a:x[1]",
      "R2 /a:r[1]/a:x[2]",
      "R3 /a:r[1]/a:x[1]",
    ]);
    expect(r.results[2]!.message).toBe("k is v on a:x");
  });

  test("global, pattern and rule lets; xsl:function; flags", () => {
    const s = sch(`<let name="LIMIT" value="2"/>
      <xsl:function name="u:twice" as="xs:decimal"><xsl:param name="v"/><xsl:sequence select="xs:decimal($v) * 2"/></xsl:function>
      <pattern><let name="count" value="count(//a:x)"/>
        <rule context="/a:r"><let name="n" value="$count + 0"/><assert id="MAX" flag="warning" test="$n &lt;= $LIMIT">too many: <value-of select="$n"/></assert>
          <assert id="FN" flag="information" test="u:twice(a:x[1]/@k) = 4">not four</assert></rule></pattern>`);
    const r = runSchema(s, doc(`<a:r xmlns:a="urn:a"><a:x k="3"/><a:x/><a:x/></a:r>`));
    expect(r.results).toEqual([
      { rule_id: "MAX", severity: "warning", message: "too many: 3", xpath: "/a:r[1]" },
      { rule_id: "FN", severity: "information", message: "not four", xpath: "/a:r[1]" },
    ]);
  });

  test("an expression that fails at run time decides nothing: the rule is listed unevaluated with the reason", () => {
    const s = sch(
      `<pattern><rule context="a:x"><assert id="CAST" test="xs:decimal(.) &gt; 0">positive</assert></rule></pattern>`,
    );
    const r = runSchema(s, doc(`<a:r xmlns:a="urn:a"><a:x>abc</a:x></a:r>`));
    expect(r.results).toEqual([]);
    expect(r.unevaluated).toHaveLength(1);
    expect(r.unevaluated[0]!.rule_id).toBe("CAST");
    expect(r.unevaluated[0]!.reason).toMatch(/FORG0001/);
  });

  test("decimal sums are exact and integer casts before mod are unbounded, as XPath says", () => {
    const s =
      sch(`<pattern><rule context="/a:r"><assert id="SUM" test="xs:decimal(a:t) = sum(a:p/xs:decimal(.))">sum</assert>
      <assert id="IBAN" test="xs:integer(a:n) mod 97 = 1">mod</assert></rule></pattern>`);
    // 193.70 + 48.75 + 93.34 is 335.78999999999996 in binary floating point; DE89370400440532013000 is a valid IBAN.
    const ok = runSchema(
      s,
      doc(
        `<a:r xmlns:a="urn:a"><a:t>335.79</a:t><a:p>193.70</a:p><a:p>48.75</a:p><a:p>93.34</a:p><a:n>370400440532013000131489</a:n></a:r>`,
      ),
    );
    expect(ok).toMatchObject({ results: [], unevaluated: [] });
    const bad = runSchema(
      s,
      doc(
        `<a:r xmlns:a="urn:a"><a:t>335.78</a:t><a:p>193.70</a:p><a:p>48.75</a:p><a:p>93.34</a:p><a:n>370400440532013001131489</a:n></a:r>`,
      ),
    );
    expect(bad.results.map((x) => x.rule_id)).toEqual(["SUM", "IBAN"]);
    expect(exactRewrite("sum(x) + 'sum(' + xs:decimal(f(a, (b))) mod 97")).toBe(
      "Q{urn:docproc:xpath}sum(x) + 'sum(' + Q{urn:docproc:xpath}int-mod(string(f(a, (b))), 97)",
    );
  });
});

describe("validateEInvoice", () => {
  const xr = readFileSync(join(RULES_DIR, "xrechnung/test/instances/ubl-inv/ubl-inv-br-de-1-test.xml"), "utf8");

  test("the CIUS comes from the specification identifier; --cius none checks EN 16931 only; Peppol is said to be unchecked", async () => {
    const auto = await validateEInvoice(xr);
    expect(auto).toMatchObject({
      syntax: "ubl-invoice",
      valid: true,
      ruleSets: ["XML-structure", "EN16931-UBL", "XRechnung-UBL"],
      customization: "urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0",
    });
    const noBuyerRef = xr.replace(/<cbc:BuyerReference>[^<]*<\/cbc:BuyerReference>/, "");
    expect((await validateEInvoice(noBuyerRef)).results.map((r) => r.rule_id)).toContain("BR-DE-15");
    expect(await validateEInvoice(noBuyerRef, { cius: "none" })).toMatchObject({
      valid: true,
      ruleSets: ["XML-structure", "EN16931-UBL"],
    });
    const peppol = await validateEInvoice(
      xr.replace(
        /<cbc:CustomizationID>[^<]*</,
        "<cbc:CustomizationID>urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0<",
      ),
    );
    expect(peppol.ruleSets).toEqual(["XML-structure", "EN16931-UBL"]);
    expect(peppol.unevaluated.map((u) => u.rule_id)).toEqual(["PEPPOL-BIS-3"]);
    expect(peppol.unevaluated[0]!.reason).toContain("Peppol BIS rules (artefacts unavailable)");
    expect((await validateEInvoice(xr)).unevaluated.map((u) => u.rule_id)).toEqual(["PEPPOL-EN16931-R*"]);
    expect((await validateEInvoice(xr, { cius: "none" })).unevaluated).toEqual([]);
  }, 60_000);

  test("structure: a foreign element, a bad date and an amount without currency are fatal; broken XML and a foreign root too", async () => {
    const bad = xr
      .replace(
        "<cbc:IssueDate>2018-04-13</cbc:IssueDate>",
        "<cbc:IssueDate>13.04.2018</cbc:IssueDate><x:Extra xmlns:x='urn:x'/>",
      )
      .replace(/<cbc:PayableAmount currencyID="EUR">/, "<cbc:PayableAmount>");
    const r = await validateEInvoice(new TextEncoder().encode(bad));
    const structural = r.results.filter((x) => x.rule_id.startsWith("XSD-"));
    expect(structural.map((x) => `${x.rule_id} ${x.xpath}`)).toEqual([
      "XSD-DATE /ubl:Invoice[1]/cbc:IssueDate[1]",
      "XSD-NAMESPACE /ubl:Invoice[1]/*:Extra[1]",
      "XSD-CURRENCY /ubl:Invoice[1]/cac:LegalMonetaryTotal[1]/cbc:PayableAmount[1]",
    ]);
    expect(r.valid).toBe(false);
    expect(await validateEInvoice("<Invoice><a></Invoice>")).toMatchObject({
      syntax: "unknown",
      valid: false,
      results: [{ rule_id: "XML-WELLFORMED", severity: "fatal" }],
    });
    expect(await validateEInvoice("<note/>")).toMatchObject({
      syntax: "unknown",
      valid: false,
      results: [{ rule_id: "DOCPROC-SYNTAX" }],
    });
  }, 60_000);

  test("a file nested 100,000 deep is refused before any rule runs (it would exhaust the engine's stack for minutes)", async () => {
    const deep = `<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2">${"<cac:X>".repeat(100_000)}${"</cac:X>".repeat(100_000)}</Invoice>`;
    const r = await validateEInvoice(deep);
    expect(r).toMatchObject({
      syntax: "ubl-invoice",
      valid: false,
      ruleSets: [],
      results: [{ rule_id: "DOCPROC-UNCHECKED", severity: "fatal" }],
    });
    expect(r.results[0]!.message).toContain("nested 257 deep");
  }, 60_000);
});
