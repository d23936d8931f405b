/**
 * The EN 16931 semantic model mapped to UBL 2.1 and CII D16B: one table, read by read.ts, written by write.ts, listed
 * in docs/einvoices-export.md. Conventions and simplifications: bt-defs.ts.
 */
import {
  AGREEMENT,
  CII_DATE,
  DELIVERY,
  SETTLEMENT,
  UBL_VAT_CATEGORY,
  address,
  allowanceCharge,
  amount,
  bt,
  byScheme,
  creditPick,
  date,
  group,
  ibanLike,
  party,
  type BgDef,
  type BtDef,
} from "./bt-defs";

export type { BgDef, BtDef, PickContext } from "./bt-defs";

const notes = group(
  "BG-1",
  "Invoice note",
  true,
  { el: "cbc:Note" },
  { base: "rsm:ExchangedDocument", el: "ram:IncludedNote" },
  [
    // UBL carries the subject code inside the text ("#AAI#text", the EN 16931 syntax binding): read.ts/write.ts split it.
    bt("BT-21", "Invoice note subject code", undefined, "ram:SubjectCode"),
    bt("BT-22", "Invoice note", ".", "ram:Content"),
  ],
);

const preceding = group(
  "BG-3",
  "Preceding invoice reference",
  true,
  { el: "cac:BillingReference/cac:InvoiceDocumentReference" },
  { base: SETTLEMENT, el: "ram:InvoiceReferencedDocument" },
  [
    bt("BT-25", "Preceding invoice reference", "cbc:ID", "ram:IssuerAssignedID"),
    date("BT-26", "Preceding invoice issue date", "cbc:IssueDate", "ram:FormattedIssueDateTime/qdt:DateTimeString"),
  ],
);

const seller = party("BG-4", "Seller", "cac:AccountingSupplierParty/cac:Party", `${AGREEMENT}/ram:SellerTradeParty`, {
  name: 27,
  trading: 28,
  id: 29,
  legal: 30,
  vat: 31,
  legalInfo: 33,
  endpoint: 34,
  ids: true,
  address: ["BG-5", [35, 36, 162, 37, 38, 39, 40]],
  contact: ["BG-6", [41, 42, 43]],
});

const buyer = party("BG-7", "Buyer", "cac:AccountingCustomerParty/cac:Party", `${AGREEMENT}/ram:BuyerTradeParty`, {
  name: 44,
  trading: 45,
  id: 46,
  legal: 47,
  vat: 48,
  endpoint: 49,
  ids: true,
  address: ["BG-8", [50, 51, 163, 52, 53, 54, 55]],
  contact: ["BG-9", [56, 57, 58]],
});

const payee = group(
  "BG-10",
  "Payee",
  false,
  { el: "cac:PayeeParty" },
  { el: `${SETTLEMENT}/ram:PayeeTradeParty` },
  [
    bt("BT-59", "Payee name", "cac:PartyName/cbc:Name", "ram:Name"),
    bt(
      "BT-61",
      "Payee legal registration identifier",
      "cac:PartyLegalEntity/cbc:CompanyID",
      "ram:SpecifiedLegalOrganization/ram:ID",
    ),
    bt(
      "BT-61-1",
      "Payee legal registration scheme",
      "cac:PartyLegalEntity/cbc:CompanyID/@schemeID",
      "ram:SpecifiedLegalOrganization/ram:ID/@schemeID",
    ),
  ],
  [
    group(
      "BG-10-ID",
      "Payee identifier",
      true,
      { el: "cac:PartyIdentification[cbc:ID/@schemeID!='SEPA']" },
      { el: ["ram:ID", "ram:GlobalID"] },
      [
        bt("BT-60", "Payee identifier", "cbc:ID", "."),
        bt("BT-60-1", "Payee identifier scheme", "cbc:ID/@schemeID", "@schemeID"),
      ],
      [],
      byScheme("BT-60-1"),
    ),
  ],
);

