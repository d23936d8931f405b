/**
 * A UK VAT number printed without its "GB" ("VAT Reg No: 687 9865 40", as most British invoices print it) is read
 * by label-candidates.ts as its bare digits; the identifier is GB and the digits (EN 16931 BT-31). Contract: the
 * prefix MUST be added only when the digits pass HMRC's check (weights 8…2 over the first seven, the sum with the
 * last two a multiple of 97, or of 97 after adding 55) and the document is British (a pound sign or a UK postcode):
 * a Portuguese NIF or a Norwegian organisation number has nine digits too.
 */
import type { FieldSettings } from "../project";
import type { FieldResult } from "../model";
import type { Line } from "./lines";

const UK_POSTCODE = /(?<![A-Z0-9])[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}(?![A-Za-z0-9])/;

export function ukVatValid(digits: string): boolean {
  if (!/^\d{9}(?:\d{3})?$/.test(digits)) return false;
  const sum = [...digits.slice(0, 7)].reduce((s, c, i) => s + Number(c) * (8 - i), 0);
  const check = Number(digits.slice(7, 9));
  return (sum + check) % 97 === 0 || (sum + 55 + check) % 97 === 0;
}

/** Adds "GB" to bare UK VAT numbers among the VAT ID fields' results, on a British document. */
export function withUkPrefix(fields: FieldSettings[], out: Record<string, FieldResult>, lines: Line[]): void {
  let british: boolean | undefined;
  for (const field of fields) {
    const r = out[field.id];
    if (field.hints.recognizer !== "vat_id" || typeof r?.value !== "string" || !ukVatValid(r.value)) continue;
    british ??= lines.some((l) => l.text.includes("£") || UK_POSTCODE.test(l.text));
    if (!british) return;
    out[field.id] = {
      ...r,
      value: `GB${r.value}`,
      reasoning: `${r.reasoning}; a UK VAT number (HMRC check) on a British document: GB added`,
    };
  }
}
