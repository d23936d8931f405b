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
  unevaluated: Array<{ rule_id: string; reason: string }>;
  valid: boolean;
}
export interface EInvoiceValidateOptions {
  /** "auto" (default): add the CIUS the document claims (XRechnung); "none": EN 16931 only. */
  cius?: "auto" | "none";
}
