/**
 * Line-item tables from word geometry: a header line names the columns; each following line with an amount starts
 * a row; lines without amounts right below a row continue its description (multi-line descriptions); summary
 * lines (subtotal, tax, total) are skipped, and after one a line that is no row ends the table.
 * The header's columns are found in table-header.ts, the rows under it in table-rows.ts.
 */
import type { FieldResult, FieldValue } from "../model";
import type { FieldSettings } from "../project";
import { boxesOf, type Line, ocrConfidenceOf } from "./lines";
import type { DateOrder } from "./normalize";
import { round } from "./fields";
import { mendRows } from "./row-arithmetic";
import { cellOf } from "./table-cells";
import { pushAll } from "../arrays";
import { headerAnchors } from "./table-header";
import { continuationOf, dropCarriedTotals, hasAmount, readRows, type Row } from "./table-rows";

/**
 * Lines of line-item table headers, plus the header lines wrapped under them (lines before the first row): a label
 * there ("MwSt.", "Total") names a column, and what stands under it is a line item, not the document's value.
 */
export function tableHeaderZone(field: FieldSettings, lines: Line[], dateOrder: DateOrder): Set<Line> {
  const zone = new Set<Line>();
  for (let i = 0; i < lines.length; i++) {
    if (!headerAnchors(lines[i]!, field.columns ?? [])) continue;
    zone.add(lines[i]!);
    for (
      let j = i + 1;
      j < Math.min(lines.length, i + 4) && lines[j]!.page === lines[i]!.page && !hasAmount(lines[j]!, dateOrder);
      j++
    )
      zone.add(lines[j]!);
  }
  return zone;
}

/** Extracts a table field; rows carry the column ids as keys. */
export function extractTable(
  field: FieldSettings,
  lines: Line[],
  dateOrder: DateOrder,
  reviewThreshold: number,
  summaryLabels: string[] = [],
): FieldResult {
  const columns = field.columns ?? [];
  const rows: Row[] = [];
  let reason = "";
  for (let i = 0; i < lines.length; i++) {
    const anchors = headerAnchors(lines[i]!, columns);
    if (!anchors) continue;
    const header = lines[i]!;
    const found = readRows(lines, i, anchors, dateOrder, summaryLabels);
    if (!found.rows.length) continue;
    reason ||= `table under header "${header.text}" (page ${header.page.page_number}, line ${header.index + 1})`;
    pushAll(rows, found.rows);
    // The table goes on across page breaks where the next page continues its rows without a header of its own.
    let more = found;
    for (
      let k = more.open ? continuationOf(lines, more.next, anchors, columns, dateOrder, summaryLabels) : -1;
      k >= 0;
      k = more.open ? continuationOf(lines, more.next, anchors, columns, dateOrder, summaryLabels) : -1
    ) {
      more = readRows(lines, i, anchors, dateOrder, summaryLabels, k);
      pushAll(rows, more.rows);
    }
    i = more.next - 1;
  }
  dropCarriedTotals(rows, columns);
  if (!rows.length) {
    return {
      name: field.name,
      value: null,
      confidence: 0,
      bounding_boxes: [],
      reasoning: "no table found",
      review_required: field.required,
      is_confirmed: null,
    };
  }
  const value = rows.map((r) => {
    const out: Record<string, FieldValue> = {};
    for (const c of columns)
      out[c.id] = c.type === "string" ? r.description.join("\n") || null : cellOf(c, r.cells.get(c.id)).value;
    return out;
  });
  // OCR damage (a lost decimal separator, a lost quantity) mended by each row's arithmetic; text layers are exact.
  const ocr = rows.map((r, k) => [r, k] as const).filter(([r]) => r.spans[0]!.line.page.text_source === "ocr");
  const cell = (r: Row, id: string) => {
    const c = columns.find((col) => col.id === id);
    return c ? cellOf(c, r.cells.get(id)) : { value: null, text: null };
  };
  const mended = mendRows(
    ocr.map(([, k]) => value[k]!),
    ocr.map(([r]) => ({ quantity: cell(r, "quantity"), unit_price: cell(r, "unit_price"), amount: cell(r, "amount") })),
    columns.some((c) => c.id === "quantity"),
  );
  if (mended) reason += `; ${mended} row(s) with OCR damage mended by quantity × unit price = amount, or left unread`;
  const spans = rows.flatMap((r) => r.spans);
  const complete = value.filter((r) => Object.values(r).filter((v) => v !== null).length >= 2).length / value.length;
  const confidence = round(0.85 * complete * (0.4 + 0.6 * ocrConfidenceOf(spans)));
  return {
    name: field.name,
    value,
    confidence,
    bounding_boxes: boxesOf(spans),
    reasoning: `${rows.length} row(s) from the ${reason}`,
    review_required: confidence < reviewThreshold,
    is_confirmed: null,
  };
}
