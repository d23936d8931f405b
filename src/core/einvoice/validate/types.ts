/** The validator's report (the contract the exporters and the pipeline rely on; see index.ts). */
export type DocumentSyntax = "ubl-invoice" | "ubl-creditnote" | "cii" | "unknown";
export interface EInvoiceFinding {
  rule_id: string;
  severity: "fatal" | "warning" | "information";
  message: string;
  xpath: string;
}
export interface EInvoiceReport {
  syntax: DocumentSyntax;
  customization?: string;
  ruleSets: string[];
  results: EInvoiceFinding[];
  /**
   * Rules that were not checked. `known` marks a limitation of every docproc install (rule sets not shipped, e.g.
   * Peppol BIS): listed as information so a valid invoice stays `success`; an unexpected failure to evaluate a
   * shipped rule is a warning.
   */
  unevaluated: Array<{ rule_id: string; reason: string; known?: boolean }>;
  valid: boolean;
}
export interface EInvoiceValidateOptions {
  /** "auto" (default): add the CIUS the document claims (XRechnung); "none": EN 16931 only. */
  cius?: "auto" | "none";
}
