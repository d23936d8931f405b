/**
 * The embedded default project (raw settings; `project/index.ts` validates it into `defaultProject`).
 * Labels are multilingual (en, de, fr, nl, es, it, pl) and generic: nothing here names a vendor.
 * Within a label list the most specific label comes first; the extractor trusts earlier labels more.
 */
import { AMOUNT_FIELDS } from "./amounts";
import { BILLING_CLASSES } from "./billing-classes";
import { documentDate, DUE_DATE } from "./dates";
import { ID_NOT_AFTER, invoiceNumber, PURCHASE_ORDER_NUMBER } from "./identifiers";
import { LINE_ITEMS } from "./line-items";
import { OTHER_CLASSES } from "./other-classes";
import { PARTY_FIELDS } from "./parties";

/**
 * The fields of a billing document; only the date's name depends on the kind. Each kind gets its own copy, so a
 * change to one class's fields in the raw settings never reaches another's.
 */
const fieldsOfInvoice = (kind: "invoice" | "receipt" | "credit_note") => [
  invoiceNumber,
  documentDate(kind),
  ...structuredClone([DUE_DATE, ...PARTY_FIELDS, ...AMOUNT_FIELDS, PURCHASE_ORDER_NUMBER, LINE_ITEMS]),
];

export const DEFAULT_PROJECT_RAW: Record<string, unknown> = {
  name: "Default project",
  locale: "auto",
  classes: [...BILLING_CLASSES, ...OTHER_CLASSES],
  fields: {
    invoice: fieldsOfInvoice("invoice"),
    credit_note: fieldsOfInvoice("credit_note"),
    receipt: fieldsOfInvoice("receipt"),
    purchase_order: [
      {
        ...invoiceNumber,
        id: "purchase_order_number",
        name: "Purchase order number",
        hints: {
          recognizer: "identifier",
          labels: [
            "purchase order number",
            "purchase order no",
            "po number",
            "po no",
            "order number",
            "order no",
            "bestellnummer",
            "bestellnr",
            "bestelnummer",
            "numéro de commande",
            "commande n°",
            "numer zamówienia",
            "purchase order",
            "order",
          ],
          exclude_after: ID_NOT_AFTER,
        },
      },
      {
        id: "order_date",
        name: "Order date",
        type: "date",
        hints: {
          labels: [
            "order date",
            "po date",
            "bestelldatum",
            "besteldatum",
            "date de commande",
            "data zamówienia",
            "date",
            "datum",
          ],
          fallback_first: true,
        },
      },
      {
        id: "vendor_name",
        name: "Vendor name",
        type: "string",
        hints: {
          recognizer: "party",
          fallback_first: true,
          labels: ["vendor", "supplier", "lieferant", "leverancier", "fournisseur", "dostawca"],
        },
      },
      { id: "currency", name: "Currency", type: "string", hints: { recognizer: "currency" } },
      {
        id: "total_amount",
        name: "Total amount",
        type: "amount",
        hints: {
          labels: ["grand total", "total amount", "order total", "gesamtbetrag", "totaal", "total", "summe"],
          exclude_before: ["sub"],
          exclude_after: ["net", "netto", "ht", "excl"],
        },
      },
    ],
    contract: [
      {
        id: "contract_date",
        name: "Contract date",
        type: "date",
        hints: { labels: ["dated", "date", "datum", "effective date", "signed on"], fallback_first: true },
      },
    ],
    letter: [
      {
        id: "letter_date",
        name: "Letter date",
        type: "date",
        hints: { labels: ["date", "datum", "dated"], fallback_first: true },
      },
    ],
  },
  split: {},
  validation_rules: [
    {
      id: "invoice_number_required",
      type: "required",
      field: "invoice_number",
      class_ids: ["invoice", "credit_note"],
      severity: "warning",
    },
    {
      id: "total_required",
      type: "required",
      field: "total_amount",
      class_ids: ["invoice", "credit_note", "receipt"],
      severity: "warning",
    },
    {
      id: "subtotal_plus_tax_is_total",
      type: "sum_equals",
      fields: ["subtotal_amount", "tax_amount"],
      total: "total_amount",
      tolerance: 0.02,
    },
    // Gross line prices (tax included, as till receipts and consumer shops print them) add up to the total instead.
    {
      id: "line_items_sum_to_subtotal",
      type: "table_sum_equals",
      table: "line_items",
      column: "amount",
      total: "subtotal_amount",
      or_totals: ["total_amount"],
      tolerance: 0.02,
    },
    { id: "due_date_not_before_invoice_date", type: "date_order", before: "invoice_date", after: "due_date" },
    { id: "currency_is_iso_4217", type: "pattern", field: "currency", pattern: "^[A-Z]{3}$" },
    {
      id: "invoice_number_unique",
      type: "unique_in_transaction",
      field: "invoice_number",
      class_ids: ["invoice", "credit_note"],
    },
  ],
  review_thresholds: {},
  export_profiles: [{ id: "json", name: "JSON results", output_format: "json" }],
  workflow: [
    { type: "split" },
    { type: "classify" },
    { type: "extract" },
    { type: "validate" },
    // Present but disabled: integrations that never review are not paused (docs/review.md).
    { type: "review", enabled: false, when: "review_required", timeout_hours: 24, timeout_action: "continue" },
    { type: "export" },
    { type: "notification", id: "notify", name: "Notification", activity: null },
  ],
};
