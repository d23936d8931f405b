/**
 * An e-invoice report as the document's validation results (`documents[].validation.rule_results`): one summary
 * result (`EINVOICE`: error when a fatal rule fired), one result per fired rule and one warning per rule that could
 * not be evaluated. Extensions of the rule-result shape (the spec leaves it open): `severity` (fatal, warning,
 * information), `xpath` of the offending element, `rule_set`. `field_ids` name the docproc fields whose business
 * terms (BT-n) the rule's message mentions, so the review page can show the message beside them.
 */
import { readEInvoice } from "../../extract/einvoice";
import type { RuleResult, ValidationResult } from "../../model";
import type { EInvoiceReport } from "./index";

/** Business terms of EN 16931 that docproc's invoice fields hold (see core/extract/einvoice.ts). */
const FIELD_OF_BT: Record<string, string> = {
  "BT-1": "invoice_number",
  "BT-2": "invoice_date",
  "BT-9": "due_date",
  "BT-5": "currency",
  "BT-13": "purchase_order_number",
  "BT-27": "vendor_name",
  "BT-28": "vendor_name",
  "BT-31": "vendor_vat_id",
  "BT-35": "vendor_address",
  "BT-36": "vendor_address",
  "BT-37": "vendor_address",
  "BT-38": "vendor_address",
  "BT-40": "vendor_address",
  "BT-44": "customer_name",
  "BT-84": "iban",
  "BT-109": "subtotal_amount",
  "BT-110": "tax_amount",
  "BT-112": "total_amount",
  "BT-115": "total_amount",
  "BG-25": "line_items",
  "BT-126": "line_items",
  "BT-129": "line_items",
  "BT-131": "line_items",
  "BT-146": "line_items",
  "BT-153": "line_items",
};

function fieldIds(message: string): string[] | undefined {
  const ids = new Set<string>();
  for (const m of message.matchAll(/\b(B[TG]-\d+)\b/g)) {
    const f = FIELD_OF_BT[m[1]!];
    if (f) ids.add(f);
  }
  return ids.size ? [...ids] : undefined;
}

const STATUS = { fatal: "error", warning: "warning", information: "success" } as const;

/**
 * Whether the invoice claims EN 16931 conformance: its specification identifier (BT-24) starts with the norm's
 * (so do XRechnung, Peppol, Factur-X BASIC/EN16931/EXTENDED). A UBL 2.1 or CII file that claims nothing (an old
 * ERP's UBL, Factur-X MINIMUM and BASIC WL) is still checked, but what fires is information only (status
 * `success`, the rule's own severity kept): it was never meant to meet the norm, a warning or an error would send
 * every such invoice to review, and documents that completed before e-invoice validation existed must complete the
 * same way after an upgrade. `docproc validate` gives the strict answer for them.
 */
export const claimsEN16931 = (report: EInvoiceReport) => /^urn:cen\.eu:en16931:2017/.test(report.customization ?? "");

/**
 * The same question asked of the XML text before any parsing: UBL's CustomizationID or CII's guideline parameter ID
 * (BT-24) starting with the norm's identifier. Unparseable text answers true, so the validator reports it.
 */
export function claimsInText(xml: Uint8Array): boolean {
  const text = new TextDecoder().decode(xml);
  const id =
    /<(?:[\w.-]+:)?CustomizationID\b[^>]*>\s*([^<\s]+)/.exec(text)?.[1] ??
    /GuidelineSpecifiedDocumentContextParameter>\s*<(?:[\w.-]+:)?ID\b[^>]*>\s*([^<\s]+)/.exec(text)?.[1];
  if (id === undefined) return !/<(?:[\w.-]+:)?(?:Invoice|CreditNote|CrossIndustryInvoice)\b/.test(text);
  return /^urn:cen\.eu:en16931:2017/.test(id);
}

