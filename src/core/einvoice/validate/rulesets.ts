/**
 * The rule sets docproc knows, read once per process and kept (reading the EN 16931 UBL Schematron into the model
 * takes 45-200 ms; fontoxpath then parses each XPath expression the first time it runs, ~1.2 CPU-s for an invoice).
 * The .sch files are imported as text so they are inside the compiled binary too.
 */
import enCii from "./rules/en16931/EN16931-CII-validation-preprocessed.sch" with { type: "text" };
import enUbl from "./rules/en16931/EN16931-UBL-validation-preprocessed.sch" with { type: "text" };
import xrCii from "./rules/xrechnung/cii/XRechnung-CII-validation.sch" with { type: "text" };
import xrCommon from "./rules/xrechnung/common.sch" with { type: "text" };
import xrUbl from "./rules/xrechnung/ubl/XRechnung-UBL-validation.sch" with { type: "text" };
import { readSchema, type Schema } from "./schematron";

export type RuleSetId = "EN16931-UBL" | "EN16931-CII" | "XRechnung-UBL" | "XRechnung-CII";

/** Versions as the rule files state them (see rules/SOURCE.md). */
export const RULE_SET_VERSIONS: Record<RuleSetId, string> = {
  "EN16931-UBL": "EN 16931 Schematron 1.3.16",
  "EN16931-CII": "EN 16931 Schematron 1.3.16",
  "XRechnung-UBL": "XRechnung 3.0 CIUS (xrechnung-schematron after 2.5.0)",
  "XRechnung-CII": "XRechnung 3.0 CIUS (xrechnung-schematron after 2.5.0)",
};

const SOURCES: Record<RuleSetId, () => Schema> = {
  "EN16931-UBL": () => readSchema("EN16931-UBL", "en.sch", { "en.sch": enUbl }),
  "EN16931-CII": () => readSchema("EN16931-CII", "en.sch", { "en.sch": enCii }),
  "XRechnung-UBL": () => readSchema("XRechnung-UBL", "ubl/x.sch", { "ubl/x.sch": xrUbl, "common.sch": xrCommon }),
  "XRechnung-CII": () => readSchema("XRechnung-CII", "cii/x.sch", { "cii/x.sch": xrCii, "common.sch": xrCommon }),
};

const cache = new Map<RuleSetId, Schema>();

export function ruleSet(id: RuleSetId): Schema {
  let s = cache.get(id);
  if (!s) cache.set(id, (s = SOURCES[id]()));
  return s;
}
