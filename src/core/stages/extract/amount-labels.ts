/**
 * The amount fields' labels of a field list, kept per list (settings are parsed once per project version, so one
 * array serves every document of the class and the label search's indexes, kept per label array, are reused).
 */
import type { FieldSettings } from "../../project";

/**
 * Labels of the class's amount fields: they mark the summary lines under a line-item table. One array per field
 * list, so that the label search's indexes, kept per label array, serve every document of the class.
 */
const summaryLabelMemo = new WeakMap<FieldSettings[], string[]>();
export function summaryLabelsOf(fields: FieldSettings[]): string[] {
  let labels = summaryLabelMemo.get(fields);
  if (!labels)
    summaryLabelMemo.set(fields, (labels = fields.filter((f) => f.type === "amount").flatMap((f) => f.hints.labels)));
  return labels;
}

/**
 * The other amount fields' labels, per amount field of a field list (settings are parsed once per project version):
 * filtering the list anew for every field of every document took ~14 ms per 500 pages in a warm server.
 */
const foreignLabelMemo = new WeakMap<FieldSettings[], Map<FieldSettings, string[]>>();
export function foreignLabelsOf(fields: FieldSettings[], field: FieldSettings): string[] {
  let byField = foreignLabelMemo.get(fields);
  if (!byField) foreignLabelMemo.set(fields, (byField = new Map()));
  let labels = byField.get(field);
  if (!labels) byField.set(field, (labels = summaryLabelsOf(fields).filter((l) => !field.hints.labels.includes(l))));
  return labels;
}