export function einvoiceRuleResults(report: EInvoiceReport, filename: string): RuleResult[] {
  const fatal = report.results.filter((r) => r.severity === "fatal").length;
  const warnings = report.results.filter((r) => r.severity === "warning").length;
  const claimed = claimsEN16931(report) || report.syntax === "unknown";
  const failedToEvaluate = report.unevaluated.filter((u) => !u.known).length;
  // Unclaimed: everything is information (see claimsEN16931).
  const statusOf = (severity: "fatal" | "warning" | "information") => (claimed ? STATUS[severity] : "success");
  const summary: RuleResult = {
    rule_id: "EINVOICE",
    origin: "einvoice",
    status: report.valid ? (warnings || failedToEvaluate ? statusOf("warning") : "success") : statusOf("fatal"),
    message: `${filename}: ${report.syntax} e-invoice${report.customization ? ` (${report.customization})` : ""} checked against ${report.ruleSets.join(", ") || "nothing"}: ${report.valid ? "valid" : "invalid"}, ${fatal} fatal, ${warnings} warning(s)${report.unevaluated.length ? `, ${report.unevaluated.length} rule(s) not evaluated` : ""}${claimed ? "" : "; it does not claim EN 16931 (specification identifier BT-24), so its results are information only"}`,
  };
  const fired: RuleResult[] = report.results.map((r) => {
    const ids = fieldIds(r.message);
    return {
      rule_id: r.rule_id,
      status: statusOf(r.severity),
      origin: "einvoice",
      severity: r.severity,
      message: r.message,
      xpath: r.xpath,
      ...(ids ? { field_ids: ids } : {}),
    };
  });
  const unevaluated: RuleResult[] = report.unevaluated.map((u) => ({
    rule_id: u.rule_id,
    status: u.known ? "success" : statusOf("warning"),
    origin: "einvoice",
    severity: u.known ? "information" : "warning",
    message: `not evaluated: ${u.reason}`,
  }));
  return [summary, ...fired, ...unevaluated];
}

/**
 * The validation results of the e-invoice among a document's files (the attachment extraction reads: a standalone
 * XML or the XML of a ZUGFeRD/Factur-X PDF); [] when there is none. A ZUGFeRD 1.0 XML (not an EN 16931 syntax) gives
 * one warning: it is read, but there is no EN 16931 rule set for it.
 */
export async function einvoiceValidation(
  attachments: Array<{ filename: string; data: Uint8Array }>,
): Promise<RuleResult[]> {
  const read = readEInvoice(attachments);
  const file = read && attachments.find((a) => a.filename === read.filename);
  if (!file) return [];
  // What an invoice that claims no EN 16931 conformance would get is information only, which a document without
  // warnings or errors does not carry (documents[].validation): such invoices are not checked here at all (the
  // first check costs about a CPU-second), and complete as they did before; `docproc validate` checks them.
  if (!claimsInText(file.data)) return [];
  let report: EInvoiceReport;
  try {
    // Loaded here, not at import: the engine and its rule sets cost ~130 ms to load, and most runs read no e-invoice.
    const { validateEInvoice } = await import("./index");
    report = await validateEInvoice(file.data);
  } catch (e) {
    // validateEInvoice answers bad input with a report; this is for a bug, which must not stop the transaction.
    return [
      {
        rule_id: "EINVOICE",
        origin: "einvoice",
        status: "warning",
        severity: "warning",
        message: `${file.filename}: could not be validated: ${(e as Error).message}`,
      },
    ];
  }
  if (report.syntax === "unknown" && !report.results.some((r) => r.rule_id === "XML-WELLFORMED")) {
    return [
      {
        rule_id: "EINVOICE",
        origin: "einvoice",
        status: "warning",
        severity: "warning",
        message: `${file.filename}: not validated: ${report.results[0]?.message ?? "unknown syntax"} (ZUGFeRD 1.0 predates EN 16931)`,
      },
    ];
  }
  return einvoiceRuleResults(report, file.filename);
}

/** The e-invoice results of a validation (kept when a review re-runs the project's rules: the XML did not change). */
export function einvoiceResultsOf(validation: ValidationResult | undefined): RuleResult[] {
  return validation?.rule_results.filter((r) => r.origin === "einvoice") ?? [];
}
