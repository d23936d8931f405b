/**
 * Peppol BIS Billing 3.0 rules docproc cannot evaluate. OpenPeppol publishes its Schematron only on its own sites,
 * not through npm or Debian (the only registries this project can install from), so it is not vendored. Two kinds
 * of invoice meet those rules:
 *
 * - an invoice claiming Peppol BIS Billing 3.0 (BT-24 `...#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0`):
 *   the whole Peppol rule set (PEPPOL-EN16931-*, PEPPOL-COMMON-*, national rules) is unchecked;
 * - an invoice claiming XRechnung: the XRechnung 3.0 validator configuration also runs 21 adapted Peppol rules
 *   (merged in at the XRechnung build; listed in the XRechnung CHANGELOG, v2.0.0), which the vendored XRechnung
 *   Schematron source does not contain.
 *
 * Each is reported as one unevaluated entry naming the rules, so no caller mistakes "not checked" for "passed". The
 * entries are information (`known`): a limitation of every install, which must not turn every valid XRechnung into
 * a warning (that would change what existing clients see and send every one of them to review).
 */
import type { EInvoiceReport } from "./types";

/** The Peppol rules the XRechnung configuration adds (ids and texts from the XRechnung CHANGELOG, Apache-2.0). */
export const XRECHNUNG_PEPPOL_RULES: Record<string, string> = {
  "PEPPOL-EN16931-R001": "Business process MUST be provided",
  "PEPPOL-EN16931-R005": "VAT accounting currency code MUST be different from invoice currency code when provided",
  "PEPPOL-EN16931-R008": "Document MUST not contain empty elements",
  "PEPPOL-EN16931-R010": "Buyer electronic address MUST be provided",
  "PEPPOL-EN16931-R020": "Seller electronic address MUST be provided",
  "PEPPOL-EN16931-R040": "Allowance/charge amount must equal base amount * percentage/100",
  "PEPPOL-EN16931-R041": "Allowance/charge base amount MUST be provided when allowance/charge percentage is provided",
  "PEPPOL-EN16931-R042": "Allowance/charge percentage MUST be provided when allowance/charge base amount is provided",
  "PEPPOL-EN16931-R043": "Allowance/charge ChargeIndicator value MUST equal 'true' or 'false' (CII: R043-1, R043-2)",
  "PEPPOL-EN16931-R044": "Charge on price level is NOT allowed",
  "PEPPOL-EN16931-R046": "Item net price MUST equal (Gross price - Allowance amount) when gross price is provided",
  "PEPPOL-EN16931-R053": "Only one tax total with tax subtotals MUST be provided",
  "PEPPOL-EN16931-R054": "Only one tax total without tax subtotals MUST be provided when tax currency code is provided",
  "PEPPOL-EN16931-R055":
    "Invoice total VAT amount and Invoice total VAT amount in accounting currency MUST have the same operational sign",
  "PEPPOL-EN16931-R061": "Mandate reference MUST be provided for direct debit",
  "PEPPOL-EN16931-R101": "Element Document reference can only be used for Invoice line object",
  "PEPPOL-EN16931-R110": "Start date of line period MUST be within invoice period",
  "PEPPOL-EN16931-R111": "End date of line period MUST be within invoice period",
  "PEPPOL-EN16931-R120": "Invoice line net amount MUST equal quantity * net price + line charges - line allowances",
  "PEPPOL-EN16931-R121": "Base quantity MUST be a positive number above zero",
  "PEPPOL-EN16931-R130": "Unit code of price base quantity MUST be same as invoiced quantity",
};

const UNAVAILABLE = "Peppol BIS rules (artefacts unavailable): OpenPeppol's Schematron is not shipped with docproc";

export const PEPPOL_CLAIM = /urn:fdc:peppol\.eu:2017:poacc:billing:3\.0/;
export const XRECHNUNG_CLAIM = /urn:xeinkauf\.de:kosit:xrechnung/;

/** The unevaluated entries for an invoice claiming `customization` (BT-24); [] when no Peppol rule applies. */
export function peppolUnevaluated(customization: string | undefined): EInvoiceReport["unevaluated"] {
  if (!customization) return [];
  if (PEPPOL_CLAIM.test(customization))
    return [
      {
        rule_id: "PEPPOL-BIS-3",
        known: true,
        reason: `${UNAVAILABLE}; the document claims Peppol BIS Billing 3.0, whose rules (PEPPOL-EN16931-*, PEPPOL-COMMON-*, national rules) were not checked, only EN 16931`,
      },
    ];
  if (XRECHNUNG_CLAIM.test(customization))
    return [
      {
        rule_id: "PEPPOL-EN16931-R*",
        known: true,
        reason: `${UNAVAILABLE}; XRechnung 3.0 also applies these adapted Peppol rules, not checked: ${Object.keys(
          XRECHNUNG_PEPPOL_RULES,
        )
          .map((id) => id.replace("PEPPOL-EN16931-", ""))
          .join(", ")}`,
      },
    ];
  return [];
}
