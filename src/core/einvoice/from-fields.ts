/**
 * The BT model of a document docproc extracted: from its fields (any source: scan, photo, born-digital PDF), or,
 * for a document that came as an e-invoice, the source's own model with the fields' corrections laid over it (so a
 * round trip keeps every BT the source carried). Derived terms (line ids, unit code, VAT category and rate, the
 * payable amount) are computed here; what cannot be known stays out and mandatory.ts lists it by BT number.
 */
import type { DocumentResult, FieldValue } from "../model";
import { countryOfVatId, parseAddress } from "./address";
import { emptyNode, groupAt, type BtNode } from "./model";
import { vatBreakdown, money, lineItems, toNumber } from "./from-fields-amounts";

/**
 * Fields of the default project (and optional ones a project may define) and the BT each fills. `path` is the
 * single group the BT sits in.
 */
export const FIELD_BTS: Array<{ field: string; bt: string; path: string[]; kind?: "date" | "amount" | "id" }> = [
  { field: "invoice_number", bt: "BT-1", path: [] },
  { field: "invoice_date", bt: "BT-2", path: [], kind: "date" },
  { field: "due_date", bt: "BT-9", path: [], kind: "date" },
  { field: "currency", bt: "BT-5", path: [], kind: "id" },
  { field: "buyer_reference", bt: "BT-10", path: [] },
  { field: "contract_number", bt: "BT-12", path: [] },
  { field: "purchase_order_number", bt: "BT-13", path: [] },
  { field: "payment_terms", bt: "BT-20", path: [] },
  { field: "vendor_name", bt: "BT-27", path: ["BG-4"] },
  { field: "vendor_vat_id", bt: "BT-31", path: ["BG-4"], kind: "id" },
  { field: "vendor_tax_id", bt: "BT-32", path: ["BG-4"] },
  { field: "vendor_tax_number", bt: "BT-32", path: ["BG-4"] },
  { field: "vendor_email", bt: "BT-43", path: ["BG-4", "BG-6"] },
  { field: "vendor_phone", bt: "BT-42", path: ["BG-4", "BG-6"] },
  { field: "customer_name", bt: "BT-44", path: ["BG-7"] },
  { field: "customer_vat_id", bt: "BT-48", path: ["BG-7"], kind: "id" },
  { field: "subtotal_amount", bt: "BT-109", path: [], kind: "amount" },
  { field: "tax_amount", bt: "BT-110", path: [], kind: "amount" },
  { field: "total_amount", bt: "BT-112", path: [], kind: "amount" },
];

/** Address fields and the address group they fill. */
const ADDRESS_FIELDS: Array<{
  field: string;
  path: string[];
  bts: [string, string, string, string, string, string, string];
}> = [
  {
    field: "vendor_address",
    path: ["BG-4", "BG-5"],
    bts: ["BT-35", "BT-36", "BT-162", "BT-37", "BT-38", "BT-39", "BT-40"],
  },
  {
    field: "customer_address",
    path: ["BG-7", "BG-8"],
    bts: ["BT-50", "BT-51", "BT-163", "BT-52", "BT-53", "BT-54", "BT-55"],
  },
];

const str = (v: FieldValue | undefined): string | undefined => {
  if (v === null || v === undefined || Array.isArray(v)) return undefined;
  const s = String(v).trim();
  return s || undefined;
};

function fieldValue(doc: DocumentResult, id: string): FieldValue | undefined {
  return doc.fields[id]?.value ?? undefined;
}

function normalised(kind: string | undefined, value: string): string {
  if (kind === "id") return value.replace(/[\s.-]/g, "").toUpperCase();
  if (kind === "amount") return money(Math.abs(toNumber(value) ?? 0));
  return value;
}

function sameValue(kind: string | undefined, a: string, b: string): boolean {
  if (kind === "amount")
    return toNumber(a) !== null && Math.abs(Math.abs(toNumber(a)!) - Math.abs(toNumber(b) ?? NaN)) < 0.005;
  if (kind === "id") return normalised(kind, a) === normalised(kind, b);
  return a.trim() === b.trim();
}

/**
 * Lays the document's simple fields over `data`. For a document that came as an e-invoice, `read` holds the fields
 * extraction read from that e-invoice: a field still equal to it is no correction (extraction's own choices, such as
 * the first tax total, must not overwrite the term the source carries); one that differs is written to its BT.
 */
