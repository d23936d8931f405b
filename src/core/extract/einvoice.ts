/**
 * Native e-invoices: ZUGFeRD (1.0 and 2.x) / Factur-X / XRechnung XML in the UN/CEFACT CII syntax or in OASIS UBL
 * (Invoice and CreditNote). Fields read from the XML are authoritative (confidence 1.0) and carry no page boxes.
 *
 * MUST NOT throw on a broken or foreign XML attachment: it returns null and the page-based extraction runs.
 */
import type { XMLParser } from "fast-xml-parser";
import type { FieldValue } from "../model";

export interface EInvoice {
  syntax: "CII" | "UBL";
  filename: string;
  /** Document type code: 380 invoice, 381 credit note... */
  type_code: string | null;
  fields: Record<string, FieldValue>;
}

/**
 * Made on the first e-invoice: every run imports this module (the extract stage), few files carry one, and loading
 * fast-xml-parser took ~6 ms of each start-up. A literal require() is bundled into the compiled binary.
 */
let parser: XMLParser | null = null;
function xmlParser(): XMLParser {
  if (!parser) {
    const { XMLParser: Parser } = require("fast-xml-parser") as typeof import("fast-xml-parser");
    parser = new Parser({
      removeNSPrefix: true,
      ignoreAttributes: false,
      attributeNamePrefix: "@_",
      parseTagValue: false,
      trimValues: true,
    });
  }
  return parser;
}

