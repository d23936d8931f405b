/**
 * Types and builders of the BT mapping table (bt-map.ts holds the table itself). The one mapping of EN 16931 business terms (BT) and groups (BG) to UBL 2.1 and UN/CEFACT CII D16B, read by
 * read.ts and written by write.ts (paths: path.ts). Paths are relative to the group's element. UBL paths use the
 * Invoice names; a CreditNote is renamed on the way in and out (CREDIT_NOTE_NAMES). Values are kept as the text of
 * the source (amounts as written), dates as ISO YYYY-MM-DD (CII's format 102 is converted).
 *
 * Deliberate simplifications, so that both syntaxes carry the same model: BG-17 and BG-18 are folded into BG-16 (each
 * payment means has one account or card in both syntaxes); BT-83 (remittance information), BT-89 (mandate) and BT-90
 * (creditor id) are document-level as in CII; a repeated identifier (BT-29, BT-157 lists, BT-158) is its own group.
 */

export type BtKind = "text" | "date" | "amount";

export interface BtDef {
  id: string;
  name: string;
  /** One path, or alternatives: all are read (first with a value wins), `pick` chooses the one written. */
  ubl?: string | string[];
  cii?: string | string[];
  kind?: BtKind;
  /** UBL amounts carry currencyID: the document currency (BT-5), or BT-6 for the VAT total in accounting currency. */
  currency?: "BT-6";
  /** Code lists that differ between the syntaxes: [UBL code, CII code]. */
  codes?: Array<[string, string]>;
  pick?: (c: PickContext) => number;
}

export interface BgDef {
  id: string;
  name: string;
  repeat: boolean;
  /** Path of the group's element: `base` is shared (found or created), `el` is the group's own (created per instance). */
  ubl: { base?: string; el: string | string[] };
  cii: { base?: string; el: string | string[] };
  bts: BtDef[];
  groups: BgDef[];
  pick?: (c: PickContext) => number;
}

export interface PickContext {
  syntax: "UBL" | "CII";
  credit: boolean;
  /** The values of the group being written. */
  values: Record<string, string>;
}

const bt = (id: string, name: string, ubl: BtDef["ubl"], cii: BtDef["cii"], extra: Partial<BtDef> = {}): BtDef => ({
  id,
  name,
  ubl,
  cii,
  ...extra,
});
const date = (id: string, name: string, ubl: BtDef["ubl"], cii: BtDef["cii"], extra: Partial<BtDef> = {}): BtDef =>
  bt(id, name, ubl, cii, { kind: "date", ...extra });
const amount = (id: string, name: string, ubl: string, cii: string, extra: Partial<BtDef> = {}): BtDef =>
  bt(id, name, ubl, cii, { kind: "amount", ...extra });
const group = (
  id: string,
  name: string,
  repeat: boolean,
  ubl: BgDef["ubl"],
  cii: BgDef["cii"],
  bts: BtDef[],
  groups: BgDef[] = [],
  pick?: BgDef["pick"],
): BgDef => ({ id, name, repeat, ubl, cii, bts, groups, pick });

/** With a scheme the CII identifier is a GlobalID, without it an ID. */
const byScheme = (scheme: string) => (c: PickContext) => (c.syntax === "CII" && c.values[scheme] !== undefined ? 1 : 0);
const ibanLike = (c: PickContext) =>
  /^[A-Z]{2}\d{2}[A-Z0-9]{8,30}$/.test((c.values["BT-84"] ?? "").replace(/\s/g, "")) ? 0 : 1;
const creditPick = (c: PickContext) => (c.credit ? 1 : 0);

const SETTLEMENT = "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeSettlement";
const AGREEMENT = "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeAgreement";
const DELIVERY = "rsm:SupplyChainTradeTransaction/ram:ApplicableHeaderTradeDelivery";
const UBL_VAT_CATEGORY = "cac:TaxCategory[!cac:TaxScheme/cbc:ID='VAT']";
const CII_DATE = "udt:DateTimeString";

