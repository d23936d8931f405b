/** The small-business family (fixtures/smallbiz) is deterministic, covers every country in every template, and prints its truth. */
import { expect, test } from "bun:test";
import { COUNTRIES, smallBizInvoices, smallBizPdf, TEMPLATES } from "../../../fixtures/smallbiz";

test("the same repository gives the same documents and bytes; every country in every template; the truth is printed", async () => {
  const [a, b] = [smallBizInvoices(), smallBizInvoices()];
  expect(a.map((d) => d.truth)).toEqual(b.map((d) => d.truth));
  expect(await smallBizPdf(a[5]!)).toEqual(await smallBizPdf(b[5]!));
  const pairs = new Set(a.map((d) => `${d.country}/${d.template}`));
  expect(pairs.size).toBe(COUNTRIES.length * TEMPLATES.length);
  for (const d of a) {
    const text = d.layout.pages
      .flat()
      .map((r) => r.text)
      .join("\n")
      .toLowerCase();
    for (const f of ["vendor_name", "customer_name", "invoice_number"])
      expect({ id: d.id, f, printed: text.includes(String(d.truth[f]).toLowerCase()) }).toEqual({
        id: d.id,
        f,
        printed: true,
      });
  }
});
