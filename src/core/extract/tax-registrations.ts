/**
 * Tax registrations outside the EU VAT formats that stand where a VAT ID would on an invoice, read after their
 * label: an Indian GSTIN (15 characters, its last a base-36 check character), an Australian ABN (11 digits whose
 * weighted sum is a multiple of 89), a Canadian GST/HST number (a 9-digit business number with a Luhn check, "RT"
 * and a 4-digit account), a Singapore UEN or GST registration number (a company's year and five digits and a
 * letter, a business's eight digits and a letter, "M2-1234567-8"). Each is checked, or as tightly shaped as its
 * format allows, so a phone or account number after a loose label is not taken.
 */
import type { Line } from "./lines";
import type { ValueMatch } from "./value-match";

const B36 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ";

function gstinValid(s: string): boolean {
  let sum = 0;
  for (let i = 0; i < 14; i++) {
    const p = B36.indexOf(s[i]!) * (i % 2 ? 2 : 1);
    sum += Math.floor(p / 36) + (p % 36);
  }
  return B36[(36 - (sum % 36)) % 36] === s[14];
}

const ABN_WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
const abnValid = (d: string) =>
  [...d].reduce((s, c, i) => s + (Number(c) - (i === 0 ? 1 : 0)) * ABN_WEIGHTS[i]!, 0) % 89 === 0;

const luhnValid = (d: string) =>
  [...d].reduce((s, c, i) => {
    const x = Number(c) * (i % 2 ? 2 : 1);
    return s + (x > 9 ? x - 9 : x);
  }, 0) %
    10 ===
  0;

const FORMS: Array<{ re: RegExp; valid: (compact: string) => boolean }> = [
  { re: /^\d{2}[A-Z]{5}\d{4}[A-Z][1-9A-Z]Z[0-9A-Z]$/, valid: gstinValid },
  { re: /^\d{11}$/, valid: abnValid },
  { re: /^\d{9}RT\d{4}$/, valid: (s) => luhnValid(s.slice(0, 9)) },
  // Singapore: a company's UEN (year of incorporation, five digits, a check letter), a business's (eight digits, a
  // letter), or a GST number of the older "M2-1234567-8" form. The check letters' weights are not published.
  { re: /^(?:19[6-9]\d|20[0-4]\d)\d{5}[A-Z]$|^\d{8}[A-Z]$|^M[2-9]\d{8}$/, valid: () => true },
];

/** A checked GSTIN, ABN, GST/HST number or Singapore UEN right after `offset` (past ":", "#", ".", "No."), compact; or null. */
export function taxRegistration(line: Line, offset: number): ValueMatch | null {
  // The label may end before its "No.", "Reg. No." or "Registration" ("GST/HST No. 123456789 RT0001").
  const m =
    /^[\s:.#-]*(?:(?:reg(?:istration)?\.?\s*(?:no|number|nr)?|no|number|nr)\b\.?[\s:.#-]*)?([0-9A-Z](?:[0-9A-Z]| (?=[0-9A-Z])|-(?=\d)){8,17})(?![\p{L}\p{N}])/iu.exec(
      line.text.slice(offset),
    );
  if (!m) return null;
  const start = offset + m[0].length - m[1]!.length;
  // The run may reach into the next cell's words ("202114693K Due Date 04 …"): its space-separated groups are
  // tried from all of them down to the first.
  const groups = m[1]!.split(" ");
  for (let n = groups.length; n > 0; n--) {
    const printed = groups.slice(0, n).join(" ");
    // OCR reads the zeros of a GST/HST account as O ("552609729 RTO001"); the account is digits only.
    const compact = printed.replace(/[\s-]/g, "").replace(/(?<=^\d{9}RT[\dO]{0,3})O(?=[\dO]{0,3}$)/g, "0");
    if (FORMS.some((f) => f.re.test(compact) && f.valid(compact)))
      return { value: compact, line, start, end: start + printed.length, strength: 0.9 };
  }
  return null;
}
