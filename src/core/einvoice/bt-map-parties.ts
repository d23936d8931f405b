/**
 * The parties of the invoice in the BT table (bt-map.ts): notes, preceding invoices, seller, buyer, payee, tax
 * representative (BG-1, BG-3, BG-4, BG-7, BG-10, BG-11).
 */
import { AGREEMENT, SETTLEMENT, address, bt, byScheme, date, group, party } from "./bt-defs";

export const notes = group(
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

export const preceding = group(
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

export const seller = party(
  "BG-4",
  "Seller",
  "cac:AccountingSupplierParty/cac:Party",
  `${AGREEMENT}/ram:SellerTradeParty`,
  {
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
  },
);

export const buyer = party(
  "BG-7",
  "Buyer",
  "cac:AccountingCustomerParty/cac:Party",
  `${AGREEMENT}/ram:BuyerTradeParty`,
  {
    name: 44,
    trading: 45,
    id: 46,
    legal: 47,
    vat: 48,
    endpoint: 49,
    ids: true,
    address: ["BG-8", [50, 51, 163, 52, 53, 54, 55]],
    contact: ["BG-9", [56, 57, 58]],
  },
);

export const payee = group(
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

export const taxRepresentative = group(
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
