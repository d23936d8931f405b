/**
 * The ubl, cii and facturx export profiles through the real pipeline (conversion, classification, extraction) and
 * the real export runner: e-invoices written back keep every BT value, invoices read from pages become complete
 * e-invoices when the profile supplies what the page lacks (and fail with the missing BT numbers when it does not),
 * the Factur-X attachment that pdfdetach extracts is the exported CII, and nothing a validator rejects is written.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream } from "pdf-lib";
import { memorySink, runExports, type ExportProfileInput } from "../../src/core/exporters";
import { pipeline } from "./pipeline";
import { createOcrEngine } from "../../src/core/engines/ocr";
import { pdfAttachments } from "../../src/core/einvoice/pdf-attachments";
import { sourceModelOf } from "../../src/core/exporters/einvoice-common";
import { readEInvoiceModel } from "../../src/core/einvoice/read";
import { brokenTotals, missingTerms, specificationOf } from "../../src/core/einvoice/mandatory";
import type { BtNode } from "../../src/core/einvoice/model";
import { buildFixture, field } from "../core/exporters/fixtures";
import { wholeBytes } from "../../src/core/source-data";

const CORPUS = path.join(import.meta.dir, "../../fixtures/corpora");
const INSTANCES = path.join(CORPUS, "einvoice-rules/xrechnung/test/instances");
function flatten(n: BtNode, out: string[] = []): string[] {
  for (const [k, v] of Object.entries(n.values)) out.push(`${k} = ${v}`);
  for (const [g, list] of Object.entries(n.groups))
    list
      .map((x) => flatten(x).sort().join(" | "))
      .sort()
      .forEach((s, i) => out.push(`${g}[${i + 1}] { ${s} }`));
  return out.sort();
}

const text = (b: Uint8Array | undefined) => new TextDecoder().decode(b);
const fileOf = (sink: ReturnType<typeof memorySink>, suffix: string) =>
  [...sink.files.entries()].find(([n]) => n.endsWith(suffix))?.[1];

describe("e-invoices read by docproc and written back", () => {
  // Every 10th instance of the XRechnung suite (36 files), UBL invoices, credit notes and CII alike.
  const files = readdirSync(INSTANCES)
    .flatMap((d) => readdirSync(path.join(INSTANCES, d)).map((f) => path.join(INSTANCES, d, f)))
    .sort()
    .filter((_, i) => i % 10 === 0);

  test("keep every BT value, in the source's syntax and in the other one; a file that cannot be written names what its source lacks", async () => {
    const failures: string[] = [];
    let written = 0;
    for (const file of files) {
      const source = readEInvoiceModel(readFileSync(file))!;
      const { ctx, sink } = await pipeline(file);
      // The BT round trip alone: many suite instances are negative tests the official rules reject (the default
      // validator would then rightly write nothing); "complete documents pass the official rules" runs it.
      ctx.validateEInvoice = async () => ({ valid: true, results: [] });
      const manifest = await runExports(ctx, [
        { id: "ubl", name: "UBL", output_format: "ubl" },
        { id: "cii", name: "CII", output_format: "cii" },
      ]);
      for (const [id, suffix] of [
        ["ubl", "_ubl.xml"],
        ["cii", "_cii.xml"],
      ] as const) {
        const entry = manifest.profiles[id]!;
        if (entry.status === "failed") {
          // Only ever for a source that itself lacks a mandatory term or breaks a totals rule.
          const own = [...missingTerms(source.data, specificationOf(source.data)), ...brokenTotals(source.data)];
          if (!own.length) failures.push(`${path.basename(file)} ${id}: failed although complete: ${entry.error}`);
          else if (!own.every((f) => entry.error!.includes(f.id)))
            failures.push(`${path.basename(file)} ${id}: error does not name ${own.map((f) => f.id)}: ${entry.error}`);
          continue;
        }
        written++;
        const back = readEInvoiceModel(fileOf(sink, suffix)!)!;
        const [before, after] = [flatten(source.data), flatten(back.data)];
        const lost = before.filter((x) => !after.includes(x));
        const added = after.filter((x) => !before.includes(x));
        if (lost.length || added.length)
          failures.push(`${path.basename(file)} ${id}: lost ${lost.join("; ")} added ${added.join("; ")}`);
      }
    }
    expect(failures).toEqual([]);
    expect(written).toBeGreaterThan(files.length);
  }, 240_000);
});

describe("an invoice read from its pages", () => {
  const coolblue = path.join(CORPUS, "invoice2data/coolblue1.pdf");
  const buyer = { "BT-55": "NL", "BT-20": "Payable within 14 days" };

  test("without the buyer's country the profile fails listing the missing BTs by number; nothing is written", async () => {
    const { ctx, sink } = await pipeline(coolblue);
    const manifest = await runExports(ctx, [{ id: "ubl", name: "UBL", output_format: "ubl" }]);
    expect(manifest.profiles.ubl!.status).toBe("failed");
    expect(manifest.profiles.ubl!.error).toContain("BT-55 Country code (Buyer postal address)");
    expect(manifest.profiles.ubl!.error).toContain("BT-9 Payment due date or BT-20 payment terms");
    expect(sink.files.size).toBe(0);
  }, 60_000);

  test("with profile defaults it becomes a complete EN 16931 invoice carrying the extracted values", async () => {
    const { ctx, sink } = await pipeline(coolblue);
    const fields = ctx.results.documents[0]!.fields;
    const manifest = await runExports(ctx, [
      { id: "ubl", name: "UBL", output_format: "ubl", options: { defaults: buyer } },
      { id: "cii", name: "CII", output_format: "cii", options: { defaults: buyer } },
    ]);
    expect(manifest.profiles.ubl!.status).toBe("success");
    expect(manifest.profiles.cii!.status).toBe("success");
    for (const suffix of ["_ubl.xml", "_cii.xml"]) {
      const model = readEInvoiceModel(fileOf(sink, suffix)!)!;
      const v = model.data.values;
      expect([v["BT-1"], v["BT-2"], v["BT-5"], v["BT-24"]]).toEqual([
        String(fields.invoice_number!.value),
        String(fields.invoice_date!.value),
        "EUR",
        "urn:cen.eu:en16931:2017",
      ]);
      expect([v["BT-109"], v["BT-110"], v["BT-112"], v["BT-115"]].map(Number)).toEqual([
        fields.subtotal_amount!.value,
        fields.tax_amount!.value,
        fields.total_amount!.value,
        fields.total_amount!.value,
      ] as number[]);
      const seller = model.data.groups["BG-4"]![0]!;
      expect([seller.values["BT-27"], seller.values["BT-31"]]).toEqual([
        fields.vendor_name!.value,
        fields.vendor_vat_id!.value,
      ] as string[]);
      expect(model.data.groups["BG-23"]![0]!.values).toMatchObject({ "BT-118": "S", "BT-119": "21" });
      expect(model.data.groups["BG-16"]![0]!.values["BT-84"]).toBe(String(fields.iban!.value));
      expect(missingTerms(model.data, "en16931")).toEqual([]);
      expect(brokenTotals(model.data)).toEqual([]);
    }
  }, 60_000);

  test("complete documents pass the official rules (the default validator): EN 16931 in UBL, CII and Factur-X, XRechnung in UBL and CII", async () => {
    const { ctx, sink } = await pipeline(coolblue);
    const xrechnung = {
      ...buyer,
      "BT-10": "04011000-12345-34",
      "BT-34": "invoices@seller.example",
      "BT-34-1": "EM",
      "BT-49": "ap@buyer.example",
      "BT-49-1": "EM",
      "BT-41": "Sales desk",
      "BT-42": "+31 10 000 0000",
      "BT-43": "sales@seller.example",
      "BT-37": "Rotterdam",
      "BT-38": "3012 CN",
      "BT-52": "Amsterdam",
      "BT-53": "1011 AA",
    };
    const manifest = await runExports(ctx, [
      { id: "ubl", name: "UBL", output_format: "ubl", options: { defaults: buyer } },
      { id: "cii", name: "CII", output_format: "cii", options: { defaults: buyer } },
      { id: "fx", name: "Factur-X", output_format: "facturx", options: { defaults: buyer } },
      {
        id: "xr-ubl",
        name: "XRechnung UBL",
        output_format: "ubl",
        filename: "xr-ubl.xml",
        options: { customization: "xrechnung", defaults: xrechnung },
      },
      {
        id: "xr-cii",
        name: "XRechnung CII",
        output_format: "cii",
        filename: "xr-cii.xml",
        options: { customization: "xrechnung", defaults: xrechnung },
      },
    ]);
    for (const entry of Object.values(manifest.profiles))
      expect({ id: entry.profile_id, status: entry.status, error: entry.error }).toEqual({
        id: entry.profile_id,
        status: "success",
        error: undefined,
      });
    const { validateEInvoice } = await import("../../src/core/einvoice/validate");
    for (const name of ["xr-ubl.xml", "xr-cii.xml"]) {
      const report = await validateEInvoice(sink.files.get(name)!);
      expect(report.ruleSets.some((r) => /xrechnung/i.test(r))).toBe(true);
      expect(report.results.filter((r) => r.severity === "fatal")).toEqual([]);
    }
  }, 120_000);

  test("the XRechnung customisation asks for what XRechnung adds (buyer reference, electronic addresses, seller contact)", async () => {
    const { ctx } = await pipeline(coolblue);
    const manifest = await runExports(ctx, [
      { id: "x", name: "X", output_format: "ubl", options: { customization: "xrechnung", defaults: buyer } },
    ]);
    const error = manifest.profiles.x!.error!;
    for (const id of ["BT-10", "BT-34", "BT-49", "BT-41", "BT-42", "BT-43", "BT-52", "BT-53"])
      expect(error).toContain(`${id} `);
  }, 60_000);
});

function pdftool(args: string[]): { code: number; out: string } {
  const r = Bun.spawnSync(args, { stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, out: `${r.stdout.toString()}${r.stderr.toString()}` };
}

describe("Factur-X", () => {
  test("a born-digital PDF: the attachment pdfdetach extracts equals the exported CII; PDF/A-3 metadata, output intent and AF relationship are there", async () => {
    const { ctx, sink } = await pipeline(path.join(CORPUS, "invoice2data/coolblue1.pdf"));
    const defaults = { "BT-55": "NL", "BT-20": "Payable within 14 days" };
    const manifest = await runExports(ctx, [
      { id: "fx", name: "Factur-X", output_format: "facturx", options: { defaults } },
      { id: "cii", name: "CII", output_format: "cii", options: { defaults, customization: "factur-x" } },
    ]);
    expect(manifest.profiles.fx!.status).toBe("success");
    const dir = mkdtempSync(path.join(tmpdir(), "docproc-fx-"));
    try {
      const pdfPath = path.join(dir, "fx.pdf");
      writeFileSync(pdfPath, fileOf(sink, "_facturx.pdf")!);
      expect(pdftool(["pdfdetach", "-list", pdfPath]).out).toContain("factur-x.xml");
      expect(pdftool(["pdfdetach", "-save", "1", "-o", path.join(dir, "att.xml"), pdfPath]).code).toBe(0);
      expect(text(readFileSync(path.join(dir, "att.xml")))).toBe(text(fileOf(sink, "_cii.xml")));
      expect(pdftool(["qpdf", "--check", pdfPath]).code).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const pdf = await PDFDocument.load(fileOf(sink, "_facturx.pdf")!);
    const af = pdf.catalog.lookup(PDFName.of("AF"), PDFArray);
    const spec = af.lookup(0, PDFDict);
    expect(spec.get(PDFName.of("AFRelationship"))).toBe(PDFName.of("Alternative"));
    const xmp = text((pdf.catalog.lookup(PDFName.of("Metadata")) as PDFRawStream).getContents());
    for (const s of [
      "<pdfaid:part>3</pdfaid:part>",
      "<pdfaid:conformance>B</pdfaid:conformance>",
      "<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>",
      "<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>",
      "urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#",
    ])
      expect(xmp).toContain(s);
    const intent = pdf.catalog.lookup(PDFName.of("OutputIntents"), PDFArray).lookup(0, PDFDict);
    expect(intent.get(PDFName.of("S"))).toBe(PDFName.of("GTS_PDFA1"));
    expect(pdf.getPageCount()).toBe((await PDFDocument.load(wholeBytes(ctx.sources[0]!.data))).getPageCount());
  }, 60_000);

  test("a scan (the same invoice as a 200 dpi PNG, read by OCR) becomes a valid Factur-X PDF built from the image", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "docproc-scan-"));
    const ocr = await createOcrEngine({ engine: "wasm", workers: 1 });
    try {
      expect(
        pdftool([
          "pdftoppm",
          "-r",
          "200",
          "-png",
          "-singlefile",
          path.join(CORPUS, "invoice2data/coolblue1.pdf"),
          path.join(dir, "scan"),
        ]).code,
      ).toBe(0);
      const { ctx, sink } = await pipeline(path.join(dir, "scan.png"), ocr);
      expect(ctx.pages[0]!.text_source).toBe("ocr");
      const manifest = await runExports(ctx, [
        {
          id: "fx",
          name: "Factur-X",
          output_format: "facturx",
          options: { defaults: { "BT-55": "NL", "BT-20": "Payable within 14 days" } },
        },
      ]);
      expect({ status: manifest.profiles.fx!.status, error: manifest.profiles.fx!.error }).toEqual({
        status: "success",
        error: undefined,
      });
      const pdf = await PDFDocument.load(fileOf(sink, "_facturx.pdf")!);
      expect(pdf.getPageCount()).toBe(1);
      const xml = (await pdfAttachments(fileOf(sink, "_facturx.pdf")!))[0]!;
      expect(xml.filename).toBe("factur-x.xml");
      expect(readEInvoiceModel(xml.data)!.data.values["BT-1"]).toBe(
        String(ctx.results.documents[0]!.fields.invoice_number!.value),
      );
    } finally {
      await ocr.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test("an image source gets a PDF rendered from its image, with the CII attached", async () => {
    const { ctx, sink } = await buildFixture();
    const receipt = ctx.results.documents.find((d) => d.document_id === "doc-receipt")!;
    Object.assign(receipt.fields, {
      invoice_number: field("Receipt number", "R-77"),
      invoice_date: field("Date", "2024-05-06"),
      currency: field("Currency", "EUR"),
      vendor_name: field("Vendor", "Café Ünïcode"),
      vendor_address: field("Address", "Hauptstr. 1, 10115 Berlin"),
      vendor_vat_id: field("VAT", "DE123456789"),
      total_amount: field("Total", 42),
      tax_amount: field("Tax", 6.71),
    });
    const manifest = await runExports(ctx, [
      {
        id: "fx",
        name: "FX",
        output_format: "facturx",
        options: { document_types: ["receipt"], defaults: { "BT-44": "Docproc GmbH", "BT-55": "DE", "BT-20": "Paid" } },
      },
    ]);
    expect(manifest.profiles.fx).toMatchObject({ status: "success" });
    const pdf = await PDFDocument.load(fileOf(sink, "_facturx.pdf")!);
    expect(pdf.getPageCount()).toBe(1);
    const xml = text((await pdfAttachments(fileOf(sink, "_facturx.pdf")!))[0]!.data);
    const model = readEInvoiceModel(xml)!;
    expect(model.data.groups["BG-4"]![0]!.groups["BG-5"]![0]!.values).toMatchObject({
      "BT-35": "Hauptstr. 1",
      "BT-37": "Berlin",
      "BT-38": "10115",
      "BT-40": "DE",
    });
    expect(model.data.groups["BG-23"]![0]!.values).toMatchObject({
      "BT-116": "35.29",
      "BT-117": "6.71",
      "BT-119": "19",
    });
  }, 60_000);
});

describe("which e-invoice a document came as", () => {
  test("a PDF's attached XML is the source of its one document, of none when the file was split into several", async () => {
    const { ctx } = await buildFixture();
    const pdf = await PDFDocument.load(wholeBytes(ctx.sources[0]!.data));
    await pdf.attach(readFileSync(path.join(INSTANCES, "cii/cii-br-de-1-test.xml")), "factur-x.xml", {
      mimeType: "text/xml",
    });
    ctx.sources[0] = { ...ctx.sources[0]!, data: await pdf.save() };
    const invoice = ctx.results.documents[0]!;
    expect((await sourceModelOf(ctx, invoice))?.data.values["BT-1"]).toBe("123456XX");
    const second = { ...invoice, document_id: "doc-2", split: { ...invoice.split, page_numbers: [2] } };
    ctx.results.documents = [
      { ...invoice, split: { ...invoice.split, page_numbers: [1] } },
      second,
      ...ctx.results.documents.slice(1),
    ];
    expect(await sourceModelOf(ctx, ctx.results.documents[0]!)).toBeNull();
    expect(await sourceModelOf(ctx, second)).toBeNull();
  });
});

describe("validation before writing", () => {
  const cii = path.join(INSTANCES, "cii/cii-br-de-1-test.xml");
  const profiles: ExportProfileInput[] = [{ id: "ubl", name: "UBL", output_format: "ubl" }];

  test("a validator that rejects: no file, the failing rules in the manifest error", async () => {
    const { ctx, sink } = await pipeline(cii);
    const seen: string[] = [];
    ctx.validateEInvoice = async (xml) => {
      seen.push(text(typeof xml === "string" ? new TextEncoder().encode(xml) : xml));
      return {
        valid: false,
        results: [
          { rule_id: "BR-TEST-1", severity: "fatal", message: "rejected for the test", xpath: "/Invoice" },
          { rule_id: "W-1", severity: "warning", message: "only a warning" },
        ],
      };
    };
    const manifest = await runExports(ctx, profiles);
    expect(seen.length).toBe(1);
    expect(manifest.profiles.ubl).toMatchObject({ status: "failed", files: [] });
    expect(manifest.profiles.ubl!.error).toContain("BR-TEST-1: rejected for the test (/Invoice)");
    expect(manifest.profiles.ubl!.error).not.toContain("W-1");
    expect(sink.files.size).toBe(0);
  }, 60_000);

  test("a validator that accepts sees exactly the bytes that are written", async () => {
    const { ctx, sink } = await pipeline(cii);
    let validated = "";
    ctx.validateEInvoice = async (xml) => (
      (validated = typeof xml === "string" ? xml : text(xml)), { valid: true, results: [] }
    );
    const manifest = await runExports(ctx, profiles);
    expect(manifest.profiles.ubl!.status).toBe("success");
    expect(text(fileOf(sink, "_ubl.xml"))).toBe(validated);
  }, 60_000);

  test("a default for a term that cannot take one, and a transaction without billing documents, fail clearly", async () => {
    const { ctx } = await pipeline(cii);
    const manifest = await runExports(ctx, [
      { id: "bad", name: "Bad", output_format: "cii", options: { defaults: { "BT-131": "1.00" } } },
      { id: "none", name: "None", output_format: "ubl", options: { document_types: ["contract"] } },
      { id: "key", name: "Key", output_format: "ubl", options: { defaults: { buyer: "x" } } },
    ]);
    expect(manifest.profiles.bad!.error).toContain("BT-131 cannot be given a default");
    expect(manifest.profiles.none!.error).toContain("no document of type contract");
    expect(manifest.profiles.key!.error).toContain("invalid profile");
  }, 60_000);
});
