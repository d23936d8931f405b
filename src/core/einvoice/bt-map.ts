/**
 * The EN 16931 semantic model mapped to UBL 2.1 and CII D16B: one table, read by read.ts, written by write.ts, listed
 * in docs/einvoices-export.md. Conventions and simplifications: bt-defs.ts; the groups are in bt-map-parties.ts,
 * bt-map-settlement.ts and bt-map-line.ts.
 */
import {
  AGREEMENT,
  CII_DATE,
  DELIVERY,
  SETTLEMENT,
  allowanceCharge,
  amount,
  bt,
  creditPick,
  date,
  group,
  type BgDef,
  type BtDef,
} from "./bt-defs";
import { buyer, notes, payee, preceding, seller, taxRepresentative } from "./bt-map-parties";
import { delivery, documents, payment, period, vatBreakdownGroup } from "./bt-map-settlement";
import { line } from "./bt-map-line";

export type { BgDef, BtDef, PickContext } from "./bt-defs";

const totals: BtDef[] = [
  amount(
    "BT-106",
    "Sum of invoice line net amount",
    "cac:LegalMonetaryTotal/cbc:LineExtensionAmount",
    `${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:LineTotalAmount`,
  ),
  amount(
    "BT-107",
    "Sum of allowances on document level",
    "cac:LegalMonetaryTotal/cbc:AllowanceTotalAmount",
    `${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:AllowanceTotalAmount`,
  ),
  amount(
    "BT-108",
    "Sum of charges on document level",
    "cac:LegalMonetaryTotal/cbc:ChargeTotalAmount",
    `${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:ChargeTotalAmount`,
  ),
  amount(
    "BT-109",
    "Invoice total amount without VAT",
    "cac:LegalMonetaryTotal/cbc:TaxExclusiveAmount",
    `${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:TaxBasisTotalAmount`,
  ),
  amount(
    "BT-110",
    "Invoice total VAT amount",
    "cac:TaxTotal[cbc:TaxAmount/@currencyID=$BT-5]/cbc:TaxAmount",
    `${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:TaxTotalAmount[@currencyID=$BT-5]`,
  ),
  amount(
    "BT-111",
    "Invoice total VAT amount in accounting currency",
    "cac:TaxTotal[cbc:TaxAmount/@currencyID=$BT-6]/cbc:TaxAmount",
    `${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:TaxTotalAmount[@currencyID=$BT-6]`,
    { currency: "BT-6" },
  ),
  amount(
    "BT-112",
    "Invoice total amount with VAT",
    "cac:LegalMonetaryTotal/cbc:TaxInclusiveAmount",
    `${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:GrandTotalAmount`,
  ),
  amount(
    "BT-113",
    "Paid amount",
    "cac:LegalMonetaryTotal/cbc:PrepaidAmount",
    `${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:TotalPrepaidAmount`,
  ),
  amount(
    "BT-114",
    "Rounding amount",
    "cac:LegalMonetaryTotal/cbc:PayableRoundingAmount",
    `${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:RoundingAmount`,
  ),
  amount(
    "BT-115",
    "Amount due for payment",
    "cac:LegalMonetaryTotal/cbc:PayableAmount",
    `${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation/ram:DuePayableAmount`,
  ),
];

