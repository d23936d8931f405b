/**
 * Element order of the UBL 2.1 and CII D16B schemas for the elements the writers produce (XML Schema sequences: a
 * child out of order makes the file invalid). Keyed by the parent's local name; a parent of the same type under
 * another name is listed in ALIASES. write.ts sorts children by these lists; an element missing from its parent's
 * list is a bug the export tests catch (`unorderedElements`).
 */

const UBL_INVOICE =
  "UBLExtensions UBLVersionID CustomizationID ProfileID ProfileExecutionID ID CopyIndicator UUID IssueDate IssueTime DueDate InvoiceTypeCode Note TaxPointDate DocumentCurrencyCode TaxCurrencyCode PricingCurrencyCode PaymentCurrencyCode PaymentAlternativeCurrencyCode AccountingCostCode AccountingCost LineCountNumeric BuyerReference InvoicePeriod OrderReference BillingReference DespatchDocumentReference ReceiptDocumentReference StatementDocumentReference OriginatorDocumentReference ContractDocumentReference AdditionalDocumentReference ProjectReference Signature AccountingSupplierParty AccountingCustomerParty PayeeParty BuyerCustomerParty SellerSupplierParty TaxRepresentativeParty Delivery DeliveryTerms PaymentMeans PaymentTerms PrepaidPayment AllowanceCharge TaxExchangeRate PricingExchangeRate PaymentExchangeRate PaymentAlternativeExchangeRate TaxTotal WithholdingTaxTotal LegalMonetaryTotal InvoiceLine";
const UBL_CREDIT_NOTE =
  "UBLExtensions UBLVersionID CustomizationID ProfileID ProfileExecutionID ID CopyIndicator UUID IssueDate IssueTime TaxPointDate CreditNoteTypeCode Note DocumentCurrencyCode TaxCurrencyCode PricingCurrencyCode PaymentCurrencyCode PaymentAlternativeCurrencyCode AccountingCostCode AccountingCost LineCountNumeric BuyerReference InvoicePeriod DiscrepancyResponse OrderReference BillingReference DespatchDocumentReference ReceiptDocumentReference ContractDocumentReference AdditionalDocumentReference StatementDocumentReference OriginatorDocumentReference Signature AccountingSupplierParty AccountingCustomerParty PayeeParty BuyerCustomerParty SellerSupplierParty TaxRepresentativeParty Delivery DeliveryTerms PaymentMeans PaymentTerms TaxExchangeRate PricingExchangeRate PaymentExchangeRate PaymentAlternativeExchangeRate AllowanceCharge TaxTotal LegalMonetaryTotal CreditNoteLine";

