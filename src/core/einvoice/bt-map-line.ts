/**
 * The invoice line (BG-25 with its period, allowances, charges, price and item) in the BT table (bt-map.ts).
 */
import { CII_DATE, allowanceCharge, amount, bt, date, group } from "./bt-defs";

const LINE_SETTLEMENT = "ram:SpecifiedLineTradeSettlement";
const LINE_AGREEMENT = "ram:SpecifiedLineTradeAgreement";
const PRODUCT = "ram:SpecifiedTradeProduct";

export const line = group(
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
