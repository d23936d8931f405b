/**
 * A value a reviewer typed or picked from the page, read the way extraction reads values of that field type:
 * amounts and numbers become numbers, dates ISO `YYYY-MM-DD`, booleans true/false. Text that does not read as the
 * type is kept as typed (the validation rules then say what is wrong), never dropped.
 */
import type { FieldSettings } from "../../project";
import { normalizeDate, parseAmount } from "../../extract/normalize";

export function normalizeReviewedValue(
  field: FieldSettings | undefined,
  text: string,
  locale = "auto",
): string | number | boolean | null {
  const raw = text.trim();
  if (raw === "") return null;
  switch (field?.type) {
    case "amount":
    case "number":
      return parseAmount(raw) ?? (Number.isFinite(Number(raw)) ? Number(raw) : raw);
    case "date": {
      if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) return raw;
      const order = /^en-US$/i.test(locale) ? "mdy" : "dmy";
      return normalizeDate(raw, order) ?? normalizeDate(raw, order === "dmy" ? "mdy" : "dmy") ?? raw;
    }
    case "boolean":
      if (/^(true|yes|ja|oui|si|1|x|✓)$/i.test(raw)) return true;
      if (/^(false|no|nein|non|0)$/i.test(raw)) return false;
      return raw;
    default:
      return raw;
  }
}