/** A postal address group; `ids` are the BT numbers of line 1, line 2, line 3, city, post code, subdivision, country. */
function address(id: string, name: string, ubl: string, cii: string, ids: number[]): BgDef {
  const [l1, l2, l3, city, post, sub, country] = ids.map((n) => `BT-${n}`) as [
    string,
    string,
    string,
    string,
    string,
    string,
    string,
  ];
  return group(id, name, false, { el: ubl }, { el: cii }, [
    bt(l1, "Address line 1", "cbc:StreetName", "ram:LineOne"),
    bt(l2, "Address line 2", "cbc:AdditionalStreetName", "ram:LineTwo"),
    bt(l3, "Address line 3", "cac:AddressLine/cbc:Line", "ram:LineThree"),
    bt(city, "City", "cbc:CityName", "ram:CityName"),
    bt(post, "Post code", "cbc:PostalZone", "ram:PostcodeCode"),
    bt(sub, "Country subdivision", "cbc:CountrySubentity", "ram:CountrySubDivisionName"),
    bt(country, "Country code", "cac:Country/cbc:IdentificationCode", "ram:CountryID"),
  ]);
}

function contact(id: string, name: string, ids: number[]): BgDef {
  const [n, phone, mail] = ids.map((x) => `BT-${x}`) as [string, string, string];
  return group(id, name, false, { el: "cac:Contact" }, { el: "ram:DefinedTradeContact" }, [
    bt(n, "Contact point", "cbc:Name", ["ram:PersonName", "ram:DepartmentName"]),
    bt(phone, "Contact telephone", "cbc:Telephone", "ram:TelephoneUniversalCommunication/ram:CompleteNumber"),
    bt(mail, "Contact e-mail", "cbc:ElectronicMail", "ram:EmailURIUniversalCommunication/ram:URIID"),
  ]);
}

interface PartyNumbers {
  name: number;
  trading: number;
  id: number;
  legal: number;
  vat: number;
  legalInfo?: number;
  address: [string, number[]];
  contact: [string, number[]];
  endpoint: number;
  ids: boolean;
}

const B = (x: number) => `BT-${x}`;

/** The party's identifiers (BT-29/BT-46 and their schemes), repeating; SEPA creditor ids are BT-90, not these. */
function partyIdentifiers(id: string, name: string, n: PartyNumbers): BgDef {
  const ident = bt(B(n.id), "Identifier", "cbc:ID", ".");
  const scheme = bt(`${B(n.id)}-1`, "Identifier scheme", "cbc:ID/@schemeID", "@schemeID");
  return group(
    `${id}-ID`,
    `${name} identifiers`,
    true,
    { el: "cac:PartyIdentification[cbc:ID/@schemeID!='SEPA']" },
    { el: ["ram:ID", "ram:GlobalID"] },
    [ident, scheme],
    [],
    byScheme(`${B(n.id)}-1`),
  );
}

/** The seller's additional legal information and tax registration id (BT-33, BT-32): the buyer has neither. */
function sellerLegalTerms(n: PartyNumbers): BtDef[] {
  if (!n.legalInfo) return [];
  return [
    bt(
      B(n.legalInfo),
      "Seller additional legal information",
      "cac:PartyLegalEntity/cbc:CompanyLegalForm",
      "ram:Description",
    ),
    bt(
      "BT-32",
      "Seller tax registration identifier",
      "cac:PartyTaxScheme[cac:TaxScheme/cbc:ID!='VAT':'FC']/cbc:CompanyID",
      "ram:SpecifiedTaxRegistration[ram:ID/@schemeID='FC']/ram:ID",
    ),
  ];
}

