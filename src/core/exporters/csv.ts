/**
 * CSV profile: one file per transaction, one row per document or per line item (RFC 4180 quoting, CRLF rows,
 * UTF-8 with a BOM by default so spreadsheet programs detect the encoding).
 *
 * Formula injection: a text cell starting with `=`, `+`, `-`, `@`, tab or CR is prefixed with `'` so a spreadsheet
 * shows it as text instead of running it. Numbers are written as plain numbers, negative ones too (`-12.5`): they
 * come from typed values, never from document text, and a prefix would turn amounts into text. A *text* value that
 * merely looks like a negative number (`"-12.5"` as a string) is still prefixed.
 */
import type { ProfileOf } from "../project/exports";
import { documentTable, lineItemTable, type Cell, type Table } from "./table";
import { transactionValues, type ExportContext, type ExportWriter } from "./context";
import { renderTemplate, withExtension } from "./filename";
import { templateOf } from "./names";

const FORMULA_START = /^[=+\-@\t\r]/;

/** Neutralises a text cell a spreadsheet would evaluate. */
export function neutralizeFormula(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

function cellText(cell: Cell): string {
  if (cell === null) return "";
  if (typeof cell === "number") return Number.isFinite(cell) ? String(cell) : "";
  if (typeof cell === "boolean") return cell ? "true" : "false";
  return neutralizeFormula(cell);
}

function quote(text: string, delimiter: string): string {
  const needs = text.includes(delimiter) || /["\r\n]/.test(text) || /^\s|\s$/.test(text);
  return needs ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(table: Table, opts: { delimiter: string; include_header: boolean; bom: boolean }): string {
  const line = (cells: string[]) => cells.map((c) => quote(c, opts.delimiter)).join(opts.delimiter);
  const lines = table.rows.map((row) => line(row.map(cellText)));
  if (opts.include_header) lines.unshift(line(table.columns.map(neutralizeFormula)));
  return (opts.bom ? "\uFEFF" : "") + lines.map((l) => `${l}\r\n`).join("");
}

export async function exportCsv(ctx: ExportContext, profile: ProfileOf<"csv">, out: ExportWriter): Promise<void> {
  const o = profile.options;
  const table =
    o.rows === "per_line_item"
      ? lineItemTable(ctx.results, o.columns, o.line_items_field)
      : documentTable(ctx.results, o.columns);
  const template = templateOf(profile);
  const name = renderTemplate(template, transactionValues(ctx, profile.id));
  await out.file(
    withExtension(name, "csv"),
    toCsv(table, o),
    ctx.results.documents.map((d) => d.document_id),
  );
}