type Node = any;
/** Follows a path of element names; arrays take their first element. */
function at(node: Node, ...path: string[]): Node {
  let cur = node;
  for (const key of path) {
    if (Array.isArray(cur)) cur = cur[0];
    if (cur === null || typeof cur !== "object") return undefined;
    cur = cur[key];
  }
  return Array.isArray(cur) ? cur[0] : cur;
}
const list = (v: Node): Node[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
function text(node: Node): string | null {
  if (node === undefined || node === null) return null;
  if (typeof node === "object") return node["#text"] !== undefined ? String(node["#text"]).trim() : null;
  const s = String(node).trim();
  return s || null;
}
const num = (node: Node): number | null => {
  const t = text(node);
  const n = t === null ? NaN : Number(t);
  return Number.isFinite(n) ? n : null;
};
/** CII dates are format 102 (YYYYMMDD); UBL dates are ISO already. */
function date(node: Node): string | null {
  const t = text(node);
  if (!t) return null;
  const m = /^(\d{4})-?(\d{2})-?(\d{2})/.exec(t);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

/** The first of several element names that is present (ZUGFeRD 1.0 and CII D16B name the same parts differently). */
function either(node: Node, ...names: string[]): Node {
  for (const n of names) {
    const v = at(node, n);
    if (v !== undefined) return v;
  }
  return undefined;
}

/**
 * Section headings and notes travel as lines of quantity 0 and amount 0 (Odoo's "--- Non Food ---", a delivery
 * note): they are no line items.
 */
const isItem = (l: { quantity: number | null; amount: number | null }) => !(!l.quantity && !l.amount);

/** CII D16B (ZUGFeRD 2.x, Factur-X, XRechnung CII) and, under its older element names, ZUGFeRD 1.0. */
function readCii(root: Node): Omit<EInvoice, "filename"> {
  const doc = either(root, "ExchangedDocument", "HeaderExchangedDocument");
  const tx = either(root, "SupplyChainTradeTransaction", "SpecifiedSupplyChainTradeTransaction");
  const agreement = either(tx, "ApplicableHeaderTradeAgreement", "ApplicableSupplyChainTradeAgreement");
  const settlement = either(tx, "ApplicableHeaderTradeSettlement", "ApplicableSupplyChainTradeSettlement");
  const sums = either(
    settlement,
    "SpecifiedTradeSettlementHeaderMonetarySummation",
    "SpecifiedTradeSettlementMonetarySummation",
  );
  const seller = at(agreement, "SellerTradeParty");
  const sellerAddress = at(seller, "PostalTradeAddress");
  const sellerTax = ciiTaxIds(seller);
  const buyerTax = ciiTaxIds(at(agreement, "BuyerTradeParty"));
  const taxTotal =
    list(sums?.TaxTotalAmount)
      .map(num)
      .find((n) => n !== null) ?? null;
  const lines = list(tx?.IncludedSupplyChainTradeLineItem)
    .map((li) => ({
      description: text(at(li, "SpecifiedTradeProduct", "Name")),
      quantity: num(
        at(either(li, "SpecifiedLineTradeDelivery", "SpecifiedSupplyChainTradeDelivery"), "BilledQuantity"),
      ),
      unit_price: num(
        at(
          either(li, "SpecifiedLineTradeAgreement", "SpecifiedSupplyChainTradeAgreement"),
          "NetPriceProductTradePrice",
          "ChargeAmount",
        ),
      ),
      amount: num(
        at(
          either(
            either(li, "SpecifiedLineTradeSettlement", "SpecifiedSupplyChainTradeSettlement"),
            "SpecifiedTradeSettlementLineMonetarySummation",
            "SpecifiedTradeSettlementMonetarySummation",
          ),
          "LineTotalAmount",
        ),
      ),
    }))
    .filter(isItem);
  const address = [
    text(at(sellerAddress, "LineOne")),
    [text(at(sellerAddress, "PostcodeCode")), text(at(sellerAddress, "CityName"))].filter(Boolean).join(" "),
    text(at(sellerAddress, "CountryID")),
  ]
    .filter(Boolean)
    .join(", ");
  return {
    syntax: "CII",
    type_code: text(at(doc, "TypeCode")),
    fields: {
      invoice_number: text(at(doc, "ID")),
      invoice_date: date(at(doc, "IssueDateTime", "DateTimeString")),
      due_date: date(at(settlement, "SpecifiedTradePaymentTerms", "DueDateDateTime", "DateTimeString")),
      vendor_name: text(at(seller, "Name")),
      vendor_address: address || null,
      vendor_vat_id: sellerTax.vat,
      vendor_tax_id: sellerTax.other,
      customer_name: text(at(agreement, "BuyerTradeParty", "Name")),
      customer_vat_id: buyerTax.vat,
      customer_tax_id: buyerTax.other,
      iban: text(
        at(settlement, "SpecifiedTradeSettlementPaymentMeans", "PayeePartyCreditorFinancialAccount", "IBANID"),
      ),
      currency: text(at(settlement, "InvoiceCurrencyCode")),
      subtotal_amount: num(at(sums, "TaxBasisTotalAmount")),
      tax_amount: taxTotal,
      total_amount: num(at(sums, "GrandTotalAmount")),
      purchase_order_number:
        text(at(agreement, "BuyerOrderReferencedDocument", "IssuerAssignedID")) ??
        text(at(agreement, "BuyerOrderReferencedDocument", "ID")),
      line_items: lines.length ? lines : null,
    },
  };
}

/**
 * A party's VAT registration and its other tax registration (a national tax number, the Swedish "Godkänd för
 * F-skatt" note): they are told apart by scheme, never by order — 9 of 149 real UBL files list the other first.
 */
interface TaxIds {
  vat: string | null;
  other: string | null;
}

/** CII: `SpecifiedTaxRegistration/ID` with schemeID VA is the VAT ID, FC the tax number (BT-31, BT-32, BT-48). */
function ciiTaxIds(party: Node): TaxIds {
  const ids = list(party?.SpecifiedTaxRegistration)
    .map((r) => at(r, "ID"))
    .filter((id) => text(id) !== null);
  const scheme = (id: Node) =>
    String(id?.["@_schemeID"] ?? "")
      .trim()
      .toUpperCase();
  return { vat: text(ids.find((id) => scheme(id) === "VA")), other: text(ids.find((id) => scheme(id) !== "VA")) };
}

/**
 * UBL: the `PartyTaxScheme` whose `TaxScheme/ID` is VAT is the VAT ID (BT-31, BT-48); any other scheme (FC, TAX, a
 * note such as "Godkänd för F-skatt") is the other registration. A scheme left out is a VAT ID when the value reads
 * as one (two letters of a country, then digits or letters).
 */
function ublTaxIds(party: Node): TaxIds {
  const schemes = list(party?.PartyTaxScheme)
    .map((s) => ({ id: text(at(s, "CompanyID")), scheme: (text(at(s, "TaxScheme", "ID")) ?? "").toUpperCase() }))
    .filter((s) => s.id !== null);
  const vat =
    schemes.find((s) => s.scheme === "VAT") ??
    schemes.find((s) => s.scheme === "" && VAT_SHAPE.test(s.id!.replace(/[\s.-]/g, "")));
  return { vat: vat?.id ?? null, other: schemes.find((s) => s !== vat)?.id ?? null };
}
const VAT_SHAPE = /^[A-Z]{2}[0-9A-Z]{2,13}$/;

function readUbl(root: Node, credit: boolean): Omit<EInvoice, "filename"> {
  const supplier = at(root, "AccountingSupplierParty", "Party");
  const supplierTax = ublTaxIds(supplier);
  const customerTax = ublTaxIds(at(root, "AccountingCustomerParty", "Party"));
  const address = at(supplier, "PostalAddress");
  const totals = at(root, "LegalMonetaryTotal");
  const lineTag = credit ? "CreditNoteLine" : "InvoiceLine";
  const qtyTag = credit ? "CreditedQuantity" : "InvoicedQuantity";
  const lines = list(root[lineTag])
    .map((li) => ({
      description: text(at(li, "Item", "Name")) ?? text(at(li, "Item", "Description")),
      quantity: num(at(li, qtyTag)),
      unit_price: num(at(li, "Price", "PriceAmount")),
      amount: num(at(li, "LineExtensionAmount")),
    }))
    .filter(isItem);
  const addr = [
    text(at(address, "StreetName")),
    [text(at(address, "PostalZone")), text(at(address, "CityName"))].filter(Boolean).join(" "),
    text(at(address, "Country", "IdentificationCode")),
  ]
    .filter(Boolean)
    .join(", ");
  return {
    syntax: "UBL",
    type_code: text(root.InvoiceTypeCode ?? root.CreditNoteTypeCode) ?? (credit ? "381" : "380"),
    fields: {
      invoice_number: text(root.ID),
      invoice_date: date(root.IssueDate),
      due_date: date(root.DueDate) ?? date(at(root, "PaymentMeans", "PaymentDueDate")),
      vendor_name:
        text(at(supplier, "PartyLegalEntity", "RegistrationName")) ?? text(at(supplier, "PartyName", "Name")),
      vendor_address: addr || null,
      vendor_vat_id: supplierTax.vat,
      vendor_tax_id: supplierTax.other,
      customer_vat_id: customerTax.vat,
      customer_tax_id: customerTax.other,
      customer_name:
        text(at(root, "AccountingCustomerParty", "Party", "PartyLegalEntity", "RegistrationName")) ??
        text(at(root, "AccountingCustomerParty", "Party", "PartyName", "Name")),
      iban: text(at(root, "PaymentMeans", "PayeeFinancialAccount", "ID")),
      currency: text(root.DocumentCurrencyCode),
      subtotal_amount: num(at(totals, "TaxExclusiveAmount")),
      tax_amount: num(at(root, "TaxTotal", "TaxAmount")),
      total_amount: num(at(totals, "TaxInclusiveAmount")) ?? num(at(totals, "PayableAmount")),
      purchase_order_number: text(at(root, "OrderReference", "ID")),
      line_items: lines.length ? lines : null,
    },
  };
}

/**
 * Reads the first attachment that is a CII or UBL invoice; null when there is none (or it cannot be read). Each
 * answer is a fresh object: callers may change what they get.
 */
export function readEInvoice(attachments: Array<{ filename: string; data: Uint8Array }>): EInvoice | null {
  for (const a of attachments) {
    const read = readOne(a);
    if (read) return structuredClone(read);
  }
  return null;
}

/**
 * What each attachment's bytes hold, parsed once: Classify (the type code) and Extract read the same attachment,
 * Extract twice for a remembered issuer (core/memory), and parsing is ~2.5 ms for a Factur-X XML.
 */
const parsed = new WeakMap<Uint8Array, Map<string, Omit<EInvoice, "filename"> | null>>();

function readOne(a: { filename: string; data: Uint8Array }): EInvoice | null {
  let byName = parsed.get(a.data);
  if (!byName) parsed.set(a.data, (byName = new Map()));
  if (!byName.has(a.filename)) byName.set(a.filename, parseInvoice(a));
  const read = byName.get(a.filename);
  return read ? { filename: a.filename, ...read } : null;
}

function parseInvoice(a: { filename: string; data: Uint8Array }): Omit<EInvoice, "filename"> | null {
  if (!/\.xml$/i.test(a.filename) && !/^\s*</.test(new TextDecoder().decode(a.data.slice(0, 64)))) return null;
  let doc: Node;
  try {
    doc = xmlParser().parse(new TextDecoder().decode(a.data));
  } catch {
    return null;
  }
  if (doc?.CrossIndustryInvoice) return readCii(doc.CrossIndustryInvoice);
  if (doc?.CrossIndustryDocument) return readCii(doc.CrossIndustryDocument);
  if (doc?.Invoice) return readUbl(doc.Invoice, false);
  if (doc?.CreditNote) return readUbl(doc.CreditNote, true);
  return null;
}
