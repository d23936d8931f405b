/**
 * From extracted fields to the BT model: addresses and countries, the VAT breakdown and rate, lines that do or do not
 * add up, review corrections over a source e-invoice, and the readiness results a Review step shows.
 */
import { describe, expect, test } from "bun:test";
import { countryCode, countryOfVatId, parseAddress } from "../../../src/core/einvoice/address";
import { modelOfDocument } from "../../../src/core/einvoice/from-fields";
import { vatRate } from "../../../src/core/einvoice/from-fields-amounts";
import { brokenTotals, missingTerms } from "../../../src/core/einvoice/mandatory";
import { defaultablePaths } from "../../../src/core/einvoice/defaults";
import { srgbIccProfile } from "../../../src/core/einvoice/icc";
import { DEFAULT_PROJECT_RAW } from "../../../src/core/project/default";
import { parseProjectSettings } from "../../../src/core/project";
import { validateDocument } from "../../../src/core/stages/validate";
import { reviewNeeded } from "../../../src/core/stages/review/stage";
import type { DocumentResult, FieldValue } from "../../../src/core/model";
import { field } from "../exporters/fixtures";

function doc(classId: string, values: Record<string, FieldValue>): DocumentResult {
  return {
    document_id: "d1",
    document_index: 0,
    document_type: classId,
    classification_confidence: 1,
    classification: {
      class_id: classId,
      type: classId,
      confidence: 1,
      reasoning: "",
      alternatives: [],
      confirmed: null,
      review_required: false,
    },
    split: {
      mode: "auto",
      policy: "inherit",
      confidence: 1,
      reason: "",
      review_required: false,
      page_numbers: [1],
      source_file_indexes: [0],
    },
    fields: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, field(k, v)])),
  } as DocumentResult;
}

const invoice = {
  invoice_number: "A-1",
  invoice_date: "2024-02-01",
  due_date: "2024-03-01",
  currency: "eur",
  vendor_name: "Lieferant GmbH",
  vendor_address: "Hauptstraße 5, 80331 München, Deutschland",
  vendor_vat_id: "DE 123 456 789",
  customer_name: "Kunde AG",
  subtotal_amount: 100,
  tax_amount: 19,
  total_amount: 119,
  iban: "DE89 3704 0044 0532 0130 00",
  line_items: [
    { description: "Work", quantity: 2, unit_price: 30, amount: 60 },
    { description: "Parts", quantity: 4, unit_price: 10, amount: 40 },
  ],
};

describe("addresses and countries", () => {
  test("street, post code, city and country in the styles invoices print", () => {
    expect(parseAddress("Keizersgracht 1, 1015 CJ Amsterdam, Nederland")).toEqual({
      lines: ["Keizersgracht 1"],
      postcode: "1015 CJ",
      city: "Amsterdam",
      country: "NL",
    });
    expect(parseAddress("1 Main Street, Springfield, IL 62704, USA")).toEqual({
      lines: ["1 Main Street"],
      subdivision: "IL",
      postcode: "62704",
      city: "Springfield",
      country: "US",
    });
    expect(parseAddress("10 Downing Street, London SW1A 2AA, United Kingdom")).toMatchObject({
      postcode: "SW1A 2AA",
      city: "London",
      country: "GB",
    });
    expect(parseAddress("12 rue de la Paix, 75002 Paris France")).toMatchObject({
      postcode: "75002",
      city: "Paris",
      country: "FR",
    });
    expect(parseAddress("Lindenstr. 5, D-80331 München")).toEqual({
      lines: ["Lindenstr. 5"],
      postcode: "80331",
      city: "München",
    });
    expect(parseAddress("Somewhere")).toEqual({ lines: ["Somewhere"] });
  });

  test("country names in several languages, withdrawn codes never, VAT prefixes", () => {
    expect(["Germany", "Österreich", "Belgique", "Spagna", "the Netherlands", "UK"].map(countryCode)).toEqual([
      "DE",
      "AT",
      "BE",
      "ES",
      "NL",
      "GB",
    ]);
    expect(countryCode("Yugoslavia")).toBeUndefined();
    expect(["EL 123", "DE123456789", "XI 123", "12345"].map(countryOfVatId)).toEqual(["GR", "DE", "GB", undefined]);
  });
});