const taxRepresentative = group(
  "BG-11",
  "Seller tax representative",
  false,
  { el: "cac:TaxRepresentativeParty" },
  { el: `${AGREEMENT}/ram:SellerTaxRepresentativeTradeParty` },
  [
    bt("BT-62", "Tax representative name", "cac:PartyName/cbc:Name", "ram:Name"),
    bt(
      "BT-63",
      "Tax representative VAT identifier",
      "cac:PartyTaxScheme[!cac:TaxScheme/cbc:ID='VAT']/cbc:CompanyID",
      "ram:SpecifiedTaxRegistration[ram:ID/@schemeID='VA']/ram:ID",
    ),
  ],
  [
    address(
      "BG-12",
      "Tax representative postal address",
      "cac:PostalAddress",
      "ram:PostalTradeAddress",
      [64, 65, 164, 66, 67, 68, 69],
    ),
  ],
);

const delivery = group(
  "BG-13",
  "Delivery information",
  false,
  { el: "cac:Delivery" },
  { el: DELIVERY },
  [
    bt("BT-70", "Deliver to party name", "cac:DeliveryParty/cac:PartyName/cbc:Name", "ram:ShipToTradeParty/ram:Name"),
    bt(
      "BT-71",
      "Deliver to location identifier",
      "cac:DeliveryLocation/cbc:ID",
      ["ram:ShipToTradeParty/ram:ID", "ram:ShipToTradeParty/ram:GlobalID"],
      { pick: byScheme("BT-71-1") },
    ),
    bt(
      "BT-71-1",
      "Deliver to location scheme",
      "cac:DeliveryLocation/cbc:ID/@schemeID",
      "ram:ShipToTradeParty/ram:GlobalID/@schemeID",
    ),
    date(
      "BT-72",
      "Actual delivery date",
      "cbc:ActualDeliveryDate",
      `ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime/${CII_DATE}`,
    ),
  ],
  [
    address(
      "BG-15",
      "Deliver to address",
      "cac:DeliveryLocation/cac:Address",
      "ram:ShipToTradeParty/ram:PostalTradeAddress",
      [75, 76, 165, 77, 78, 79, 80],
    ),
  ],
);

const period = group(
  "BG-14",
  "Invoicing period",
  false,
  { el: "cac:InvoicePeriod" },
  { el: `${SETTLEMENT}/ram:BillingSpecifiedPeriod` },
  [
    date("BT-73", "Invoicing period start date", "cbc:StartDate", `ram:StartDateTime/${CII_DATE}`),
    date("BT-74", "Invoicing period end date", "cbc:EndDate", `ram:EndDateTime/${CII_DATE}`),
  ],
);

/** BG-16 with its BG-17 credit transfer and BG-18 card folded in (one account or card per payment means). */
const payment = group(
  "BG-16",
  "Payment instructions",
  true,
  { el: "cac:PaymentMeans" },
  { base: SETTLEMENT, el: "ram:SpecifiedTradeSettlementPaymentMeans" },
  [
    bt("BT-81", "Payment means type code", "cbc:PaymentMeansCode", "ram:TypeCode"),
    bt("BT-82", "Payment means text", "cbc:PaymentMeansCode/@name", "ram:Information"),
    bt(
      "BT-84",
      "Payment account identifier (IBAN)",
      "cac:PayeeFinancialAccount/cbc:ID",
      ["ram:PayeePartyCreditorFinancialAccount/ram:IBANID", "ram:PayeePartyCreditorFinancialAccount/ram:ProprietaryID"],
      { pick: ibanLike },
    ),
    bt(
      "BT-85",
      "Payment account name",
      "cac:PayeeFinancialAccount/cbc:Name",
      "ram:PayeePartyCreditorFinancialAccount/ram:AccountName",
    ),
    bt(
      "BT-86",
      "Payment service provider identifier (BIC)",
      "cac:PayeeFinancialAccount/cac:FinancialInstitutionBranch/cbc:ID",
      "ram:PayeeSpecifiedCreditorFinancialInstitution/ram:BICID",
    ),
    bt(
      "BT-87",
      "Payment card primary account number",
      "cac:CardAccount[!cbc:NetworkID='NA']/cbc:PrimaryAccountNumberID",
      "ram:ApplicableTradeSettlementFinancialCard/ram:ID",
    ),
    bt(
      "BT-88",
      "Payment card holder name",
      "cac:CardAccount[!cbc:NetworkID='NA']/cbc:HolderName",
      "ram:ApplicableTradeSettlementFinancialCard/ram:CardholderName",
    ),
    bt(
      "BT-91",
      "Debited account identifier",
      "cac:PaymentMandate/cac:PayerFinancialAccount/cbc:ID",
      "ram:PayerPartyDebtorFinancialAccount/ram:IBANID",
    ),
  ],
);