const UBL: Record<string, string> = {
  Invoice: UBL_INVOICE,
  CreditNote: UBL_CREDIT_NOTE,
  Party:
    "MarkCareIndicator MarkAttentionIndicator WebsiteURI LogoReferenceID EndpointID IndustryClassificationCode PartyIdentification PartyName Language PostalAddress PhysicalLocation PartyTaxScheme PartyLegalEntity Contact Person AgentParty",
  Address:
    "ID AddressTypeCode AddressFormatCode Postbox Floor Room StreetName AdditionalStreetName BlockName BuildingName BuildingNumber InhouseMail Department MarkAttention MarkCare PlotIdentification CitySubdivisionName CityName PostalZone CountrySubentity CountrySubentityCode Region District TimezoneOffset AddressLine Country LocationCoordinate",
  PartyTaxScheme:
    "RegistrationName CompanyID TaxLevelCode ExemptionReasonCode ExemptionReason RegistrationAddress TaxScheme",
  PartyLegalEntity:
    "RegistrationName CompanyID RegistrationDate RegistrationExpirationDate CompanyLegalFormCode CompanyLegalForm SoleProprietorshipIndicator CompanyLiquidationStatusCode CorporateStockAmount FullyPaidSharesIndicator RegistrationAddress CorporateRegistrationScheme HeadOfficeParty",
  Contact: "ID Name Telephone Telefax ElectronicMail Note OtherCommunication",
  Delivery:
    "ID Quantity MinimumQuantity MaximumQuantity ActualDeliveryDate ActualDeliveryTime LatestDeliveryDate LatestDeliveryTime ReleaseID TrackingID DeliveryAddress DeliveryLocation AlternativeDeliveryLocation RequestedDeliveryPeriod PromisedDeliveryPeriod EstimatedDeliveryPeriod CarrierParty DeliveryParty",
  Location:
    "ID Description Conditions CountrySubentity CountrySubentityCode LocationTypeCode InformationURI Name ValidityPeriod Address",
  PaymentMeans:
    "ID PaymentMeansCode PaymentDueDate PaymentChannelCode InstructionID InstructionNote PaymentID CardAccount PayerFinancialAccount PayeeFinancialAccount CreditAccount PaymentMandate",
  CardAccount:
    "PrimaryAccountNumberID NetworkID CardTypeCode ValidityStartDate ExpiryDate IssuerID IssueNumberID CV2ID CardChipCode ChipApplicationID HolderName",
  FinancialAccount:
    "ID Name AliasName AccountTypeCode AccountFormatCode CurrencyCode PaymentNote FinancialInstitutionBranch Country",
  PaymentMandate:
    "ID MandateTypeCode MaximumPaymentInstructionsNumeric MaximumPaidAmount SignatureID PayerParty PayerFinancialAccount",
  PaymentTerms: "ID PaymentMeansID PrepaidPaymentReferenceID Note",
  AllowanceCharge:
    "ID ChargeIndicator AllowanceChargeReasonCode AllowanceChargeReason MultiplierFactorNumeric PrepaidIndicator SequenceNumeric Amount BaseAmount AccountingCostCode AccountingCost PerUnitAmount TaxCategory TaxTotal PaymentMeans",
  TaxTotal: "TaxAmount RoundingAmount TaxEvidenceIndicator TaxIncludedIndicator TaxSubtotal",
  TaxSubtotal:
    "TaxableAmount TaxAmount CalculationSequenceNumeric TransactionCurrencyTaxAmount Percent BaseUnitMeasure PerUnitAmount TierRange TierRatePercent TaxCategory",
  TaxCategory:
    "ID Name Percent BaseUnitMeasure PerUnitAmount TaxExemptionReasonCode TaxExemptionReason TierRange TierRatePercent TaxScheme",
  MonetaryTotal:
    "LineExtensionAmount TaxExclusiveAmount TaxInclusiveAmount AllowanceTotalAmount ChargeTotalAmount PrepaidAmount PayableRoundingAmount PayableAmount PayableAlternativeAmount",
  InvoiceLine:
    "ID UUID Note InvoicedQuantity LineExtensionAmount TaxPointDate AccountingCostCode AccountingCost PaymentPurposeCode FreeOfChargeIndicator InvoicePeriod OrderLineReference DespatchLineReference ReceiptLineReference BillingReference DocumentReference PricingReference OriginatorParty Delivery PaymentTerms AllowanceCharge TaxTotal WithholdingTaxTotal Item Price",
  CreditNoteLine:
    "ID UUID Note CreditedQuantity LineExtensionAmount TaxPointDate AccountingCostCode AccountingCost PaymentPurposeCode FreeOfChargeIndicator InvoicePeriod OrderLineReference DiscrepancyResponse DespatchLineReference ReceiptLineReference BillingReference DocumentReference PricingReference OriginatorParty Delivery PaymentTerms TaxTotal AllowanceCharge Item Price",
  Item: "Description PackQuantity PackSizeNumeric CatalogueIndicator Name HazardousRiskIndicator AdditionalInformation Keyword BrandName ModelName BuyersItemIdentification SellersItemIdentification ManufacturersItemIdentification StandardItemIdentification CatalogueItemIdentification AdditionalItemIdentification CatalogueDocumentReference ItemSpecificationDocumentReference OriginCountry CommodityClassification TransactionConditions HazardousItem ClassifiedTaxCategory AdditionalItemProperty",
  ItemProperty: "ID Name NameCode TestMethod Value",
  Price:
    "PriceAmount BaseQuantity PriceChangeReason PriceTypeCode PriceType OrderableUnitFactorRate ValidityPeriod PriceList AllowanceCharge",
  Period: "StartDate StartTime EndDate EndTime DurationMeasure DescriptionCode Description",
  DocumentReference:
    "ID CopyIndicator UUID IssueDate IssueTime DocumentTypeCode DocumentType XPath LanguageID LocaleCode VersionID DocumentStatusCode DocumentDescription Attachment",
  Attachment: "EmbeddedDocumentBinaryObject ExternalReference",
  OrderReference: "ID SalesOrderID CopyIndicator UUID IssueDate",
  BillingReference: "InvoiceDocumentReference SelfBilledInvoiceDocumentReference CreditNoteDocumentReference",
  CommodityClassification: "NatureCode CargoTypeCode CommodityCode ItemClassificationCode",
  OrderLineReference: "LineID",
  ExternalReference: "URI",
  CustomerParty: "CustomerAssignedAccountID SupplierAssignedAccountID AdditionalAccountID Party",
  SupplierParty: "CustomerAssignedAccountID AdditionalAccountID DataSendingCapability Party",
  PartyName: "Name",
  PartyIdentification: "ID",
  AddressLine: "Line",
  Country: "IdentificationCode Name",
  TaxScheme: "ID Name",
  ItemIdentification: "ID",
  FinancialInstitutionBranch: "ID",
  ProjectReference: "ID",
};

