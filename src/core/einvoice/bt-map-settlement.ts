/**
 * Delivery, invoicing period, payment, VAT breakdown and additional documents in the BT table (bt-map.ts):
 * BG-13, BG-14, BG-16, BG-23, BG-24.
 */
import {
  AGREEMENT,
  CII_DATE,
  DELIVERY,
  SETTLEMENT,
  UBL_VAT_CATEGORY,
  address,
  amount,
  bt,
  byScheme,
  date,
  group,
  ibanLike,
} from "./bt-defs";

export const delivery = group(
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

export const period = group(
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
export const payment = group(
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

export const vatBreakdownGroup = group(
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

export const documents = group(
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
