/**
 * Seller and buyer VAT IDs of an e-invoice are its VAT registrations (UBL `TaxScheme/ID = VAT`, CII schemeID VA);
 * other registrations (FC tax numbers, the Swedish "Godkänd för F-skatt" note) are `vendor_tax_id` /
 * `customer_tax_id`, whatever their order — on corpus files and on corpus files with the registrations reordered.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { readEInvoice } from "../../../src/core/extract/einvoice";
import { extractFields } from "../../../src/core/stages/extract";
import { convertSource } from "../../../src/core/stages/convert";
import { defaultProject } from "../../../src/core/project";

const XR = path.resolve(import.meta.dir, "../../../fixtures/corpora/einvoice-rules/xrechnung/test/instances");
const read = (rel: string) => readFileSync(path.join(XR, rel), "utf8");
const parse = (xml: string, name = "x.xml") => readEInvoice([{ filename: name, data: new TextEncoder().encode(xml) }])!;

/** The supplier block's PartyTaxScheme elements in reverse order. */
function reverseSupplierSchemes(xml: string): string {
  return xml.replace(/<cac:AccountingSupplierParty>[\s\S]*?<\/cac:AccountingSupplierParty>/, (block) => {
    const schemes = block.match(/<cac:PartyTaxScheme>[\s\S]*?<\/cac:PartyTaxScheme>/g) ?? [];
    let i = schemes.length;
    return block.replace(/<cac:PartyTaxScheme>[\s\S]*?<\/cac:PartyTaxScheme>/g, () => schemes[--i]!);
  });
}

describe("tax registrations of e-invoice parties", () => {
  test("UBL (XRechnung instance with VAT and FC): the VAT scheme is the VAT ID, FC the tax number, in either order", () => {
    const xml = read("ubl-inv/ubl-inv-peppol-en16931-r008.xml");
    const asIs = parse(xml).fields;
    expect(asIs.vendor_vat_id).toBe("DEU123456789");
    expect(asIs.vendor_tax_id).toBe("123/456/789");
    expect(asIs.customer_vat_id).toBe("DE12345ABC");
    const reordered = reverseSupplierSchemes(xml);
    expect(reordered.indexOf("123/456/789")).toBeLessThan(reordered.indexOf("DEU123456789"));
    const fields = parse(reordered).fields;
    expect([fields.vendor_vat_id, fields.vendor_tax_id]).toEqual(["DEU123456789", "123/456/789"]);
  });

  test("UBL with only a national tax number: no VAT ID is made of it", () => {
    const fields = parse(read("ubl-inv/ubl-inv-br-de-19-iban-tests.xml")).fields;
    expect(fields.vendor_vat_id).toBeNull();
    expect(fields.vendor_tax_id).toBe("12/345/67890");
  });

  test("CII (XRechnung instance with VA and FC), also with FC listed first", () => {
    const xml = read("cii/cii-br-de-18-case-sensitive-keyword.xml");
    expect([parse(xml).fields.vendor_vat_id, parse(xml).fields.vendor_tax_id]).toEqual(["DE123456789", "123/456/789"]);
    const swapped = xml.replace(
      /(<ram:SpecifiedTaxRegistration>\s*<ram:ID schemeID="VA">[^<]*<\/ram:ID>\s*<\/ram:SpecifiedTaxRegistration>)(\s*)(<ram:SpecifiedTaxRegistration>\s*<ram:ID schemeID="FC">[^<]*<\/ram:ID>\s*<\/ram:SpecifiedTaxRegistration>)/,
      "$3$2$1",
    );
    expect(swapped).not.toBe(xml);
    expect([parse(swapped).fields.vendor_vat_id, parse(swapped).fields.vendor_tax_id]).toEqual([
      "DE123456789",
      "123/456/789",
    ]);
  });

  test("a Swedish seller whose first PartyTaxScheme is the F-skatt note (TaxScheme TAX): the VAT ID is the VAT one", () => {
    const xml = read("ubl-inv/ubl-inv-peppol-en16931-r008.xml").replace(
      /<cac:AccountingSupplierParty>[\s\S]*?<\/cac:AccountingSupplierParty>/,
      (block) => {
        const schemes = block.match(/<cac:PartyTaxScheme>[\s\S]*?<\/cac:PartyTaxScheme>/g)!;
        const fskatt = `<cac:PartyTaxScheme><cbc:CompanyID>Godkänd för F-skatt</cbc:CompanyID><cac:TaxScheme><cbc:ID>TAX</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>`;
        const vat = `<cac:PartyTaxScheme><cbc:CompanyID>SE556677889901</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>`;
        return block
          .replace(schemes.join(""), "")
          .replace(/(<cac:PartyTaxScheme>[\s\S]*?<\/cac:PartyTaxScheme>\s*)+/, fskatt + vat);
      },
    );
    const fields = parse(xml).fields;
    expect(fields.vendor_vat_id).toBe("SE556677889901");
    expect(fields.vendor_tax_id).toBe("Godkänd för F-skatt");
  });

  test("through conversion and extraction, a standalone UBL file's VAT ID, tax number and buyer VAT ID are the results' fields", async () => {
    const data = new TextEncoder().encode(reverseSupplierSchemes(read("ubl-inv/ubl-inv-peppol-en16931-r008.xml")));
    const converted = await convertSource(
      { index: 0, filename: "inv.xml", data, split_policy: "inherit" },
      { firstPageNumber: 1, maxPages: null },
    );
    const fields = extractFields(converted.pages, "invoice", defaultProject, { attachments: converted.attachments });
    expect(fields.vendor_vat_id!.value).toBe("DEU123456789");
    expect(fields.vendor_tax_id!.value).toBe("123/456/789");
    expect(fields.customer_vat_id!.value).toBe("DE12345ABC");
  });
});