const vatBreakdown = group(
  "BG-23",
  "VAT breakdown",
  true,
  { base: "cac:TaxTotal[cbc:TaxAmount/@currencyID=$BT-5]", el: "cac:TaxSubtotal" },
  { base: SETTLEMENT, el: "ram:ApplicableTradeTax[!ram:TypeCode='VAT']" },
  [
    amount("BT-116", "VAT category taxable amount", "cbc:TaxableAmount", "ram:BasisAmount"),
    amount("BT-117", "VAT category tax amount", "cbc:TaxAmount", "ram:CalculatedAmount"),
    bt("BT-118", "VAT category code", `${UBL_VAT_CATEGORY}/cbc:ID`, "ram:CategoryCode"),
    bt("BT-119", "VAT category rate", `${UBL_VAT_CATEGORY}/cbc:Percent`, "ram:RateApplicablePercent"),
    bt("BT-120", "VAT exemption reason text", `${UBL_VAT_CATEGORY}/cbc:TaxExemptionReason`, "ram:ExemptionReason"),
    bt(
      "BT-121",
      "VAT exemption reason code",
      `${UBL_VAT_CATEGORY}/cbc:TaxExemptionReasonCode`,
      "ram:ExemptionReasonCode",
    ),
  ],
);

const documents = group(
  "BG-24",
  "Additional supporting documents",
  true,
  { el: "cac:AdditionalDocumentReference[cbc:DocumentTypeCode!='130'][cbc:DocumentTypeCode!='50']" },
  { base: AGREEMENT, el: "ram:AdditionalReferencedDocument[ram:TypeCode='916']" },
  [
    bt("BT-122", "Supporting document reference", "cbc:ID", "ram:IssuerAssignedID"),
    bt("BT-123", "Supporting document description", "cbc:DocumentDescription", "ram:Name"),
    bt("BT-124", "External document location", "cac:Attachment/cac:ExternalReference/cbc:URI", "ram:URIID"),
    bt("BT-125", "Attached document", "cac:Attachment/cbc:EmbeddedDocumentBinaryObject", "ram:AttachmentBinaryObject"),
    bt(
      "BT-125-1",
      "Attached document mime code",
      "cac:Attachment/cbc:EmbeddedDocumentBinaryObject/@mimeCode",
      "ram:AttachmentBinaryObject/@mimeCode",
    ),
    bt(
      "BT-125-2",
      "Attached document filename",
      "cac:Attachment/cbc:EmbeddedDocumentBinaryObject/@filename",
      "ram:AttachmentBinaryObject/@filename",
    ),
  ],
);

const LINE_SETTLEMENT = "ram:SpecifiedLineTradeSettlement";
const LINE_AGREEMENT = "ram:SpecifiedLineTradeAgreement";
const PRODUCT = "ram:SpecifiedTradeProduct";

