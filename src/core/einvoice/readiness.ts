/**
 * Whether a document can become the e-invoice its project's ubl/cii/facturx profiles will write, known at the
 * Validate step so that a Review step can show what is missing before Export fails on it: one warning rule result
 * per profile that would fail, naming the missing BTs and carrying the ids of the fields that would fill them.
 * Only for projects with such a profile and an enabled Review step; documents that came as e-invoices are left to
 * the export (their data is the source XML, not the fields).
 */
import type { DocumentResult, RuleResult } from "../model";
import type { ProjectSettings } from "../project";
import { stepEnabled } from "../workflow";
import { defaultablePaths } from "./defaults";
import { FIELD_BTS, modelOfDocument } from "./from-fields";
import { brokenTotals, missingTerms, SPECIFICATION_IDS, type TermFinding, type Specification } from "./mandatory";

import { EINVOICE_FORMATS } from "./readiness-rule";

/** Fields that fill each BT/BG beyond the one-to-one FIELD_BTS (addresses, amounts, lines, payment). */
const MORE_FIELDS: Array<[RegExp, string[]]> = [
  [/^BT-(3[5-9]|40|162)$/, ["vendor_address"]],
  [/^BT-(5[0-5]|163)$/, ["customer_address"]],
  [/^(BT-10[69]|BG-23|BT-11[6-9])$/, ["subtotal_amount", "tax_amount", "total_amount"]],
  [/^(BG-25|BT-1[2-5]\d)$/, ["line_items"]],
  [/^(BG-16|BT-8[1-4])$/, ["iban"]],
  [/^BT-9$/, ["due_date", "payment_terms"]],
  [/^BT-11[25]$/, ["total_amount"]],
];

function fieldsOf(finding: TermFinding): string[] {
  const direct = FIELD_BTS.filter((m) => m.bt === finding.id).map((m) => m.field);
  const more = MORE_FIELDS.filter(([re]) => re.test(finding.id)).flatMap(([, f]) => f);
  return [...new Set([...direct, ...more])];
}

const cameAsEInvoice = (doc: DocumentResult) =>
  Object.values(doc.fields).some((f) => /e-invoice XML/.test(f.reasoning ?? ""));

export function einvoiceReadiness(doc: DocumentResult, project: ProjectSettings): RuleResult[] {
  const profiles = project.export_profiles.filter((p) => EINVOICE_FORMATS.has(p.output_format));
  if (!profiles.length || !stepEnabled(project, "review") || cameAsEInvoice(doc)) return [];
  const out: RuleResult[] = [];
  for (const p of profiles) {
    const o = p.options as { document_types: string[]; defaults: Record<string, string>; customization?: string };
    if (!o.document_types.includes(doc.classification?.class_id ?? doc.document_type)) continue;
    const { data } = modelOfDocument(doc, null, o.defaults, defaultablePaths());
    const spec: Specification =
      o.customization === "xrechnung" || o.customization === "peppol" ? o.customization : "en16931";
    data.values["BT-24"] = SPECIFICATION_IDS[spec].bt24;
    const findings = [...missingTerms(data, spec), ...brokenTotals(data)];
    if (!findings.length) continue;
    const fieldIds = [...new Set(findings.flatMap(fieldsOf))].filter((id) => doc.fields[id]);
    out.push({
      rule_id: `einvoice:${p.id}`,
      status: "warning",
      message: `e-invoice profile ${p.id} cannot write this document: ${findings.map((f) => f.message).join("; ")}`,
      field_ids: fieldIds,
    });
  }
  return out;
}
