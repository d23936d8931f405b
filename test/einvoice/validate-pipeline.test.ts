/**
 * Every e-invoice docproc reads is validated: a standalone XML and the XML inside a Factur-X PDF get the rules that
 * fired in `documents[].validation` (rule id, severity, message, XPath), and a fatal rule makes the status `error`.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { processTransaction } from "../../src/core/pipeline";
import { memorySink } from "../../src/core/exporters";
import { defaultProject } from "../../src/core/project";
import type { OcrEngine } from "../../src/core/engines/ocr";
import { RULES_DIR } from "../core/einvoice/validate/cases";
import { cii } from "../core/einvoice/fixtures";

const noOcr: OcrEngine = {
  name: "none",
  workers: 1,
  recognize: () => Promise.reject(new Error("no OCR expected")),
  close: async () => {},
};
const valid = readFileSync(join(RULES_DIR, "xrechnung/test/instances/ubl-inv/ubl-inv-br-de-1-test.xml"), "utf8");

async function run(filename: string, data: Uint8Array) {
  const meta = {
    transaction_id: crypto.randomUUID(),
    tenant_id: "default",
    project_id: "default",
    project_version: 1,
    correlation_id: null,
    metadata: {},
    created_at: new Date(0).toISOString(),
    source: "test",
  };
  const res = await processTransaction({ sources: [{ index: 0, filename, data, split_policy: "inherit" }] }, {
    meta,
    project: defaultProject,
    ocr: noOcr,
    sink: memorySink(),
  } as never);
  return res.results;
}

describe("e-invoice validation in the pipeline", () => {
  test("a valid XRechnung UBL XML adds no error; removing its invoice number (BT-1) gives BR-02 fatal and status error", async () => {
    const ok = await run("xrechnung.xml", new TextEncoder().encode(valid));
    expect(ok.documents[0]!.fields.invoice_number!.value).toBeTruthy();
    expect(ok.documents[0]!.validation?.rule_results.filter((r) => r.status === "error") ?? []).toEqual([]);

    const broken = valid.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, "");
    const bad = await run("xrechnung.xml", new TextEncoder().encode(broken));
    const v = bad.documents[0]!.validation!;
    expect(v.overall_status).toBe("error");
    expect(bad.validation.overall_status).toBe("error");
    const br02 = v.rule_results.find((r) => r.rule_id === "BR-02")!;
    expect(br02).toMatchObject({
      status: "error",
      severity: "fatal",
      xpath: "/ubl:Invoice[1]",
      origin: "einvoice",
      field_ids: ["invoice_number"],
    });
    expect(br02.message).toContain("Invoice number (BT-1)");
    expect(v.rule_results[0]).toMatchObject({ rule_id: "EINVOICE", status: "error" });
    expect(v.rule_results[0]!.message).toContain("EN16931-UBL, XRechnung-UBL");
  }, 60_000);

  const facturX = async (xml: string) => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    pdf
      .addPage([595, 842])
      .drawText("Lieferant GmbH  RECHNUNG RE-4711  Gesamtbetrag: 35,70 EUR", { x: 50, y: 780, size: 12, font });
    await pdf.attach(new TextEncoder().encode(xml), "factur-x.xml", { mimeType: "text/xml", description: "Factur-X" });
    return (await run("factur-x.pdf", await pdf.save())).documents[0]!.validation!;
  };

  test("the CII inside a Factur-X PDF is validated: claiming EN 16931, its missing seller address (BR-08) is an error", async () => {
    const context = `<rsm:ExchangedDocumentContext><ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:cen.eu:en16931:2017</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter></rsm:ExchangedDocumentContext>`;
    const v = await facturX(cii.replace("<rsm:ExchangedDocument>", `${context}<rsm:ExchangedDocument>`));
    expect(v.overall_status).toBe("error");
    expect(v.rule_results.find((r) => r.rule_id === "BR-08")).toMatchObject({
      status: "error",
      severity: "fatal",
      xpath: "/rsm:CrossIndustryInvoice[1]",
      message: "[BR-08]-An Invoice shall contain the Seller postal address (BG-5).",
    });
    expect(v.rule_results[0]!.message).toContain("factur-x.xml: cii e-invoice (urn:cen.eu:en16931:2017)");
  }, 60_000);

  test("a CII that claims no EN 16931 conformance (no BT-24) gets the same rules as information: no warning, no error", async () => {
    // Information only: the document has no warning or error, so it carries no validation (the spec's rule) and
    // completes as before e-invoice validation existed; the strict answer is validateEInvoice's (docproc validate).
    expect(await facturX(cii)).toBeUndefined();
    const { validateEInvoice } = await import("../../src/core/einvoice/validate");
    const report = await validateEInvoice(cii);
    expect(report.valid).toBe(false);
    expect(report.results.find((r) => r.rule_id === "BR-01")).toMatchObject({ severity: "fatal" });
  }, 60_000);
});