/** The invoice as a whole: document-level BTs (currency first: amounts and predicates refer to it) and every group. */
export const INVOICE: BgDef = group(
  "INVOICE",
  "Invoice",
  false,
  { el: "." },
  { el: "." },
  [
    bt("BT-5", "Invoice currency code", "cbc:DocumentCurrencyCode", `${SETTLEMENT}/ram:InvoiceCurrencyCode`),
    bt("BT-6", "VAT accounting currency code", "cbc:TaxCurrencyCode", `${SETTLEMENT}/ram:TaxCurrencyCode`),
    bt(
      "BT-24",
      "Specification identifier",
      "cbc:CustomizationID",
      "rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID",
    ),
    bt(
      "BT-23",
      "Business process type",
      "cbc:ProfileID",
      "rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID",
    ),
    bt("BT-1", "Invoice number", "cbc:ID", "rsm:ExchangedDocument/ram:ID"),
    date("BT-2", "Invoice issue date", "cbc:IssueDate", `rsm:ExchangedDocument/ram:IssueDateTime/${CII_DATE}`),
    bt("BT-3", "Invoice type code", "cbc:InvoiceTypeCode", "rsm:ExchangedDocument/ram:TypeCode"),
    date(
      "BT-7",
      "Value added tax point date",
      "cbc:TaxPointDate",
      `${SETTLEMENT}/ram:ApplicableTradeTax/ram:TaxPointDate/udt:DateString`,
    ),
    bt(
      "BT-8",
      "Value added tax point date code",
      "cac:InvoicePeriod/cbc:DescriptionCode",
      `${SETTLEMENT}/ram:ApplicableTradeTax/ram:DueDateTypeCode`,
      {
        codes: [
          ["3", "5"],
          ["35", "29"],
          ["432", "72"],
        ],
      },
    ),
    date(
      "BT-9",
      "Payment due date",
      ["cbc:DueDate", "cac:PaymentMeans/cbc:PaymentDueDate"],
      `${SETTLEMENT}/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/${CII_DATE}`,
      { pick: creditPick },
    ),
    bt("BT-10", "Buyer reference", "cbc:BuyerReference", `${AGREEMENT}/ram:BuyerReference`),
    bt(
      "BT-11",
      "Project reference",
      ["cac:ProjectReference/cbc:ID", "cac:AdditionalDocumentReference[cbc:DocumentTypeCode='50']/cbc:ID"],
      `${AGREEMENT}/ram:SpecifiedProcuringProject[!ram:Name='Project reference']/ram:ID`,
      { pick: creditPick },
    ),
    bt(
      "BT-12",
      "Contract reference",
      "cac:ContractDocumentReference/cbc:ID",
      `${AGREEMENT}/ram:ContractReferencedDocument/ram:IssuerAssignedID`,
    ),
    bt(
      "BT-13",
      "Purchase order reference",
      "cac:OrderReference/cbc:ID",
      `${AGREEMENT}/ram:BuyerOrderReferencedDocument/ram:IssuerAssignedID`,
    ),
    bt(
      "BT-14",
      "Sales order reference",
      "cac:OrderReference/cbc:SalesOrderID",
      `${AGREEMENT}/ram:SellerOrderReferencedDocument/ram:IssuerAssignedID`,
    ),
    bt(
      "BT-15",
      "Receiving advice reference",
      "cac:ReceiptDocumentReference/cbc:ID",
      `${DELIVERY}/ram:ReceivingAdviceReferencedDocument/ram:IssuerAssignedID`,
    ),
    bt(
      "BT-16",
      "Despatch advice reference",
      "cac:DespatchDocumentReference/cbc:ID",
      `${DELIVERY}/ram:DespatchAdviceReferencedDocument/ram:IssuerAssignedID`,
    ),
    bt(
      "BT-17",
      "Tender or lot reference",
      "cac:OriginatorDocumentReference/cbc:ID",
      `${AGREEMENT}/ram:AdditionalReferencedDocument[ram:TypeCode='50']/ram:IssuerAssignedID`,
    ),
    bt(
      "BT-18",
      "Invoiced object identifier",
      "cac:AdditionalDocumentReference[cbc:DocumentTypeCode='130']/cbc:ID",
      `${AGREEMENT}/ram:AdditionalReferencedDocument[ram:TypeCode='130']/ram:IssuerAssignedID`,
    ),
    bt(
      "BT-18-1",
      "Invoiced object identifier scheme",
      "cac:AdditionalDocumentReference[cbc:DocumentTypeCode='130']/cbc:ID/@schemeID",
      `${AGREEMENT}/ram:AdditionalReferencedDocument[ram:TypeCode='130']/ram:ReferenceTypeCode`,
    ),
    bt(
      "BT-19",
      "Buyer accounting reference",
      "cbc:AccountingCost",
      `${SETTLEMENT}/ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID`,
    ),
    bt(
      "BT-20",
      "Payment terms",
      "cac:PaymentTerms/cbc:Note",
      `${SETTLEMENT}/ram:SpecifiedTradePaymentTerms/ram:Description`,
    ),
    bt("BT-83", "Remittance information", "cac:PaymentMeans/cbc:PaymentID", `${SETTLEMENT}/ram:PaymentReference`),
    bt(
      "BT-89",
      "Mandate reference identifier",
      "cac:PaymentMeans/cac:PaymentMandate/cbc:ID",
      `${SETTLEMENT}/ram:SpecifiedTradePaymentTerms/ram:DirectDebitMandateID`,
    ),
    bt(
      "BT-90",
      "Bank assigned creditor identifier",
      [
        "cac:AccountingSupplierParty/cac:Party/cac:PartyIdentification[cbc:ID/@schemeID='SEPA']/cbc:ID",
        "cac:PayeeParty/cac:PartyIdentification[cbc:ID/@schemeID='SEPA']/cbc:ID",
      ],
      `${SETTLEMENT}/ram:CreditorReferenceID`,
    ),
    ...totals,
  ],
  [
    notes,
    preceding,
    seller,
    buyer,
    payee,
    taxRepresentative,
    delivery,
    period,
    payment,
    allowanceCharge("BG-20", "Document level allowances", false, 92, {}, { base: SETTLEMENT }, true),
    allowanceCharge("BG-21", "Document level charges", true, 99, {}, { base: SETTLEMENT }, true),
    vatBreakdownGroup,
    documents,
    line,
  ],
);

/** Every BT and BG of the table with its name, for messages and the docs. */
export function allDefs(
  g: BgDef = INVOICE,
  out: Array<{ def: BtDef | BgDef; group: BgDef; path: BgDef[] }> = [],
  path: BgDef[] = [],
): typeof out {
  for (const def of g.bts) out.push({ def, group: g, path });
  for (const sub of g.groups) {
    out.push({ def: sub, group: g, path });
    allDefs(sub, out, [...path, sub]);
  }
  return out;
}
