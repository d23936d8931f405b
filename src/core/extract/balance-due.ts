/**
 * The invoice total, not the balance left after a payment. Small-business templates print "Total", then "Amount
 * Paid" / "Deposit Received" / "Payments/Credits" / "Less: Advance", then "Balance Due": the balance is what is
 * still owed, the total is the invoice's value (EN 16931 BT-112 against BT-115). "Balance due" and "amount due" are
 * good total labels when nothing was paid, so the balance is set aside only when the arithmetic shows a payment:
 * another total candidate equals the balance plus an amount printed on a payment line.
 */
import type { Candidate } from "./candidate";
import { infoOf } from "./label-index";
import type { Line } from "./lines";
import type { DateOrder } from "./normalize";
import { findAmounts } from "./values";

/** A line reporting money already received against the invoice. */
const PAYMENT =
  /^[^\p{L}]*(?:less[:\s]+)?(?:amount paid|paid(?: to date)?|payments?(?:\s*\/\s*credits?)?|deposit(?: received| paid)?|advance(?: received| paid)?|credits? applied|prepaid|prepayment|received)(?![\p{L}])/iu;

/** Amounts printed on payment lines, as positive values. */
function payments(lines: Line[], dateOrder: DateOrder): number[] {
  const out: number[] = [];
  for (const line of lines) {
    const head = PAYMENT.exec(infoOf(line).folded);
    if (!head) continue;
    for (const a of findAmounts(line.text, dateOrder))
      if (a.decimals && a.start >= head[0].length && a.value !== 0) out.push(Math.abs(a.value));
  }
  return out;
}

/**
 * `best` when it is no balance after a payment; else the total candidate that is the balance plus a printed payment
 * (the best-scoring such one).
 */
export function totalBeforePayment(
  best: Candidate | undefined,
  candidates: Candidate[],
  lines: Line[],
  dateOrder: DateOrder,
): Candidate | undefined {
  const balance = best?.match.value;
  if (!best || typeof balance !== "number" || balance < 0) return best;
  const paid = payments(lines, dateOrder);
  if (!paid.length) return best;
  for (const c of [...candidates].sort((a, b) => b.score - a.score)) {
    const value = c.match.value;
    if (typeof value !== "number" || c.match.line === best.match.line || value <= balance) continue;
    const p = paid.find((x) => Math.abs(balance + x - value) < 0.005);
    if (p === undefined) continue;
    return { ...c, reasoning: `${c.reasoning}; the invoice total: ${balance} is the balance left after ${p} paid` };
  }
  return best;
}
