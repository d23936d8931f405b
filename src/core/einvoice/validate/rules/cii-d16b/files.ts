/**
 * The UN/CEFACT CII D16B XML Schema (coupled code list modules) as text, by path relative to this folder, so the
 * schema is inside the compiled binary too. The .xsd files are unchanged copies (SOURCE.md); this list names them all.
 */
import f0 from "./codelist/standard/EDIFICAS-EU_AccountingAccountType_D11A.xsd" with { type: "text" };
import f1 from "./codelist/standard/EDIFICAS-EU_AccountingAmountType_D11A.xsd" with { type: "text" };
import f2 from "./codelist/standard/ISO_ISO3AlphaCurrencyCode_2012-08-31.xsd" with { type: "text" };
import f3 from "./codelist/standard/UNECE_ActionCode_D16A.xsd" with { type: "text" };
import f4 from "./codelist/standard/UNECE_AdjustmentReasonDescriptionCode_D16A.xsd" with { type: "text" };
import f5 from "./codelist/standard/UNECE_AllowanceChargeIdentificationCode_D16A.xsd" with { type: "text" };
import f6 from "./codelist/standard/UNECE_AllowanceChargeReasonCode_D16A.xsd" with { type: "text" };
import f7 from "./codelist/standard/UNECE_AutomaticDataCaptureMethodCode_D16A.xsd" with { type: "text" };
import f8 from "./codelist/standard/UNECE_CargoOperationalCategoryCode_D16A.xsd" with { type: "text" };
import f9 from "./codelist/standard/UNECE_CargoTypeCode_1996Rev2Final.xsd" with { type: "text" };
import f10 from "./codelist/standard/UNECE_CommodityIdentificationCode_D16A.xsd" with { type: "text" };
import f11 from "./codelist/standard/UNECE_CommunicationMeansTypeCode_D16A.xsd" with { type: "text" };
import f12 from "./codelist/standard/UNECE_ContactFunctionCode_D16A.xsd" with { type: "text" };
import f13 from "./codelist/standard/UNECE_DeliveryTermsCode_2010.xsd" with { type: "text" };
import f14 from "./codelist/standard/UNECE_DimensionTypeCode_D16A.xsd" with { type: "text" };
import f15 from "./codelist/standard/UNECE_DocumentNameCode_Accounting_D16A.xsd" with { type: "text" };
import f16 from "./codelist/standard/UNECE_DocumentNameCode_D16A.xsd" with { type: "text" };
import f17 from "./codelist/standard/UNECE_DocumentStatusCode_D16A.xsd" with { type: "text" };
import f18 from "./codelist/standard/UNECE_DutyTaxFeeTypeCode_D16A.xsd" with { type: "text" };
import f19 from "./codelist/standard/UNECE_DutyorTaxorFeeCategoryCode_D16A.xsd" with { type: "text" };
import f20 from "./codelist/standard/UNECE_EquipmentSizeTypeDescriptionCode_D16A.xsd" with { type: "text" };
import f21 from "./codelist/standard/UNECE_EventTimeReferenceCodePaymentTermsEvent_D16A.xsd" with { type: "text" };
import f22 from "./codelist/standard/UNECE_EventTimeReferenceCode_D16A.xsd" with { type: "text" };
import f23 from "./codelist/standard/UNECE_FreightChargeQuantityUnitBasisCode_D16A.xsd" with { type: "text" };
import f24 from "./codelist/standard/UNECE_FreightChargeTariffCode_D16A.xsd" with { type: "text" };
import f25 from "./codelist/standard/UNECE_GoodsTypeCode_D16A.xsd" with { type: "text" };
import f26 from "./codelist/standard/UNECE_GoodsTypeExtensionCode_D16A.xsd" with { type: "text" };
import f27 from "./codelist/standard/UNECE_MeasurementUnitCommonCodeLinear_4.xsd" with { type: "text" };
import f28 from "./codelist/standard/UNECE_MeasurementUnitCommonCodeVolume_4.xsd" with { type: "text" };
import f29 from "./codelist/standard/UNECE_MeasurementUnitCommonCodeWeight_4.xsd" with { type: "text" };
import f30 from "./codelist/standard/UNECE_MessageFunctionCode_D16A.xsd" with { type: "text" };
import f31 from "./codelist/standard/UNECE_PackageTypeCode_2006.xsd" with { type: "text" };
import f32 from "./codelist/standard/UNECE_PackagingMarkingCode_D16A.xsd" with { type: "text" };
import f33 from "./codelist/standard/UNECE_PartyRoleCode_ChargePaying_D16A.xsd" with { type: "text" };
import f34 from "./codelist/standard/UNECE_PartyRoleCode_D16A.xsd" with { type: "text" };
import f35 from "./codelist/standard/UNECE_PaymentGuaranteeMeansCode_D16A.xsd" with { type: "text" };
import f36 from "./codelist/standard/UNECE_PaymentMeansChannelCode_D16A.xsd" with { type: "text" };
import f37 from "./codelist/standard/UNECE_PaymentMeansCode_D16A.xsd" with { type: "text" };
import f38 from "./codelist/standard/UNECE_PaymentTermsTypeCode_D16A.xsd" with { type: "text" };
import f39 from "./codelist/standard/UNECE_PriceTypeCode_D16A.xsd" with { type: "text" };
import f40 from "./codelist/standard/UNECE_ReferenceTypeCode_D16A.xsd" with { type: "text" };
import f41 from "./codelist/standard/UNECE_TimePointFormatCode_D16A.xsd" with { type: "text" };
import f42 from "./codelist/standard/UNECE_TransportEquipmentCategoryCode_D16A.xsd" with { type: "text" };
import f43 from "./codelist/standard/UNECE_TransportEquipmentFullnessCode_D16A.xsd" with { type: "text" };
import f44 from "./codelist/standard/UNECE_TransportMeansTypeCode_2007.xsd" with { type: "text" };
import f45 from "./codelist/standard/UNECE_TransportModeCode_2.xsd" with { type: "text" };
import f46 from "./codelist/standard/UNECE_TransportMovementStageCode_D16A.xsd" with { type: "text" };
import f47 from "./data/standard/CrossIndustryInvoice_100pD16B.xsd" with { type: "text" };
import f48 from "./data/standard/CrossIndustryInvoice_QualifiedDataType_100pD16B.xsd" with { type: "text" };
import f49 from "./data/standard/CrossIndustryInvoice_ReusableAggregateBusinessInformationEntity_100pD16B.xsd" with {
  type: "text",
};
import f50 from "./data/standard/CrossIndustryInvoice_UnqualifiedDataType_100pD16B.xsd" with { type: "text" };
import f51 from "./identifierlist/standard/ISO_ISOTwo-letterCountryCode_SecondEdition2006.xsd" with { type: "text" };
import f52 from "./identifierlist/standard/UNECE_FreightCostCode_4.xsd" with { type: "text" };
import f53 from "./identifierlist/standard/UNECE_PaymentTermsDescriptionIdentifier_D16A.xsd" with { type: "text" };