const UBL_ALIASES: Record<string, string> = {
  AccountingSupplierParty: "SupplierParty",
  AccountingCustomerParty: "CustomerParty",
  PayeeParty: "Party",
  TaxRepresentativeParty: "Party",
  DeliveryParty: "Party",
  PostalAddress: "Address",
  DeliveryLocation: "Location",
  PayeeFinancialAccount: "FinancialAccount",
  PayerFinancialAccount: "FinancialAccount",
  ClassifiedTaxCategory: "TaxCategory",
  LegalMonetaryTotal: "MonetaryTotal",
  AdditionalItemProperty: "ItemProperty",
  InvoicePeriod: "Period",
  InvoiceDocumentReference: "DocumentReference",
  AdditionalDocumentReference: "DocumentReference",
  ContractDocumentReference: "DocumentReference",
  DespatchDocumentReference: "DocumentReference",
  ReceiptDocumentReference: "DocumentReference",
  OriginatorDocumentReference: "DocumentReference",
  SellersItemIdentification: "ItemIdentification",
  BuyersItemIdentification: "ItemIdentification",
  StandardItemIdentification: "ItemIdentification",
  OriginCountry: "Country",
};

const CII: Record<string, string> = {
  CrossIndustryInvoice: "ExchangedDocumentContext ExchangedDocument SupplyChainTradeTransaction",
  ExchangedDocumentContext:
    "TestIndicator BusinessProcessSpecifiedDocumentContextParameter GuidelineSpecifiedDocumentContextParameter",
  ExchangedDocument: "ID Name TypeCode IssueDateTime CopyIndicator LanguageID IncludedNote EffectiveSpecifiedPeriod",
  Note: "ContentCode Content SubjectCode ID",
  SupplyChainTradeTransaction:
    "IncludedSupplyChainTradeLineItem ApplicableHeaderTradeAgreement ApplicableHeaderTradeDelivery ApplicableHeaderTradeSettlement",
  LineItem:
    "AssociatedDocumentLineDocument SpecifiedTradeProduct SpecifiedLineTradeAgreement SpecifiedLineTradeDelivery SpecifiedLineTradeSettlement",
  AssociatedDocumentLineDocument: "LineID ParentLineID LineStatusCode LineStatusReasonCode IncludedNote",
  SpecifiedTradeProduct:
    "ID GlobalID SellerAssignedID BuyerAssignedID IndustryAssignedID ModelID Name Description BatchID BrandName ModelName ApplicableProductCharacteristic DesignatedProductClassification IndividualTradeProductInstance OriginTradeCountry IncludedReferencedProduct",
  ProductCharacteristic: "TypeCode Description ValueMeasure Value",
  SpecifiedLineTradeAgreement:
    "BuyerReference BuyerOrderReferencedDocument QuotationReferencedDocument ContractReferencedDocument AdditionalReferencedDocument GrossPriceProductTradePrice NetPriceProductTradePrice UltimateCustomerOrderReferencedDocument",
  TradePrice: "ChargeAmount BasisQuantity AppliedTradeAllowanceCharge IncludedTradeTax",
  SpecifiedLineTradeDelivery: "BilledQuantity ChargeFreeQuantity PackageQuantity",
  SpecifiedLineTradeSettlement:
    "ApplicableTradeTax BillingSpecifiedPeriod SpecifiedTradeAllowanceCharge SpecifiedTradeSettlementLineMonetarySummation InvoiceReferencedDocument AdditionalReferencedDocument ReceivableSpecifiedTradeAccountingAccount",
  TradeTax:
    "CalculatedAmount TypeCode ExemptionReason BasisAmount LineTotalBasisAmount AllowanceChargeBasisAmount CategoryCode ExemptionReasonCode TaxPointDate DueDateTypeCode RateApplicablePercent",
  Period: "StartDateTime EndDateTime",
  TradeAllowanceCharge:
    "ChargeIndicator SequenceNumeric CalculationPercent BasisAmount BasisQuantity ActualAmount ReasonCode Reason CategoryTradeTax",
  LineMonetarySummation: "LineTotalAmount ChargeTotalAmount AllowanceTotalAmount",
  ReferencedDocument:
    "IssuerAssignedID URIID LineID TypeCode Name AttachmentBinaryObject ReferenceTypeCode FormattedIssueDateTime",
  ApplicableHeaderTradeAgreement:
    "BuyerReference SellerTradeParty BuyerTradeParty SalesAgentTradeParty BuyerTaxRepresentativeTradeParty SellerTaxRepresentativeTradeParty ProductEndUserTradeParty ApplicableTradeDeliveryTerms SellerOrderReferencedDocument BuyerOrderReferencedDocument QuotationReferencedDocument ContractReferencedDocument AdditionalReferencedDocument BuyerAgentTradeParty SpecifiedProcuringProject UltimateCustomerOrderReferencedDocument",
  TradeParty:
    "ID GlobalID Name RoleCode Description SpecifiedLegalOrganization DefinedTradeContact PostalTradeAddress URIUniversalCommunication SpecifiedTaxRegistration",
  LegalOrganization: "ID TradingBusinessName PostalTradeAddress",
  TradeContact:
    "PersonName DepartmentName TypeCode TelephoneUniversalCommunication FaxUniversalCommunication EmailURIUniversalCommunication",
  UniversalCommunication: "URIID CompleteNumber",
  TradeAddress: "PostcodeCode LineOne LineTwo LineThree CityName CountryID CountrySubDivisionName",
  TaxRegistration: "ID",
  ApplicableHeaderTradeDelivery:
    "RelatedSupplyChainConsignment ShipToTradeParty UltimateShipToTradeParty ShipFromTradeParty ActualDeliverySupplyChainEvent DespatchAdviceReferencedDocument ReceivingAdviceReferencedDocument DeliveryNoteReferencedDocument",
  SupplyChainEvent: "OccurrenceDateTime",
  ApplicableHeaderTradeSettlement:
    "CreditorReferenceID PaymentReference TaxCurrencyCode InvoiceCurrencyCode InvoiceIssuerReference InvoicerTradeParty InvoiceeTradeParty PayeeTradeParty TaxApplicableTradeCurrencyExchange SpecifiedTradeSettlementPaymentMeans ApplicableTradeTax BillingSpecifiedPeriod SpecifiedTradeAllowanceCharge SpecifiedLogisticsServiceCharge SpecifiedTradePaymentTerms SpecifiedTradeSettlementHeaderMonetarySummation InvoiceReferencedDocument ReceivableSpecifiedTradeAccountingAccount SpecifiedAdvancePayment",
  PaymentMeans:
    "TypeCode Information ApplicableTradeSettlementFinancialCard PayerPartyDebtorFinancialAccount PayeePartyCreditorFinancialAccount PayeeSpecifiedCreditorFinancialInstitution",
  FinancialCard: "ID CardholderName",
  DebtorFinancialAccount: "IBANID ProprietaryID",
  CreditorFinancialAccount: "IBANID AccountName ProprietaryID",
  CreditorFinancialInstitution: "BICID",
  PaymentTerms: "Description DueDateDateTime DirectDebitMandateID PartialPaymentAmount",
  HeaderMonetarySummation:
    "LineTotalAmount ChargeTotalAmount AllowanceTotalAmount TaxBasisTotalAmount TaxTotalAmount RoundingAmount GrandTotalAmount TotalPrepaidAmount DuePayableAmount",
  AccountingAccount: "ID",
  ProcuringProject: "ID Name",
  DocumentContextParameter: "ID",
  DateTime: "DateTimeString",
  DateOnly: "DateString",
  Indicator: "Indicator",
  ProductClassification: "ClassCode",
  TradeCountry: "ID",
};

