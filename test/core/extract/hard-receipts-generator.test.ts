/**
 * The receipts-hard generator (fixtures/varied/generator/hard-receipts.ts): deterministic for a seed (truth and PDF
 * bytes), every kind in the set, the truth printed on the receipt (the vendor's words, the total's amount), and
 * most dates ambiguous (a day of 12 or less), so the gate measures the date order.
 */
import { expect, test } from "bun:test";
import { toPdf } from "../../../fixtures/varied/generator";
import { generateHardReceipts } from "../../../fixtures/varied/generator/hard-receipts";

const printed = (doc: ReturnType<typeof generateHardReceipts>[number]) =>
  doc.layout.pages
    .flat()
    .map((r) => r.text.replace(/ /g, ""))
    .join("\n");

test("the same seed gives the same receipts and bytes; every kind is there; the truth is printed", async () => {
  const a = generateHardReceipts(20241121, 30);
  const b = generateHardReceipts(20241121, 30);
  expect(a.map((d) => d.truth)).toEqual(b.map((d) => d.truth));
  expect(await toPdf(a[3]!)).toEqual(await toPdf(b[3]!));
  const kinds = new Set(a.map((d) => d.notes[0]));
  expect([...kinds].sort()).toEqual([
    "euSupermarket",
    "fuelStation",
    "gstInvoice",
    "indonesian",
    "restaurant",
    "usGrocery",
  ]);
  for (const doc of a) {
    const text = printed(doc);
    expect(text).toContain(String(doc.truth.vendor_name).replace(/ /g, "").slice(0, 8));
    const total = Number(doc.truth.total_amount);
    const forms = [
      total.toFixed(2),
      total.toFixed(2).replace(".", ","),
      String(total).replace(/\B(?=(\d{3})+(?!\d))/g, "."),
    ];
    expect(forms.some((f) => text.includes(f))).toBe(true);
  }
  const ambiguous = a.filter((d) => Number(String(d.truth.invoice_date).slice(8)) <= 12).length;
  expect(ambiguous).toBeGreaterThanOrEqual(15);
});