export const CII_D16B_ROOT = "data/standard/CrossIndustryInvoice_100pD16B.xsd";

export const CII_D16B_FILES: Record<string, string> = {
  "codelist/standard/EDIFICAS-EU_AccountingAccountType_D11A.xsd": f0,
  "codelist/standard/EDIFICAS-EU_AccountingAmountType_D11A.xsd": f1,
  "codelist/standard/ISO_ISO3AlphaCurrencyCode_2012-08-31.xsd": f2,
  "codelist/standard/UNECE_ActionCode_D16A.xsd": f3,
  "codelist/standard/UNECE_AdjustmentReasonDescriptionCode_D16A.xsd": f4,
  "codelist/standard/UNECE_AllowanceChargeIdentificationCode_D16A.xsd": f5,
  "codelist/standard/UNECE_AllowanceChargeReasonCode_D16A.xsd": f6,
  "codelist/standard/UNECE_AutomaticDataCaptureMethodCode_D16A.xsd": f7,
  "codelist/standard/UNECE_CargoOperationalCategoryCode_D16A.xsd": f8,
  "codelist/standard/UNECE_CargoTypeCode_1996Rev2Final.xsd": f9,
  "codelist/standard/UNECE_CommodityIdentificationCode_D16A.xsd": f10,
  "codelist/standard/UNECE_CommunicationMeansTypeCode_D16A.xsd": f11,
  "codelist/standard/UNECE_ContactFunctionCode_D16A.xsd": f12,
  "codelist/standard/UNECE_DeliveryTermsCode_2010.xsd": f13,
  "codelist/standard/UNECE_DimensionTypeCode_D16A.xsd": f14,
  "codelist/standard/UNECE_DocumentNameCode_Accounting_D16A.xsd": f15,
  "codelist/standard/UNECE_DocumentNameCode_D16A.xsd": f16,
  "codelist/standard/UNECE_DocumentStatusCode_D16A.xsd": f17,
  "codelist/standard/UNECE_DutyTaxFeeTypeCode_D16A.xsd": f18,
  "codelist/standard/UNECE_DutyorTaxorFeeCategoryCode_D16A.xsd": f19,
  "codelist/standard/UNECE_EquipmentSizeTypeDescriptionCode_D16A.xsd": f20,
  "codelist/standard/UNECE_EventTimeReferenceCodePaymentTermsEvent_D16A.xsd": f21,
  "codelist/standard/UNECE_EventTimeReferenceCode_D16A.xsd": f22,
  "codelist/standard/UNECE_FreightChargeQuantityUnitBasisCode_D16A.xsd": f23,
  "codelist/standard/UNECE_FreightChargeTariffCode_D16A.xsd": f24,
  "codelist/standard/UNECE_GoodsTypeCode_D16A.xsd": f25,
  "codelist/standard/UNECE_GoodsTypeExtensionCode_D16A.xsd": f26,
  "codelist/standard/UNECE_MeasurementUnitCommonCodeLinear_4.xsd": f27,
  "codelist/standard/UNECE_MeasurementUnitCommonCodeVolume_4.xsd": f28,
  "codelist/standard/UNECE_MeasurementUnitCommonCodeWeight_4.xsd": f29,
  "codelist/standard/UNECE_MessageFunctionCode_D16A.xsd": f30,
  "codelist/standard/UNECE_PackageTypeCode_2006.xsd": f31,
  "codelist/standard/UNECE_PackagingMarkingCode_D16A.xsd": f32,
  "codelist/standard/UNECE_PartyRoleCode_ChargePaying_D16A.xsd": f33,
  "codelist/standard/UNECE_PartyRoleCode_D16A.xsd": f34,
  "codelist/standard/UNECE_PaymentGuaranteeMeansCode_D16A.xsd": f35,
  "codelist/standard/UNECE_PaymentMeansChannelCode_D16A.xsd": f36,
  "codelist/standard/UNECE_PaymentMeansCode_D16A.xsd": f37,
  "codelist/standard/UNECE_PaymentTermsTypeCode_D16A.xsd": f38,
  "codelist/standard/UNECE_PriceTypeCode_D16A.xsd": f39,
  "codelist/standard/UNECE_ReferenceTypeCode_D16A.xsd": f40,
  "codelist/standard/UNECE_TimePointFormatCode_D16A.xsd": f41,
  "codelist/standard/UNECE_TransportEquipmentCategoryCode_D16A.xsd": f42,
  "codelist/standard/UNECE_TransportEquipmentFullnessCode_D16A.xsd": f43,
  "codelist/standard/UNECE_TransportMeansTypeCode_2007.xsd": f44,
  "codelist/standard/UNECE_TransportModeCode_2.xsd": f45,
  "codelist/standard/UNECE_TransportMovementStageCode_D16A.xsd": f46,
  "data/standard/CrossIndustryInvoice_100pD16B.xsd": f47,
  "data/standard/CrossIndustryInvoice_QualifiedDataType_100pD16B.xsd": f48,
  "data/standard/CrossIndustryInvoice_ReusableAggregateBusinessInformationEntity_100pD16B.xsd": f49,
  "data/standard/CrossIndustryInvoice_UnqualifiedDataType_100pD16B.xsd": f50,
  "identifierlist/standard/ISO_ISOTwo-letterCountryCode_SecondEdition2006.xsd": f51,
  "identifierlist/standard/UNECE_FreightCostCode_4.xsd": f52,
  "identifierlist/standard/UNECE_PaymentTermsDescriptionIdentifier_D16A.xsd": f53,
};
