/**
 * Sums and registrations of small-business invoices of the English-speaking world (fixtures/smallbiz measured
 * them first): Indian lakh grouping, CGST + SGST and GST + PST as one tax, "VAT @ 20%", the total rather than the
 * balance left after a deposit, "Subtotal (ex GST)", a GSTIN, ABN or GST/HST number as the seller's registration, and
 * a bare "$" read as the dollar of the country those registrations name. Generated pages, text layer and OCR lines.
 */
import { expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { parseAmount } from "../../../src/core/extract/normalize";
import { findAmounts } from "../../../src/core/extract/values";
import { invoiceHead, page, type Rows, sumRows } from "./page-rows";

const head = (name: string, reg: string): Rows => invoiceHead(name, [reg]);
const read = (rows: Rows, ocr: boolean) => {
  const f = extractFields([page(rows, ocr)], "invoice", defaultProject);
  const v = (k: string) => f[k]?.value ?? null;
  return {
    sub: v("subtotal_amount"),
    tax: v("tax_amount"),
    total: v("total_amount"),
    vat: v("vendor_vat_id"),
    cur: v("currency"),
  };
};

test("Indian grouping: 2,30,669.24 and 1,23,45,678 are amounts", () => {
  expect(parseAmount("2,30,669.24")).toBe(230669.24);
  expect(parseAmount("Rs. 1,23,45,678.00")).toBe(12345678);
  expect(findAmounts("Grand Total Rs. 2,30,669.24", "dmy").map((a) => a.value)).toEqual([230669.24]);
});

for (const ocr of [false, true]) {
  const how = ocr ? "OCR lines" : "text layer";

  test(`${how}: CGST @ 9% and SGST (9%) are one tax, with lakh-grouped sums; the GSTIN is the seller's`, () => {
    const rows = [
      ...head("MEHTA ENTERPRISES", "GSTIN: 27AAPFU0939F1ZV"),
      ...sumRows([
        ["Taxable Value", "Rs. 1,95,482.40"],
        [ocr ? "CGST@ 9%" : "CGST @ 9%", "Rs. 17,593.42"],
        ["SGST (9%)", "Rs. 17,593.42"],
        ["Grand Total", "Rs. 2,30,669.24"],
      ]),
    ];
    expect(read(rows, ocr)).toMatchObject({
      sub: 195482.4,
      tax: 35186.84,
      total: 230669.24,
      vat: "27AAPFU0939F1ZV",
      cur: "INR",
    });
  });

  test(`${how}: GST 5% + PST 7% on one base are the tax even when shipping keeps the sums from adding up`, () => {
    const rows = [
      ...head("Fraser Plumbing Inc.", "GST/HST No. 123456782 RT0001"),
      ...sumRows([
        ["SUBTOTAL", "$1,685.76"],
        ["S&H", "$41.62"],
        ["GST 5%", "$86.37"],
        ["PST (7%)", "$120.92"],
        ["INVOICE TOTAL", "$1,934.67"],
      ]),
    ];
    expect(read(rows, ocr)).toMatchObject({ tax: 207.29, total: 1934.67, vat: "123456782RT0001", cur: "CAD" });
  });

  test(`${how}: the total, not the balance left after a deposit; "Subtotal (ex GST)" is the subtotal; the ABN`, () => {
    const rows = [
      ...head("Daniel Sinclair", `daniel@sinclair.com.au  ABN : ${ocr ? "51.824 753 556" : "51 824 753 556"}`),
      ...sumRows([
        ["Subtotal (ex GST)", "$2,517.50"],
        ["Delivery", "$21.30"],
        ["GST", "$253.88"],
        ["Total (inc GST)", "$2,792.68"],
        ["Deposit Received", "-$1,396.00"],
        ["BALANCE DUE", "$1,396.68"],
      ]),
    ];
    expect(read(rows, ocr)).toMatchObject({ sub: 2517.5, tax: 253.88, total: 2792.68, vat: "51824753556", cur: "AUD" });
  });

  test(`${how}: "VAT @ 20%" is the VAT line; a balance with nothing paid stays the total`, () => {
    const rows = [
      ...head("Barker Joinery Ltd", "VAT Reg No. GB 598 5655 38"),
      ...sumRows([
        ["Subtotal", "£2,670.07"],
        ["VAT @ 20%", "£534.01"],
        ["Amount Paid", "£0.00"],
        ["Balance Due", "£3,204.08"],
      ]),
    ];
    expect(read(rows, ocr)).toMatchObject({
      sub: 2670.07,
      tax: 534.01,
      total: 3204.08,
      vat: "GB598565538",
      cur: "GBP",
    });
  });
}

test("a registration whose check fails is not taken for a GSTIN or GST/HST number", () => {
  for (const reg of ["GSTIN: 27AAPFU0939F1ZW", "HST # 123456789RT0001"]) {
    const rows = [...head("Kelly Electrical", reg), ...sumRows([["Total", "$100.00"]])];
    expect({ reg, vat: read(rows, false).vat }).toEqual({ reg, vat: null });
  }
});

test("a bare $ under a Western Australian address and a Pty Ltd is AUD (every state's code counts)", () => {
  for (const [town, want] of [
    ["Fremantle WA 6160", "AUD"],
    ["Glenelg SA 5045", "AUD"],
    ["Darwin NT 0800", "AUD"],
    ["Austin, TX 78701", "USD"],
  ]) {
    const rows: Rows = [
      [60, [["KELLY ELECTRICAL PTY LTD", 100, 30]]],
      [100, [[`33 Beach Road, ${town}`, 100]]],
      ...sumRows([["Total", "$1,100.00"]]),
    ];
    const got = read(rows, true).cur;
    expect({ town, got }).toEqual({ town, got: want });
  }
});
