/**
 * What an e-invoice's document type code (UNTDID 1001, BT-3) says the document is. The lists are the codes EN 16931
 * allows for invoices and for credit notes: a debit note (383), a corrected (384), prepayment (386), self-billed
 * (389), insurer's (575) or forwarder's (623) invoice are invoices; 381, 396, 261, 262, 532… are credit notes.
 */
const CREDIT_NOTE_CODES = new Set(["81", "83", "261", "262", "296", "308", "381", "396", "420", "458", "532"]);
const INVOICE_CODES = new Set([
  "71",
  "80",
  "82",
  "84",
  "102",
  "218",
  "219",
  "326",
  "331",
  "380",
  "382",
  "383",
  "384",
  "385",
  "386",
  "387",
  "388",
  "389",
  "390",
  "393",
  "394",
  "395",
  "456",
  "457",
  "527",
  "553",
  "575",
  "623",
  "633",
  "751",
  "780",
  "817",
  "870",
  "875",
  "876",
  "877",
  "935",
]);

export type EInvoiceKind = "invoice" | "credit_note";

/** `invoice`, `credit_note`, or null for a code that is neither (or none). */
export function kindOfTypeCode(code: string | null | undefined): EInvoiceKind | null {
  const c = (code ?? "").trim();
  if (CREDIT_NOTE_CODES.has(c)) return "credit_note";
  if (INVOICE_CODES.has(c)) return "invoice";
  return null;
}