describe("the model of an invoice read from pages", () => {
  test("complete fields give a complete EN 16931 invoice with consistent totals", () => {
    const { data } = modelOfDocument(doc("invoice", invoice), null, { "BT-55": "DE" }, defaultablePaths());
    expect(data.values).toMatchObject({
      "BT-1": "A-1",
      "BT-3": "380",
      "BT-5": "EUR",
      "BT-106": "100.00",
      "BT-109": "100.00",
      "BT-110": "19.00",
      "BT-112": "119.00",
      "BT-115": "119.00",
    });
    expect(data.groups["BG-4"]![0]!.values).toMatchObject({ "BT-27": "Lieferant GmbH", "BT-31": "DE123456789" });
    expect(data.groups["BG-4"]![0]!.groups["BG-5"]![0]!.values).toEqual({
      "BT-35": "Hauptstraße 5",
      "BT-37": "München",
      "BT-38": "80331",
      "BT-40": "DE",
    });
    expect(data.groups["BG-16"]![0]!.values).toEqual({ "BT-81": "58", "BT-84": "DE89370400440532013000" });
    expect(data.groups["BG-23"]![0]!.values).toEqual({
      "BT-116": "100.00",
      "BT-117": "19.00",
      "BT-118": "S",
      "BT-119": "19",
    });
    expect(data.groups["BG-25"]!.map((l) => l.values)).toEqual([
      {
        "BT-126": "1",
        "BT-129": "2",
        "BT-130": "C62",
        "BT-131": "60.00",
        "BT-146": "30",
        "BT-153": "Work",
        "BT-151": "S",
        "BT-152": "19",
      },
      {
        "BT-126": "2",
        "BT-129": "4",
        "BT-130": "C62",
        "BT-131": "40.00",
        "BT-146": "10",
        "BT-153": "Parts",
        "BT-151": "S",
        "BT-152": "19",
      },
    ]);
    expect(missingTerms(data, "en16931")).toEqual([]);
    expect(brokenTotals(data)).toEqual([]);
  });

  test("lines with gross prices do not add up to the net total: one summary line keeps the invoice valid", () => {
    const gross = {
      ...invoice,
      line_items: [
        { description: "Work", quantity: 1, unit_price: 71.4, amount: 71.4 },
        { description: "Parts", quantity: 1, unit_price: 47.6, amount: 47.6 },
      ],
    };
    const built = modelOfDocument(doc("invoice", gross), null, {}, defaultablePaths());
    expect(built.data.groups["BG-25"]!.map((l) => l.values["BT-131"])).toEqual(["100.00"]);
    expect(built.data.groups["BG-25"]![0]!.values["BT-153"]).toBe("Invoice A-1");
    expect(built.notes.join()).toContain("add up to 119.00, not to the net total 100.00");
    expect(brokenTotals(built.data)).toEqual([]);
  });

  test("totals complete each other; a missing VAT total is listed, not invented", () => {
    const { data } = modelOfDocument(
      doc("receipt", { total_amount: 11.9, tax_amount: 1.9, currency: "EUR" }),
      null,
      {},
      defaultablePaths(),
    );
    expect([data.values["BT-109"], data.values["BT-112"]]).toEqual(["10.00", "11.90"]);
    const onlyTotal = modelOfDocument(doc("receipt", { total_amount: 11.9 }), null, {}, defaultablePaths()).data;
    expect(missingTerms(onlyTotal, "en16931").map((f) => f.id)).toEqual(
      expect.arrayContaining(["BT-109", "BG-23", "BT-5", "BT-27", "BT-55"]),
    );
  });

  test("a credit note keeps positive amounts with type code 381", () => {
    const { data } = modelOfDocument(
      doc("credit_note", { ...invoice, subtotal_amount: -100, tax_amount: -19, total_amount: -119, line_items: null }),
      null,
      {},
      defaultablePaths(),
    );
    expect([data.values["BT-3"], data.values["BT-109"], data.values["BT-112"]]).toEqual(["381", "100.00", "119.00"]);
  });

  test("VAT rates: whole and half percents where they reproduce the VAT, the exact rate otherwise", () => {
    expect([
      vatRate(100, 19),
      vatRate(84.03, 15.97),
      vatRate(200, 11),
      vatRate(100, 5.5),
      vatRate(100, 7.7),
      vatRate(1000, 123.45),
    ]).toEqual([19, 19, 5.5, 5.5, 7.7, 12.35]);
  });

  test("over a source e-invoice only corrections are written: a field equal to what was read leaves the term alone", () => {
    const source = {
      values: { "BT-1": "X-9", "BT-110": "22.04", "BT-5": "EUR" },
      groups: { "BG-4": [{ values: { "BT-27": "Seller", "BT-32": "12/345" }, groups: {} }] },
    };
    const read = { invoice_number: "X-9", tax_amount: 123.45, vendor_vat_id: "12/345" }; // extraction's reading differs from the BTs
    const reviewed = doc("invoice", { invoice_number: "X-10", tax_amount: 123.45, vendor_vat_id: "12/345" });
    const { data, corrected } = modelOfDocument(reviewed, { data: source, read }, {}, defaultablePaths());
    expect(corrected).toEqual(["BT-1"]);
    expect([data.values["BT-1"], data.values["BT-110"]]).toEqual(["X-10", "22.04"]);
    expect(data.groups["BG-4"]![0]!.values["BT-31"]).toBeUndefined();
  });
});