function applyFields(doc: DocumentResult, data: BtNode, read: Record<string, FieldValue> | null): string[] {
  const changed: string[] = [];
  for (const m of FIELD_BTS) {
    const v = str(fieldValue(doc, m.field));
    if (v === undefined) continue;
    const was = read ? str(read[m.field] ?? undefined) : undefined;
    if (read && was !== undefined && sameValue(m.kind, was, v)) continue;
    const node = groupAt(data, m.path, true)!;
    const had = node.values[m.bt];
    if (had !== undefined && sameValue(m.kind, had, v)) continue;
    node.values[m.bt] = normalised(m.kind, v);
    if (read) changed.push(m.bt);
  }
  return changed;
}

function applyAddress(doc: DocumentResult, data: BtNode): void {
  for (const a of ADDRESS_FIELDS) {
    const text = str(fieldValue(doc, a.field));
    if (!text) continue;
    const parsed = parseAddress(text);
    const node = groupAt(data, a.path, true)!;
    const [l1, l2, l3, city, post, sub, country] = a.bts;
    const set = (bt: string, v: string | undefined) => v && (node.values[bt] = v);
    set(l1, parsed.lines[0]);
    set(l2, parsed.lines[1]);
    set(l3, parsed.lines.slice(2).join(", ") || undefined);
    set(city, parsed.city);
    set(post, parsed.postcode);
    set(sub, parsed.subdivision);
    set(country, parsed.country);
  }
}

function applyPayment(doc: DocumentResult, data: BtNode): void {
  const iban = str(fieldValue(doc, "iban"))?.replace(/\s/g, "").toUpperCase();
  if (!iban) return;
  const means = (data.groups["BG-16"] ??= []);
  const first = means[0];
  if (first && (first.values["BT-84"] ?? "").replace(/\s/g, "").toUpperCase() === iban) return;
  // 58 = SEPA credit transfer (an IBAN in euro), else 30 = credit transfer (UNTDID 4461).
  const code = data.values["BT-5"] === "EUR" ? "58" : "30";
  const node: BtNode = { values: { "BT-81": first?.values["BT-81"] ?? code, "BT-84": iban }, groups: {} };
  if (first) means[0] = { ...first, values: { ...first.values, "BT-84": iban } };
  else means.push(node);
}

/** Seller country from the VAT id when the address does not name one. */
function deriveCountries(data: BtNode): void {
  const seller = groupAt(data, ["BG-4"], false);
  const vat = seller?.values["BT-31"];
  const address = groupAt(data, ["BG-4", "BG-5"], false);
  if (vat && !address?.values["BT-40"]) {
    const c = countryOfVatId(vat);
    if (c) groupAt(data, ["BG-4", "BG-5"], true)!.values["BT-40"] = c;
  }
  const buyerVat = groupAt(data, ["BG-7"], false)?.values["BT-48"];
  if (buyerVat && !groupAt(data, ["BG-7", "BG-8"], false)?.values["BT-55"]) {
    const c = countryOfVatId(buyerVat);
    if (c) groupAt(data, ["BG-7", "BG-8"], true)!.values["BT-55"] = c;
  }
}

export interface BuiltModel {
  data: BtNode;
  /** Survivable remarks (a summary line instead of lines that do not add up...). */
  notes: string[];
  /** BTs a review changed on a document that came as an e-invoice. */
  corrected: string[];
}

/** The e-invoice a document came as: its BT model and the fields extraction read from it. */
export interface SourceInvoice {
  data: BtNode;
  read: Record<string, FieldValue>;
}

/**
 * The model for `doc`: `source` is the e-invoice it came as (null for any other document). `defaults` (BT id →
 * value, from the profile) fill what the document leaves empty.
 */
export function modelOfDocument(
  doc: DocumentResult,
  source: SourceInvoice | null,
  defaults: Record<string, string> = {},
  defaultPaths: Record<string, string[]> = {},
): BuiltModel {
  const notes: string[] = [];
  if (source) {
    const data = structuredClone(source.data);
    const corrected = applyFields(doc, data, source.read);
    applyDefaults(data, defaults, defaultPaths);
    return { data, notes, corrected };
  }
  const data = emptyNode();
  const credit = doc.classification.class_id === "credit_note";
  data.values["BT-3"] = credit ? "381" : "380";
  applyFields(doc, data, null);
  applyAddress(doc, data);
  applyDefaults(data, defaults, defaultPaths);
  deriveCountries(data);
  applyPayment(doc, data);
  vatBreakdown(data, notes);
  lineItems(data, fieldValue(doc, "line_items"), doc.classification.class_id, notes);
  return { data, notes, corrected: [] };
}

function applyDefaults(data: BtNode, defaults: Record<string, string>, paths: Record<string, string[]>): void {
  for (const [bt, value] of Object.entries(defaults)) {
    const path = paths[bt];
    if (!path || !value) continue;
    const node = groupAt(data, path, true)!;
    if (node.values[bt] === undefined) node.values[bt] = value;
  }
}