/** Seller (BG-4) and buyer (BG-7) share their shape; `n` are the BT numbers in the order of the standard. */
function party(id: string, name: string, ubl: string, cii: string, n: PartyNumbers): BgDef {
  return group(
    id,
    name,
    false,
    { el: ubl },
    { el: cii },
    [
      bt(B(n.name), `${name} name`, "cac:PartyLegalEntity/cbc:RegistrationName", "ram:Name"),
      bt(
        B(n.trading),
        `${name} trading name`,
        "cac:PartyName/cbc:Name",
        "ram:SpecifiedLegalOrganization/ram:TradingBusinessName",
      ),
      bt(
        B(n.legal),
        `${name} legal registration identifier`,
        "cac:PartyLegalEntity/cbc:CompanyID",
        "ram:SpecifiedLegalOrganization/ram:ID",
      ),
      bt(
        `${B(n.legal)}-1`,
        "Legal registration scheme",
        "cac:PartyLegalEntity/cbc:CompanyID/@schemeID",
        "ram:SpecifiedLegalOrganization/ram:ID/@schemeID",
      ),
      bt(
        B(n.vat),
        `${name} VAT identifier`,
        "cac:PartyTaxScheme[cac:TaxScheme/cbc:ID='VAT']/cbc:CompanyID",
        "ram:SpecifiedTaxRegistration[ram:ID/@schemeID='VA']/ram:ID",
      ),
      ...sellerLegalTerms(n),
      bt(B(n.endpoint), `${name} electronic address`, "cbc:EndpointID", "ram:URIUniversalCommunication/ram:URIID"),
      bt(
        `${B(n.endpoint)}-1`,
        "Electronic address scheme",
        "cbc:EndpointID/@schemeID",
        "ram:URIUniversalCommunication/ram:URIID/@schemeID",
      ),
    ],
    [
      partyIdentifiers(id, name, n),
      address(n.address[0], `${name} postal address`, "cac:PostalAddress", "ram:PostalTradeAddress", n.address[1]),
      contact(n.contact[0], `${name} contact`, n.contact[1]),
    ],
  );
}

function allowanceCharge(
  id: string,
  name: string,
  charge: boolean,
  first: number,
  ubl: { base?: string },
  cii: { base?: string },
  withVat: boolean,
): BgDef {
  const B = (k: number) => `BT-${first + k}`;
  const flag = charge ? "true" : "false";
  const vat = withVat
    ? [
        bt(
          B(3),
          "VAT category code",
          `${UBL_VAT_CATEGORY}/cbc:ID`,
          "ram:CategoryTradeTax[!ram:TypeCode='VAT']/ram:CategoryCode",
        ),
        bt(
          B(4),
          "VAT rate",
          `${UBL_VAT_CATEGORY}/cbc:Percent`,
          "ram:CategoryTradeTax[!ram:TypeCode='VAT']/ram:RateApplicablePercent",
        ),
      ]
    : [];
  const k = withVat ? 2 : 0;
  return group(
    id,
    name,
    true,
    { ...ubl, el: `cac:AllowanceCharge[cbc:ChargeIndicator='${flag}']` },
    { ...cii, el: `ram:SpecifiedTradeAllowanceCharge[ram:ChargeIndicator/udt:Indicator='${flag}']` },
    [
      amount(B(0), "Amount", "cbc:Amount", "ram:ActualAmount"),
      amount(B(1), "Base amount", "cbc:BaseAmount", "ram:BasisAmount"),
      bt(B(2), "Percentage", "cbc:MultiplierFactorNumeric", "ram:CalculationPercent"),
      ...vat,
      bt(B(3 + k), "Reason", "cbc:AllowanceChargeReason", "ram:Reason"),
      bt(B(4 + k), "Reason code", "cbc:AllowanceChargeReasonCode", "ram:ReasonCode"),
    ],
  );
}

export {
  SETTLEMENT,
  AGREEMENT,
  DELIVERY,
  UBL_VAT_CATEGORY,
  CII_DATE,
  bt,
  date,
  amount,
  group,
  address,
  contact,
  party,
  allowanceCharge,
  byScheme,
  ibanLike,
  creditPick,
};