const line = group(
  "BG-25",
  "Invoice line",
  true,
  { el: "cac:InvoiceLine" },
  { base: "rsm:SupplyChainTradeTransaction", el: "ram:IncludedSupplyChainTradeLineItem" },
  [
    bt("BT-126", "Invoice line identifier", "cbc:ID", "ram:AssociatedDocumentLineDocument/ram:LineID"),
    bt("BT-127", "Invoice line note", "cbc:Note", "ram:AssociatedDocumentLineDocument/ram:IncludedNote/ram:Content"),
    bt(
      "BT-128",
      "Invoice line object identifier",
      "cac:DocumentReference[cbc:DocumentTypeCode='130']/cbc:ID",
      `${LINE_SETTLEMENT}/ram:AdditionalReferencedDocument[ram:TypeCode='130']/ram:IssuerAssignedID`,
    ),
    bt(
      "BT-128-1",
      "Invoice line object identifier scheme",
      "cac:DocumentReference[cbc:DocumentTypeCode='130']/cbc:ID/@schemeID",
      `${LINE_SETTLEMENT}/ram:AdditionalReferencedDocument[ram:TypeCode='130']/ram:ReferenceTypeCode`,
    ),
    bt("BT-129", "Invoiced quantity", "cbc:InvoicedQuantity", "ram:SpecifiedLineTradeDelivery/ram:BilledQuantity"),
    bt(
      "BT-130",
      "Invoiced quantity unit of measure",
      "cbc:InvoicedQuantity/@unitCode",
      "ram:SpecifiedLineTradeDelivery/ram:BilledQuantity/@unitCode",
    ),
    amount(
      "BT-131",
      "Invoice line net amount",
      "cbc:LineExtensionAmount",
      `${LINE_SETTLEMENT}/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount`,
    ),
    bt(
      "BT-132",
      "Referenced purchase order line reference",
      "cac:OrderLineReference/cbc:LineID",
      `${LINE_AGREEMENT}/ram:BuyerOrderReferencedDocument/ram:LineID`,
    ),
    bt(
      "BT-133",
      "Invoice line buyer accounting reference",
      "cbc:AccountingCost",
      `${LINE_SETTLEMENT}/ram:ReceivableSpecifiedTradeAccountingAccount/ram:ID`,
    ),
    amount(
      "BT-146",
      "Item net price",
      "cac:Price/cbc:PriceAmount",
      `${LINE_AGREEMENT}/ram:NetPriceProductTradePrice/ram:ChargeAmount`,
    ),
    amount(
      "BT-147",
      "Item price discount",
      "cac:Price/cac:AllowanceCharge[!cbc:ChargeIndicator='false']/cbc:Amount",
      `${LINE_AGREEMENT}/ram:GrossPriceProductTradePrice/ram:AppliedTradeAllowanceCharge[!ram:ChargeIndicator/udt:Indicator='false']/ram:ActualAmount`,
    ),
    amount(
      "BT-148",
      "Item gross price",
      "cac:Price/cac:AllowanceCharge[!cbc:ChargeIndicator='false']/cbc:BaseAmount",
      `${LINE_AGREEMENT}/ram:GrossPriceProductTradePrice/ram:ChargeAmount`,
    ),
    bt("BT-149", "Item price base quantity", "cac:Price/cbc:BaseQuantity", [
      `${LINE_AGREEMENT}/ram:NetPriceProductTradePrice/ram:BasisQuantity`,
      `${LINE_AGREEMENT}/ram:GrossPriceProductTradePrice/ram:BasisQuantity`,
    ]),
    bt("BT-150", "Item price base quantity unit", "cac:Price/cbc:BaseQuantity/@unitCode", [
      `${LINE_AGREEMENT}/ram:NetPriceProductTradePrice/ram:BasisQuantity/@unitCode`,
      `${LINE_AGREEMENT}/ram:GrossPriceProductTradePrice/ram:BasisQuantity/@unitCode`,
    ]),
    bt(
      "BT-151",
      "Invoiced item VAT category code",
      `cac:Item/cac:ClassifiedTaxCategory[!cac:TaxScheme/cbc:ID='VAT']/cbc:ID`,
      `${LINE_SETTLEMENT}/ram:ApplicableTradeTax[!ram:TypeCode='VAT']/ram:CategoryCode`,
    ),
    bt(
      "BT-152",
      "Invoiced item VAT rate",
      `cac:Item/cac:ClassifiedTaxCategory[!cac:TaxScheme/cbc:ID='VAT']/cbc:Percent`,
      `${LINE_SETTLEMENT}/ram:ApplicableTradeTax[!ram:TypeCode='VAT']/ram:RateApplicablePercent`,
    ),
    bt("BT-153", "Item name", "cac:Item/cbc:Name", `${PRODUCT}/ram:Name`),
    bt("BT-154", "Item description", "cac:Item/cbc:Description", `${PRODUCT}/ram:Description`),
    bt(
      "BT-155",
      "Item seller's identifier",
      "cac:Item/cac:SellersItemIdentification/cbc:ID",
      `${PRODUCT}/ram:SellerAssignedID`,
    ),
    bt(
      "BT-156",
      "Item buyer's identifier",
      "cac:Item/cac:BuyersItemIdentification/cbc:ID",
      `${PRODUCT}/ram:BuyerAssignedID`,
    ),
    bt(
      "BT-157",
      "Item standard identifier",
      "cac:Item/cac:StandardItemIdentification/cbc:ID",
      `${PRODUCT}/ram:GlobalID`,
    ),
    bt(
      "BT-157-1",
      "Item standard identifier scheme",
      "cac:Item/cac:StandardItemIdentification/cbc:ID/@schemeID",
      `${PRODUCT}/ram:GlobalID/@schemeID`,
    ),
    bt(
      "BT-159",
      "Item country of origin",
      "cac:Item/cac:OriginCountry/cbc:IdentificationCode",
      `${PRODUCT}/ram:OriginTradeCountry/ram:ID`,
    ),
  ],
  [
    group(
      "BG-26",
      "Invoice line period",
      false,
      { el: "cac:InvoicePeriod" },
      { el: `${LINE_SETTLEMENT}/ram:BillingSpecifiedPeriod` },
      [
        date("BT-134", "Invoice line period start date", "cbc:StartDate", `ram:StartDateTime/${CII_DATE}`),
        date("BT-135", "Invoice line period end date", "cbc:EndDate", `ram:EndDateTime/${CII_DATE}`),
      ],
    ),
    allowanceCharge("BG-27", "Invoice line allowances", false, 136, {}, { base: LINE_SETTLEMENT }, false),
    allowanceCharge("BG-28", "Invoice line charges", true, 141, {}, { base: LINE_SETTLEMENT }, false),
    group(
      "BT-158",
      "Item classification identifier",
      true,
      { base: "cac:Item", el: "cac:CommodityClassification" },
      { base: PRODUCT, el: "ram:DesignatedProductClassification" },
      [
        bt("BT-158", "Item classification identifier", "cbc:ItemClassificationCode", "ram:ClassCode"),
        bt("BT-158-1", "Item classification scheme", "cbc:ItemClassificationCode/@listID", "ram:ClassCode/@listID"),
        bt(
          "BT-158-2",
          "Item classification scheme version",
          "cbc:ItemClassificationCode/@listVersionID",
          "ram:ClassCode/@listVersionID",
        ),
      ],
    ),
    group(
      "BG-32",
      "Item attributes",
      true,
      { base: "cac:Item", el: "cac:AdditionalItemProperty" },
      { base: PRODUCT, el: "ram:ApplicableProductCharacteristic" },
      [
        bt("BT-160", "Item attribute name", "cbc:Name", "ram:Description"),
        bt("BT-161", "Item attribute value", "cbc:Value", "ram:Value"),
      ],
    ),
  ],
);

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
    vatBreakdown,
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
