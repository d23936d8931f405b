/** The plain-text table renderer lives in src/text/table.ts (shared by the CLI and the evaluation reports). */
export * from "../text/table";
