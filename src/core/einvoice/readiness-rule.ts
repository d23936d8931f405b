/**
 * The light half of readiness.ts, for modules every run loads (validate, review): which profiles write e-invoices
 * and which rule results readiness.ts makes. readiness.ts itself (the BT table, the model builder) loads only for a
 * project that has such a profile.
 */
import type { RuleResult } from "../model";

export const EINVOICE_FORMATS: ReadonlySet<string> = new Set(["ubl", "cii", "facturx"]);

/** Readiness results have rule id `einvoice:<profile id>`: project rule ids cannot hold a colon, so none is taken for one. */
export const isReadinessRule = (r: RuleResult): boolean => r.rule_id.startsWith("einvoice:") && r.status !== "success";
