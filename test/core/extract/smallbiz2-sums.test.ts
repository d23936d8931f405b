/**
 * Sums and money of the second small-business family (fixtures/smallbiz2 measured them first): South African
 * amounts ("R 12 450.00", "R869.40", "R1,025.02"), the rand's and a New Zealand "$"'s currency, the money of a
 * document that prints no sign at all, and Manitoba's RST beside the GST. Generated pages, text layer and OCR lines.
 */
import { expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { findAmounts } from "../../../src/core/extract/values";
import { type Cell, invoiceHead, page, type Rows, sumRows } from "./page-rows";

const read = (rows: Rows, ocr: boolean) => {
  const f = extractFields([page(rows, ocr)], "invoice", defaultProject);
  const v = (k: string) => f[k]?.value ?? null;
  return { sub: v("subtotal_amount"), tax: v("tax_amount"), total: v("total_amount"), cur: v("currency") };
};

test("a space-grouped amount with a decimal point is one amount after a currency sign, two numbers without", () => {
  const values = (t: string) => findAmounts(t, "dmy").map((a) => a.value);
  expect(values("Total incl. VAT R 12 450.00")).toEqual([12450]);
  expect(values("Total R1 025.02")).toEqual([1025.02]);
  expect(values("TOTAL R1,025.02")).toEqual([1025.02]);
  expect(values("Sub Total R869.40")).toEqual([869.4]);
  expect(values("Amount $ 1 234.50")).toEqual([1234.5]);
  // In an item row the quantity stands before the price: no sign, no single amount.
  expect(values("Install LED downlights 4 368.80 1 475.20")).toEqual([4, 368.8, 1, 475.2]);
  expect(values("R2D2 unit 12.00")).toEqual([12]);
});

for (const ocr of [false, true]) {
  const how = ocr ? "OCR lines" : "text layer";

  test(`${how}: a South African invoice's rand sums are read, its currency is ZAR`, () => {
    const rows = [
      ...invoiceHead("Mokoena Plumbing (Pty) Ltd", ["81 Jan Smuts Avenue, Rosebank", "VAT No: 4267309678"]),
      ...sumRows([
        ["Total excl. VAT", "R 28 082.12"],
        ["VAT @ 15%", "R 2 931.39"],
        ["Total incl. VAT", "R 31 013.51"],
      ]),
    ];
    expect(read(rows, ocr)).toEqual({ sub: 28082.12, tax: 2931.39, total: 31013.51, cur: "ZAR" });
  });

  test(`${how}: sums grouped by a space with no sign ("1 228.53") are one amount; a column's gap parts two`, () => {
    const za = (total: Cell[]) => [
      ...invoiceHead("Dave's Property Maintenance", ["787 Jan Smuts Avenue, Hatfield", "VAT No: 4126028925"]),
      ...sumRows([
        ["Total excl. VAT", "1 228.53"],
        ["VAT (15%)", "21.68"],
      ]),
      [660, total] as [number, Cell[]],
    ];
    expect(
      read(
        za([
          ["TOTAL", 1100],
          ["1 250.21", 1600],
        ]),
        ocr,
      ),
    ).toMatchObject({ sub: 1228.53, tax: 21.68, total: 1250.21 });
    // A quantity in its own column before the price: no group of the price.
    const columns: Cell[] = [
      ["TOTAL", 1100],
      ["1", 1400],
      ["250.21", 1600],
    ];
    expect(read(za(columns), ocr).total).toBe(250.21);
  });

  test(`${how}: a bare "$" next to a New Zealand GST number is NZD; RST beside GST is one tax`, () => {
    const nz = [
      ...invoiceHead("Rimu Arborists Ltd", ["333 Riccarton Road", "GST No: 107-906-835"]),
      ...sumRows([
        ["Sub Total", "$1,379.47"],
        ["GST 15%", "$206.92"],
        ["TOTAL", "$1,586.39"],
      ]),
    ];
    expect(read(nz, ocr).cur).toBe("NZD");
    const mb = [
      ...invoiceHead("Red River Moving Inc.", ["12 Portage Ave, Winnipeg, MB R3C 1A1", "GST No. 839280435 RT0001"]),
      ...sumRows([
        ["Subtotal", "$2,921.60"],
        ["GST @ 5%", "$146.08"],
        ["RST 7%", "$204.51"],
        ["TOTAL", "$3,272.19"],
      ]),
    ];
    expect(read(mb, ocr)).toEqual({ sub: 2921.6, tax: 350.59, total: 3272.19, cur: "CAD" });
  });

  test(`${how}: a sheet that prints no currency takes the money of the country its cues name`, () => {
    const sheet = (lines: string[], tax = "GST 15%") => [
      ...invoiceHead("Raj's Handyman Services", lines),
      ...sumRows([
        ["Subtotal", "3,460.18"],
        [tax, "519.03"],
        ["TOTAL", "3,979.21"],
      ]),
    ];
    expect(read(sheet(["021 930 7208   raj@rajshandyman.co.nz", "GST No: 373-779-032"]), ocr).cur).toBe("NZD");
    expect(read(sheet(["175 Main St, San Antonio, TX 78236"], "Sales Tax (8.25%)"), ocr).cur).toBe("USD");
    expect(read(sheet(["Phone 021 930 7208"]), ocr).cur).toBeNull();
  });
}

const vatOf = (rows: Rows, ocr: boolean) =>
  extractFields([page(rows, ocr)], "invoice", defaultProject).vendor_vat_id?.value ?? null;

for (const ocr of [false, true]) {
  const how = ocr ? "OCR lines" : "text layer";
  const seller = (reg: Rows, extra: string[] = []) => [
    [60, [["Tui Plumbing & Drainage Limited", 100, 30]]] as [number, Cell[]],
    ...extra.map((l, i): [number, Cell[]] => [100 + 30 * i, [[l, 100]]]),
    ...reg,
    ...sumRows([
      ["Subtotal", "1,174.36"],
      ["VAT @ 20%", "234.87"],
      ["Total", "1,409.23"],
    ]),
  ];
  const row = (...cells: Cell[]): Rows => [[250, cells]];

  test(`${how}: NZ GST numbers, a Singapore UEN and a GST/HST 'Registration' are the seller's registration`, () => {
    expect(vatOf(seller(row(["GST No: 107-906-835", 100])), ocr)).toBe("107906835");
    // Stacked under its label, as Xero prints it.
    const stacked: Rows = [
      [250, [["GST Number", 1000]]],
      [280, [["172-746-233", 1000]]],
    ];
    expect(vatOf(seller(stacked), ocr)).toBe("172746233");
    expect(vatOf(seller(row(["UEN / GST Reg No: 201830874G", 100])), ocr)).toBe("201830874G");
    // The next cell's words on the same line ("Due Date …") are no part of it.
    const beside = row(["GST Reg. No. 202114693K", 100], ["Due Date", 1000], ["04 Sep 2024", 1300]);
    expect(vatOf(seller(beside), ocr)).toBe("202114693K");
    expect(vatOf(seller(row(["GST/HST Registration: 673277620 RT0001", 100])), ocr)).toBe("673277620RT0001");
    // OCR's O for the account's zeros ("RTO001"): the account is digits, the number still checks.
    expect(vatOf(seller(row(["GST/HST # 552609729 RTO001", 100])), ocr)).toBe("552609729RT0001");
  });

  test(`${how}: a UK VAT number printed without GB gets it on a British page only, and only when HMRC's check holds`, () => {
    const uk = ["Unit 4, Mill Lane", "Huddersfield HD1 4AB"];
    expect(vatOf(seller(row(["VAT Reg No: 687 9865 40", 100]), uk), ocr)).toBe("GB687986540");
    expect(vatOf(seller(row(["VAT Reg No: 687 9865 40", 100]), ["Rua Augusta 12", "Lisboa"]), ocr)).toBe("687986540");
    expect(vatOf(seller(row(["VAT Reg No: 687 9865 41", 100]), uk), ocr)).toBe("687986541");
  });

  test(`${how}: an invoice number that reads as a VAT ID ('SI-2025-4252') is the invoice number's`, () => {
    const rows = seller(row(["Invoice No.", 1000], ["SI-2025-4252", 1300]), ["VAT Number: 4267309678"]);
    expect(vatOf(rows, ocr)).toBe("4267309678");
  });
}

for (const ocr of [false, true]) {
  const how = ocr ? "OCR lines" : "text layer";

  test(`${how}: a tradesman's sheet numbered 'Invoice # 88' has number 88; 'Page 1' and 'No. 7' give none`, () => {
    const sheet = (cells: Cell[]): Rows => [
      [60, [["Kevin's Handyman Services", 100, 30]]],
      [150, cells],
      ...sumRows([
        ["Subtotal", "3,302.61"],
        ["Sales Tax (8.25%)", "268.34"],
        ["Invoice Total", "3,520.95"],
      ]),
    ];
    const numberOf = (cells: Cell[]) =>
      extractFields([page(sheet(cells), ocr)], "invoice", defaultProject).invoice_number?.value ?? null;
    expect(
      numberOf([
        ["INVOICE", 100],
        ["Invoice #", 1000],
        ["88", 1400],
      ]),
    ).toBe("88");
    expect(
      numberOf([
        ["INVOICE", 100],
        ["Page", 1000],
        ["1", 1400],
      ]),
    ).toBeNull();
    expect(
      numberOf([
        ["INVOICE", 100],
        ["Item No.", 1000],
        ["7", 1400],
      ]),
    ).toBeNull();
  });

  test(`${how}: "Seller's Permit 385-290721" under the seller's name labels no seller`, () => {
    const rows: Rows = [
      [60, [["GOLDEN STATE", 100, 30]]],
      [100, [["Golden State Pressure Washing Inc.", 1400]]],
      [130, [["325 Main St, Sacramento, CA 95844", 1400]]],
      [160, [["Seller's Permit 385-290721", 1400]]],
      ...sumRows([
        ["Subtotal", "1,304.96"],
        ["Sales Tax (8.75%)", "114.18"],
        ["Total", "1,419.14"],
      ]),
    ];
    const vendor = extractFields([page(rows, ocr)], "invoice", defaultProject).vendor_name?.value;
    expect(vendor).not.toMatch(/Permit/);
  });
}
