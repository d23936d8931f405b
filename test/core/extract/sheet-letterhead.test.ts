/**
 * A tradesman's spreadsheet invoice (fixtures/smallbiz2's handyman sheet measured it first): the title over the
 * seller's name in bold, its row shared with a "Due" cell and its value, the phone and address in smaller type
 * under it. The name is the letterhead; a window address under a title, printed in one size, still is not.
 * Generated pages, text layer and OCR lines.
 */
import { expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { type Cell, page, type Rows, sumRows } from "./page-rows";

const vendorOf = (rows: Rows, ocr: boolean) =>
  extractFields([page(rows, ocr)], "invoice", defaultProject).vendor_name?.value ?? null;

const sheet = (name: Cell[], nameSize: number): Rows => [
  [60, [["INVOICE", 100, 40]]],
  [
    120,
    [
      ["Date", 1400],
      ["10/26/2024", 1700],
    ],
  ],
  [150, [[name[0]![0], 100, nameSize], ...name.slice(1)]],
  [190, [["(580) 902-5555   office@example.com", 100]]],
  [220, [["175 Main St, San Antonio, TX 78236", 100]]],
  ...sumRows([
    ["Subtotal", "3,302.61"],
    ["Sales Tax (8.25%)", "268.34"],
    ["Invoice Total", "3,570.95"],
  ]),
];

for (const ocr of [false, true]) {
  const how = ocr ? "OCR lines" : "text layer";

  test(`${how}: the seller's name in bold over its address, under the title, beside a "Due" cell, is the vendor`, () => {
    const beside: Cell[] = [
      ["Kevin's Handyman Services", 100],
      ["Due", 1400],
      ["11/25/2024", 1700],
    ];
    expect(vendorOf(sheet(beside, 26), ocr)).toBe("Kevin's Handyman Services");
    expect(vendorOf(sheet([["Kevin's Handyman Services", 100]], 26), ocr)).toBe("Kevin's Handyman Services");
  });

  test(`${how}: a name under the title in the type of the address under it is a window address, no letterhead`, () => {
    expect(vendorOf(sheet([["Cedar Ridge Apartments", 100]], 20), ocr)).toBeNull();
    // Nor is a label cell beside its value ("Date 10/26/2024") a name.
    const label: Cell[] = [
      ["Date", 100],
      ["10/26/2024", 1700],
    ];
    expect(vendorOf(sheet(label, 26), ocr)).toBeNull();
  });
}