describe("readiness for a project with an e-invoice profile", () => {
  const project = (review: boolean, defaults: Record<string, string> = {}) =>
    parseProjectSettings({
      ...DEFAULT_PROJECT_RAW,
      export_profiles: [{ id: "xr", name: "XRechnung", output_format: "ubl", options: { defaults } }],
      workflow: (DEFAULT_PROJECT_RAW.workflow as Array<Record<string, unknown>>).map((s) =>
        s.type === "review" ? { ...s, enabled: review } : s,
      ),
    });

  test("with a Review step the missing terms are a warning naming the fields, and the document is flagged", () => {
    const d = doc("invoice", { ...invoice, vendor_address: null, vendor_vat_id: null });
    const validation = validateDocument(d, project(true))!;
    const rule = validation.rule_results.find((r) => r.rule_id === "einvoice:xr")!;
    expect(rule.status).toBe("warning");
    expect(rule.message).toContain("BT-40 Country code (Seller postal address)");
    expect(rule.message).toContain("BT-55 Country code (Buyer postal address)");
    expect(rule.message).toContain("BT-31 Seller VAT identifier");
    expect(rule.field_ids).toEqual(["vendor_address", "vendor_vat_id"]);
    d.validation = validation;
    expect(
      reviewNeeded(
        { when: "review_required", instructions: "", timeout_hours: 1, timeout_action: "continue" },
        [d],
        [],
      ),
    ).toBe(true);
  });

  test("complete data (defaults included) or no Review step: nothing added", () => {
    expect(
      validateDocument(doc("invoice", invoice), project(true, { "BT-55": "DE" }))?.rule_results.filter((r) =>
        r.rule_id.startsWith("einvoice:"),
      ) ?? [],
    ).toEqual([]);
    expect(
      validateDocument(doc("invoice", { ...invoice, vendor_address: null }), project(false))?.rule_results.filter((r) =>
        r.rule_id.startsWith("einvoice:"),
      ) ?? [],
    ).toEqual([]);
  });
});

test("the sRGB output-intent profile is a well-formed ICC v2 display profile", () => {
  const icc = srgbIccProfile();
  const view = new DataView(icc.buffer, icc.byteOffset, icc.byteLength);
  expect(view.getUint32(0)).toBe(icc.byteLength);
  expect(new TextDecoder().decode(icc.subarray(12, 24))).toBe("mntrRGB XYZ ");
  expect(new TextDecoder().decode(icc.subarray(36, 40))).toBe("acsp");
  expect(view.getUint32(128)).toBe(9);
});

test("docs/einvoices-export.md carries the BT mapping table of the code (scripts/einvoice-bt-table.ts writes it)", async () => {
  const { withBtTable } = await import("../../../src/core/einvoice/bt-table-doc");
  const doc = await Bun.file(new URL("../../../docs/einvoices-export.md", import.meta.url)).text();
  expect(withBtTable(doc)).toBe(doc);
  expect(doc).toContain("| BT-84 | Payment account identifier (IBAN) |");
});
