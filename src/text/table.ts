/** Plain-text tables for terminal summaries, reports and the benchmark (a leaf module: imports nothing from src/). Width is measured in code points. */

export type Align = "left" | "right";

export function renderTable(headers: string[], rows: string[][], align: Align[] = []): string {
  // A loop, not Math.max(...rows): a table may have more rows than the stack has room for arguments.
  const widths = headers.map((h, i) => rows.reduce((w, r) => Math.max(w, len(r[i] ?? "")), len(h)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (align[i] === "right" ? pad(c, widths[i]!, true) : pad(c, widths[i]!, false)))
      .join("  ")
      .trimEnd();
  const rule = widths.map((w) => "─".repeat(w)).join("  ");
  return [line(headers), rule, ...rows.map(line)].join("\n") + "\n";
}

function len(s: string): number {
  return [...s].length;
}

function pad(s: string, width: number, right: boolean): string {
  const fill = " ".repeat(Math.max(0, width - len(s)));
  return right ? fill + s : s + fill;
}

/** Shortens a string to `max` code points with an ellipsis in the middle (keeps the file extension visible). */
export function ellipsize(s: string, max: number): string {
  const chars = [...s];
  if (chars.length <= max) return s;
  const head = Math.ceil((max - 1) / 2);
  const tail = max - 1 - head;
  return chars.slice(0, head).join("") + "…" + chars.slice(chars.length - tail).join("");
}

export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const m = Math.floor(seconds / 60);
  return `${m} min ${Math.round(seconds - m * 60)} s`;
}