const CII_ALIASES: Record<string, string> = {
  IncludedNote: "Note",
  IncludedSupplyChainTradeLineItem: "LineItem",
  ApplicableProductCharacteristic: "ProductCharacteristic",
  GrossPriceProductTradePrice: "TradePrice",
  NetPriceProductTradePrice: "TradePrice",
  ApplicableTradeTax: "TradeTax",
  CategoryTradeTax: "TradeTax",
  BillingSpecifiedPeriod: "Period",
  SpecifiedTradeAllowanceCharge: "TradeAllowanceCharge",
  AppliedTradeAllowanceCharge: "TradeAllowanceCharge",
  SpecifiedTradeSettlementLineMonetarySummation: "LineMonetarySummation",
  SpecifiedTradeSettlementHeaderMonetarySummation: "HeaderMonetarySummation",
  BuyerOrderReferencedDocument: "ReferencedDocument",
  SellerOrderReferencedDocument: "ReferencedDocument",
  ContractReferencedDocument: "ReferencedDocument",
  AdditionalReferencedDocument: "ReferencedDocument",
  InvoiceReferencedDocument: "ReferencedDocument",
  DespatchAdviceReferencedDocument: "ReferencedDocument",
  ReceivingAdviceReferencedDocument: "ReferencedDocument",
  SellerTradeParty: "TradeParty",
  BuyerTradeParty: "TradeParty",
  PayeeTradeParty: "TradeParty",
  SellerTaxRepresentativeTradeParty: "TradeParty",
  ShipToTradeParty: "TradeParty",
  SpecifiedLegalOrganization: "LegalOrganization",
  DefinedTradeContact: "TradeContact",
  PostalTradeAddress: "TradeAddress",
  URIUniversalCommunication: "UniversalCommunication",
  TelephoneUniversalCommunication: "UniversalCommunication",
  EmailURIUniversalCommunication: "UniversalCommunication",
  SpecifiedTaxRegistration: "TaxRegistration",
  ActualDeliverySupplyChainEvent: "SupplyChainEvent",
  SpecifiedTradeSettlementPaymentMeans: "PaymentMeans",
  ApplicableTradeSettlementFinancialCard: "FinancialCard",
  PayerPartyDebtorFinancialAccount: "DebtorFinancialAccount",
  PayeePartyCreditorFinancialAccount: "CreditorFinancialAccount",
  PayeeSpecifiedCreditorFinancialInstitution: "CreditorFinancialInstitution",
  SpecifiedTradePaymentTerms: "PaymentTerms",
  ReceivableSpecifiedTradeAccountingAccount: "AccountingAccount",
  SpecifiedProcuringProject: "ProcuringProject",
  BusinessProcessSpecifiedDocumentContextParameter: "DocumentContextParameter",
  GuidelineSpecifiedDocumentContextParameter: "DocumentContextParameter",
  IssueDateTime: "DateTime",
  StartDateTime: "DateTime",
  EndDateTime: "DateTime",
  OccurrenceDateTime: "DateTime",
  DueDateDateTime: "DateTime",
  FormattedIssueDateTime: "DateTime",
  TaxPointDate: "DateOnly",
  ChargeIndicator: "Indicator",
  DesignatedProductClassification: "ProductClassification",
  OriginTradeCountry: "TradeCountry",
};

function ranks(lists: Record<string, string>): Map<string, Map<string, number>> {
  return new Map(
    Object.entries(lists).map(([parent, names]) => [parent, new Map(names.split(" ").map((n, i) => [n, i]))]),
  );
}
const TABLES = { UBL: { ranks: ranks(UBL), aliases: UBL_ALIASES }, CII: { ranks: ranks(CII), aliases: CII_ALIASES } };

/** The schema position of `child` under `parent` (local names), or undefined when the list lacks it. */
export function rankOf(syntax: "UBL" | "CII", parent: string, child: string): number | undefined {
  const t = TABLES[syntax];
  return t.ranks.get(t.aliases[parent] ?? parent)?.get(child);
}
