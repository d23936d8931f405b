/**
 * `.xml` files in folders: taken when their content is a UBL or CII e-invoice (root element and namespace), listed as
 * skipped with a reason otherwise — by `docproc process <folder>`, the eval folder reader and the sniffer itself, on
 * the e-invoice corpus (XRechnung instances, EN16931 examples and its schematron test sets, which are XML too).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { collectInputs } from "../../src/batch/inputs";
import { sniffEInvoiceXml } from "../../src/core/convert/sniff";
import { readEInvoice } from "../../src/core/extract/einvoice";
import { readEvalFolder } from "../../src/eval/folder";
import { runCli } from "../support/process";
import { removeAll, tempDir } from "../support/temp";

const CORPUS = path.resolve(import.meta.dir, "../../fixtures/corpora/einvoice-rules");
const XR = path.join(CORPUS, "xrechnung/test/instances");
const CII = path.join(XR, "cii/cii-br-de-1-test.xml");
const UBL = path.join(XR, "ubl-inv/ubl-inv-br-de-1-test.xml");
const UBL_CN = path.join(XR, "ubl-cn", readdirSync(path.join(XR, "ubl-cn")).sort()[0]!);
const TEST_SET = path.join(CORPUS, "en16931/test/Invoice-unit-UBL/BR-01.xml");

const temps: string[] = [];
afterAll(() => removeAll(temps));

function walkXml(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walkXml(path.join(dir, e.name)) : e.name.endsWith(".xml") ? [path.join(dir, e.name)] : [],
  );
}

describe("sniffEInvoiceXml", () => {
  test("agrees with the e-invoice reader on every XML file of the corpus, and finds both syntaxes", () => {
    const counts = { UBL: 0, CII: 0, none: 0 };
    for (const f of walkXml(CORPUS)) {
      const data = new Uint8Array(readFileSync(f));
      const s = sniffEInvoiceXml(data);
      counts[s.syntax ?? "none"]++;
      expect({ f, einvoice: s.syntax !== null }).toEqual({
        f,
        einvoice: readEInvoice([{ filename: f, data }]) !== null,
      });
    }
    expect(counts.UBL).toBeGreaterThan(200);
    expect(counts.CII).toBeGreaterThan(100);
    expect(counts.none).toBeGreaterThan(200); // the schematron test sets (<testSet>)
  });

  test("judges by root element and namespace, not by the words inside", () => {
    const enc = (s: string) => new TextEncoder().encode(s);
    const ubl = `<?xml version="1.0"?>\n<!-- a comment -->\n<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2" xmlns:cbc="x"><cbc:ID>1</cbc:ID></Invoice>`;
    expect(sniffEInvoiceXml(enc(ubl))).toEqual({ syntax: "UBL", root: "Invoice" });
    const prefixed = `\uFEFF<rsm:CrossIndustryInvoice xmlns:rsm="urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100"></rsm:CrossIndustryInvoice>`;
    expect(sniffEInvoiceXml(enc(prefixed))).toEqual({ syntax: "CII", root: "CrossIndustryInvoice" });
    // An <Invoice> of some other schema, an SVG, a text file
    const foreign = sniffEInvoiceXml(enc(`<Invoice xmlns="http://example.com/erp"><Total>1</Total></Invoice>`));
    expect(foreign.syntax).toBeNull();
    expect(foreign.syntax === null && foreign.reason).toContain("<Invoice> in http://example.com/erp");
    expect(
      sniffEInvoiceXml(enc(`<svg xmlns="http://www.w3.org/2000/svg"><text>Invoice CrossIndustryInvoice</text></svg>`))
        .syntax,
    ).toBeNull();
    expect(sniffEInvoiceXml(enc("Invoice 2024-1, total 12.00"))).toEqual({ syntax: null, reason: "not XML" });
  });
});

describe("folders with XML files", () => {
  function inbox(): string {
    const dir = tempDir("xml-inbox", temps);
    for (const f of [CII, UBL, UBL_CN, TEST_SET]) copyFileSync(f, path.join(dir, path.basename(f)));
    writeFileSync(path.join(dir, "drawing.xml"), `<svg xmlns="http://www.w3.org/2000/svg"/>`);
    writeFileSync(path.join(dir, "notes.md"), "# notes");
    return dir;
  }

  test("collectInputs takes the UBL and CII invoices and lists the other XML as skipped with its reason", async () => {
    const dir = inbox();
    const { files, skipped, reasons } = await collectInputs([dir]);
    expect(files.map((f) => path.basename(f)).sort()).toEqual([CII, UBL, UBL_CN].map((f) => path.basename(f)).sort());
    expect(skipped.map((f) => path.basename(f))).toEqual(["BR-01.xml", "drawing.xml", "notes.md"]);
    expect(reasons[path.join(dir, "BR-01.xml")]).toContain("<testSet>");
    expect(reasons[path.join(dir, "drawing.xml")]).toContain("<svg>");
    expect(reasons[path.join(dir, "notes.md")]).toBe("not a document type docproc reads");
  });

  test("docproc process <folder> reads the e-invoices (exit 0) and names why the rest was skipped", async () => {
    const dir = inbox();
    const out = path.join(tempDir("xml-out", temps), "out");
    const run = await runCli(["process", dir, "--out", out, "--json"], { timeoutMs: 120_000 });
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout) as {
      total: number;
      succeeded: number;
      files: Array<{ file: string; documents: number }>;
      skipped: string[];
      skipped_reasons: Record<string, string>;
    };
    expect(summary.total).toBe(3);
    expect(summary.succeeded).toBe(3);
    expect(summary.files.every((f) => f.documents === 1)).toBe(true);
    expect(summary.skipped_reasons[path.join(dir, "BR-01.xml")]).toContain("no UBL or CII e-invoice");
  }, 130_000);

  test("a folder where every file is skipped is no success: exit 2 and a line that says nothing was processed", async () => {
    const dir = tempDir("xml-none", temps);
    copyFileSync(TEST_SET, path.join(dir, "BR-01.xml"));
    writeFileSync(path.join(dir, "notes.md"), "# notes");
    const out = path.join(tempDir("xml-out", temps), "out");
    const run = await runCli(["process", dir, "--out", out]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain("Nothing processed: all 2 files found were skipped.");
    expect(run.stdout).toMatch(/Skipped \(XML that is no UBL or CII e-invoice \(root element <testSet>.*BR-01\.xml/);
  }, 60_000);

  test("an eval folder takes an e-invoice XML with its expected file and reports other XML as not a document", async () => {
    const dir = tempDir("xml-eval", temps);
    copyFileSync(UBL, path.join(dir, "inv.xml"));
    writeFileSync(path.join(dir, "inv.json"), JSON.stringify({ class_id: "invoice", fields: {} }));
    copyFileSync(TEST_SET, path.join(dir, "rules.xml"));
    writeFileSync(path.join(dir, "rules.json"), JSON.stringify({ class_id: "other" }));
    const read = await readEvalFolder(dir);
    expect(read.items.map((i) => path.basename(i.file))).toEqual(["inv.xml"]);
    expect(read.notDocuments.map((n) => path.basename(n.file))).toEqual(["rules.xml"]);
  });
});
