/**
 * A standalone e-invoice XML file (XRechnung/UBL, CII, ZUGFeRD 1.0) as input: one text page that prints what the
 * XML says (so classification, review and the page-based fields have something to read), with the XML itself as
 * the file's attachment, which extraction reads first (extract/einvoice.ts).
 *
 * Contract: returns null for anything that is not such an XML, so the caller reports the format as unsupported.
 */
import type { ConvertedFile } from "../model.ts";
import { readEInvoice } from "../extract/einvoice.ts";
import { convertText } from "./supplied.ts";
import { pushAll } from "../arrays";
import { kindOfTypeCode } from "../classify/type-codes.ts";

const LABELS: Array<[string, string]> = [
  ["invoice_number", "Invoice number"],
  ["invoice_date", "Invoice date"],
  ["due_date", "Due date"],
  ["vendor_name", "Seller"],
  ["vendor_address", "Seller address"],
  ["vendor_vat_id", "Seller VAT ID"],
  ["vendor_tax_id", "Seller tax number"],
  ["customer_name", "Buyer"],
  ["customer_vat_id", "Buyer VAT ID"],
  ["iban", "IBAN"],
  ["purchase_order_number", "Order number"],
  ["subtotal_amount", "Subtotal"],
  ["tax_amount", "Tax"],
  ["total_amount", "Total"],
];

export function convertEInvoiceXml(
  data: Uint8Array,
  filename: string,
  firstPageNumber: number,
  sourceFileIndex: number,
): ConvertedFile | null {
  const head = new TextDecoder()
    .decode(data.subarray(0, 512))
    .replace(/^\uFEFF/, "")
    .trimStart();
  if (!head.startsWith("<")) return null;
  const e = readEInvoice([{ filename, data }]);
  if (!e) return null;
  const credit = kindOfTypeCode(e.type_code) === "credit_note";
  const lines = [
    `${credit ? "Credit note" : "Invoice"} (${e.syntax} e-invoice XML${e.type_code ? `, type code ${e.type_code}` : ""})`,
    "",
  ];
  const currency = typeof e.fields.currency === "string" ? ` ${e.fields.currency}` : "";
  for (const [id, label] of LABELS) {
    const v = e.fields[id];
    if (v === null || v === undefined || typeof v === "object") continue;
    lines.push(`${label}: ${v}${typeof v === "number" ? currency : ""}`);
  }
  const items = Array.isArray(e.fields.line_items) ? e.fields.line_items : [];
  if (items.length)
    pushAll(lines, [
      "",
      "Description  Quantity  Unit price  Amount",
      ...items.map((r) => `${r.description ?? ""}  ${r.quantity ?? ""}  ${r.unit_price ?? ""}  ${r.amount ?? ""}`),
    ]);
  const file = convertText(lines.join("\n"), firstPageNumber, { filename, sourceFileIndex });
  return { ...file, content_type: "application/xml", attachments: [{ filename, data }] };
}
