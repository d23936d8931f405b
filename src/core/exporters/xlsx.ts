/**
 * XLSX profile (exceljs): a "Documents" sheet (one row per document) and a "Line items" sheet (one row per item).
 * Cells are typed: numbers are numeric cells, booleans boolean cells, ISO dates (`2024-03-01`, or with a time)
 * date cells with a date number format; all other text stays text (invoice numbers keep leading zeros). Text cells
 * are stored as strings, never as formulas, so no formula injection is possible here; characters XML cannot carry
 * are stripped from them.
 * The header row is bold and frozen; column widths follow the content (capped).
 */
import ExcelJS from "exceljs";
import type { ProfileOf } from "../project/exports";
import { documentTable, lineItemTable, type Cell, type Table } from "./table";
import { transactionValues, type ExportContext, type ExportWriter } from "./context";
import { renderTemplate, withExtension } from "./filename";
import { templateOf } from "./names";
import { xmlSafe } from "./xml";

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const MAX_WIDTH = 60;

/** A real calendar date from an ISO string, else null (2024-02-30 stays text). */
export function isoDate(text: string): Date | null {
  const m = ISO_DATE.exec(text);
  if (m) {
    const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
    return d.getUTCDate() === Number(m[3]) && d.getUTCMonth() === Number(m[2]) - 1 ? d : null;
  }
  if (ISO_DATETIME.test(text)) {
    const d = new Date(text);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  return null;
}

function typed(cell: Cell): ExcelJS.CellValue {
  // Control characters XML cannot carry would make the whole workbook unreadable (exceljs writes them as-is).
  if (typeof cell === "string") return isoDate(cell) ?? xmlSafe(cell);
  if (typeof cell === "number" && !Number.isFinite(cell)) return null;
  return cell;
}

function widthOf(value: ExcelJS.CellValue): number {
  if (value instanceof Date) return 12;
  return value === null || value === undefined ? 0 : String(value).length;
}

function addSheet(workbook: ExcelJS.Workbook, title: string, table: Table): void {
  const sheet = workbook.addWorksheet(title, { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.addRow(table.columns.map(xmlSafe)).font = { bold: true };
  const widths = table.columns.map((c) => c.length);
  for (const row of table.rows) {
    const values = row.map(typed);
    const added = sheet.addRow(values);
    values.forEach((v, i) => {
      widths[i] = Math.max(widths[i]!, widthOf(v));
      if (v instanceof Date) {
        added.getCell(i + 1).numFmt = ISO_DATE.test(String(row[i])) ? "yyyy-mm-dd" : "yyyy-mm-dd hh:mm:ss";
      }
    });
  }
  widths.forEach((w, i) => (sheet.getColumn(i + 1).width = Math.min(MAX_WIDTH, w + 2)));
}

export async function buildXlsx(
  ctx: ExportContext,
  options: ProfileOf<"xlsx">["options"],
  now: Date,
): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  workbook.creator = "docproc";
  workbook.created = now;
  addSheet(workbook, "Documents", documentTable(ctx.results, options.columns));
  addSheet(workbook, "Line items", lineItemTable(ctx.results, null, options.line_items_field));
  const buffer = await workbook.xlsx.writeBuffer();
  return new Uint8Array(buffer as ArrayBuffer);
}

export async function exportXlsx(
  ctx: ExportContext,
  profile: ProfileOf<"xlsx">,
  out: ExportWriter,
  now: Date,
): Promise<void> {
  const name = renderTemplate(templateOf(profile), transactionValues(ctx, profile.id));
  const data = await buildXlsx(ctx, profile.options, now);
  await out.file(
    withExtension(name, "xlsx"),
    data,
    ctx.results.documents.map((d) => d.document_id),
  );
}
