/**
 * The arithmetic of a line-item row (quantity × unit price = amount) used to mend what OCR damaged in it. OCR drops
 * decimal separators ("€1499" for "€ 14,99") and loses small cells (a lone "1" in the quantity column); the other
 * cells of the row and the other rows of the column say what was printed:
 * - a cell printed without a separator in a table whose money cells print decimals is read with them when that
 *   makes the row add up;
 * - an amount cell so damaged that no reading adds up is replaced by quantity × unit price, the unit price read
 *   cleanly or mended by the first rule;
 * - a missing quantity is amount ÷ unit price when that is a whole number (the table has a quantity column).
 *   (The check is exact to the cent: 2,248.89 ÷ 749.63 is 3; a wrong reading of either rarely divides evenly.)
 * - an amount that lost its decimals with no unit price to mend it from is left unread (null) rather than wrong.
 * Rows that add up as read are left alone; nothing here invents a row or a cell without the other two.
 */
import type { FieldValue } from "../model";

/** One row's numeric cells as read: the value and the printed text (null when the cell is empty). */
export interface RowCells {
  quantity: { value: number | null; text: string | null };
  unit_price: { value: number | null; text: string | null };
  amount: { value: number | null; text: string | null };
}

const close = (a: number, b: number) => Math.abs(a - b) <= Math.max(0.011, Math.abs(b) * 0.001);
const hasSeparator = (text: string) => /\d[.,]\d{1,2}(?!\d)/.test(text);

/**
 * The number of decimals the table's money cells print: the most common among the cells that show a separator
 * (at least two of them), 0 when none do. One invoice prints its prices and amounts alike, so the cells OCR read
 * cleanly say what the damaged ones printed, however many of those there are.
 */
function tableDecimals(texts: Array<string | null>): number {
  const counts = new Map<number, number>();
  for (const t of texts) {
    const m = t ? /\d[.,](\d{1,2})(?!\d)/.exec(t) : null;
    if (m) counts.set(m[1]!.length, (counts.get(m[1]!.length) ?? 0) + 1);
  }
  const [best] = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0]);
  return best && best[1] >= 2 ? best[0] : 0;
}

/**
 * Readings of a cell, likeliest first: a cell printed without a separator in a column whose cells print decimals
 * lost it ("€4499" among "€14,99"), so the decimals put back come first, then the cell as read.
 */
function readings(cell: { value: number | null; text: string | null }, decimals: number): number[] {
  if (cell.value === null || cell.text === null) return [];
  const digits = cell.text.replace(/\D/g, "");
  if (decimals > 0 && !hasSeparator(cell.text) && digits.length > decimals)
    return [cell.value / 10 ** decimals, cell.value];
  return [cell.value];
}

/**
 * Mends `rows` (objects keyed by column id) in place from `cells`; returns the number of rows changed.
 * `quantityColumn`: the table names a quantity column, so a row without one lost it.
 */
export function mendRows(rows: Array<Record<string, FieldValue>>, cells: RowCells[], quantityColumn: boolean): number {
  const decimals = tableDecimals(cells.flatMap((c) => [c.unit_price.text, c.amount.text]));
  const [unitDecimals, amountDecimals] = [decimals, decimals];
  let changed = 0;
  rows.forEach((row, i) => {
    const c = cells[i]!;
    const q = c.quantity.value;
    const units = readings(c.unit_price, unitDecimals);
    const amounts = readings(c.amount, amountDecimals);
    if (!units.length) {
      // Nothing to mend it from: an amount that lost its decimals ("€4" for "€ 4,24") is not read rather than wrong.
      if (c.amount.text !== null && row.amount !== null && amountDecimals > 0 && !hasSeparator(c.amount.text)) {
        row.amount = null;
        changed++;
      }
      return;
    }
    const qty = q ?? 1;
    const fits = (u: number, a: number) => close(qty * u, a) || (q === null && close(u, a));
    let pick: [number, number] | null = null;
    for (const u of units) for (const a of amounts) if (!pick && fits(u, a)) pick = [u, a];
    if (!pick && amounts.length > 0 && amountDecimals > 0 && !hasSeparator(c.amount.text ?? "")) {
      // The amount did not survive OCR; the unit price (read as printed, or mended) times the quantity stands in.
      const u = units[0]!;
      pick = [u, Math.round(qty * u * 100) / 100];
    }
    if (!pick && q === null && quantityColumn) {
      // The quantity did not survive OCR ("Co" for "9"): a whole multiple of the unit price in the amount is it.
      for (const u of units)
        for (const a of amounts)
          if (!pick && u !== 0 && Math.abs(a / u - Math.round(a / u)) < 1e-6 && Math.round(a / u) >= 2) pick = [u, a];
    }
    if (!pick) return;
    const [u, a] = pick;
    const before = JSON.stringify(row);
    row.unit_price = u;
    row.amount = a;
    if (q === null && quantityColumn && u !== 0) {
      const n = a / u;
      if (Math.abs(n - Math.round(n)) < 1e-6 && n >= 1 && n < 1000) row.quantity = Math.round(n);
    }
    if (JSON.stringify(row) !== before) changed++;
  });
  return changed;
}
