/**
 * Amounts of a document built from extracted fields: the totals completed from each other, one VAT breakdown (BG-23)
 * with its rate derived from net and VAT, and the invoice lines (BG-25) from the line items when they add up to the
 * net total, else one summary line (EN 16931 needs at least one line, and lines that do not add up make the invoice
 * invalid: BR-CO-10).
 */
import type { FieldValue } from "../model";
import type { BtNode } from "./model";

export function toNumber(v: unknown): number | null {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v !== "string" || !v.trim()) return null;
  const n = Number(v.replace(/\s/g, ""));
  return Number.isFinite(n) ? n : null;
}

const round = (n: number, places: number) =>
  Math.round((n + Math.sign(n) * Number.EPSILON) * 10 ** places) / 10 ** places;
/** Two decimals, as EN 16931 wants amounts (BR-DEC-*). */
export const money = (n: number): string => round(n, 2).toFixed(2);
/** Up to four decimals without trailing zeros (quantities, prices). */
const decimal = (n: number): string => String(round(n, 4));

/** The rate that reproduces `tax` from `net` best: a whole or half percent when it does (within rounding). */
export function vatRate(net: number, tax: number): number {
  const exact = (tax / net) * 100;
  // VAT summed from rounded line amounts drifts by cents, not by a tenth of a percent of the net.
  const tolerance = Math.max(0.02, net * 0.0002);
  for (const c of [Math.round(exact), Math.round(exact * 2) / 2, Math.round(exact * 10) / 10]) {
    if (Math.abs((net * c) / 100 - tax) <= tolerance) return c;
  }
  return round(exact, 2);
}

const abs = (n: number | null) => (n === null ? null : Math.abs(n));

/** Totals completed from each other, and one VAT breakdown when net and VAT are known. */
export function vatBreakdown(data: BtNode, notes: string[]): void {
  const v = data.values;
  let net = abs(toNumber(v["BT-109"]));
  let tax = abs(toNumber(v["BT-110"]));
  let gross = abs(toNumber(v["BT-112"]));
  if (net === null && gross !== null && tax !== null) net = gross - tax;
  if (tax === null && gross !== null && net !== null) tax = gross - net;
  if (gross === null && net !== null && tax !== null) gross = net + tax;
  if (net !== null) v["BT-109"] = money(net);
  if (tax !== null) v["BT-110"] = money(tax);
  if (gross !== null) {
    v["BT-112"] = money(gross);
    v["BT-115"] ??= money(gross);
  }
  if (net === null || tax === null) return;
  const breakdown = (data.groups["BG-23"] ??= [{ values: {}, groups: {} }])[0]!;
  const b = breakdown.values;
  b["BT-116"] = money(net);
  b["BT-117"] = money(tax);
  if (tax > 0) {
    b["BT-118"] ??= "S";
    b["BT-119"] ??= net > 0 ? String(vatRate(net, tax)) : "0";
  } else if (b["BT-118"] && b["BT-118"] !== "O") {
    b["BT-119"] ??= "0";
  } else if (!b["BT-118"]) {
    notes.push(
      "no VAT on the document: its VAT category (BT-118: Z, E, AE, K, G or O) cannot be told from the amounts",
    );
  }
}

interface Line {
  description?: string;
  quantity: number;
  price: number;
  amount: number;
}

function lineOf(row: Record<string, FieldValue>): Line | null {
  const description =
    typeof row.description === "string" && row.description.trim() ? row.description.trim() : undefined;
  let quantity = abs(toNumber(row.quantity));
  let price = abs(toNumber(row.unit_price));
  let amount = abs(toNumber(row.amount));
  if (amount === null && quantity !== null && price !== null) amount = quantity * price;
  if (amount === null) return null;
  quantity ??= price ? amount / price : 1;
  if (!quantity) quantity = 1;
  // Peppol R120 wants quantity × price to give the line amount (0.02 slack); an extracted gross or rounded price
  // does not: the net price is derived from the amount instead.
  if (price === null || Math.abs(quantity * price - amount) > 0.02) price = amount / quantity;
  if (Math.abs(quantity * round(price, 4) - amount) > 0.02) {
    quantity = 1;
    price = amount;
  }
  return { description, quantity: round(quantity, 4), price, amount: round(amount, 2) };
}

const LABELS: Record<string, string> = { credit_note: "Credit note", receipt: "Receipt", invoice: "Invoice" };

export function lineItems(data: BtNode, value: FieldValue | undefined, documentType: string, notes: string[]): void {
  const net = toNumber(data.values["BT-109"]);
  if (net === null) return;
  const breakdown = data.groups["BG-23"]?.[0]?.values ?? {};
  const rows = Array.isArray(value) ? value.map(lineOf) : [];
  let lines = rows.filter((l): l is Line => l !== null);
  const sum = round(
    lines.reduce((s, l) => s + l.amount, 0),
    2,
  );
  if (lines.length && (lines.length !== rows.length || Math.abs(sum - net) >= 0.005)) {
    notes.push(
      `the line items add up to ${money(sum)}, not to the net total ${money(net)}: one summary line written instead`,
    );
    lines = [];
  }
  if (!lines.length) {
    const label = `${LABELS[documentType] ?? "Invoice"} ${data.values["BT-1"] ?? ""}`.trim();
    lines = [{ description: label, quantity: 1, price: net, amount: net }];
  }
  data.groups["BG-25"] = lines.map((l, i) => {
    const values: Record<string, string> = {
      "BT-126": String(i + 1),
      "BT-129": decimal(l.quantity),
      "BT-130": "C62",
      "BT-131": money(l.amount),
      "BT-146": decimal(round(l.price, 4)),
    };
    if (l.description) values["BT-153"] = l.description;
    if (breakdown["BT-118"]) values["BT-151"] = breakdown["BT-118"];
    if (breakdown["BT-119"] !== undefined) values["BT-152"] = breakdown["BT-119"];
    return { values, groups: {} };
  });
  data.values["BT-106"] = money(lines.reduce((s, l) => s + l.amount, 0));
}
