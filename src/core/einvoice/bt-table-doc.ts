/**
 * The BT mapping table as Markdown (docs/einvoices-export.md, between the bt-table markers), made from bt-map.ts so
 * that the documented mapping is the one the code runs. scripts/einvoice-bt-table.ts writes it; a test compares.
 */
import { INVOICE, type BgDef, type BtDef } from "./bt-map";

const MARK_START = "<!-- bt-table: written by scripts/einvoice-bt-table.ts -->";
const MARK_END = "<!-- /bt-table -->";

function paths(p: string | string[] | undefined, base?: string): string {
  const list = p === undefined ? [] : Array.isArray(p) ? p : [p];
  if (!list.length) return "—";
  return list.map((x) => `\`${[base, x].filter((s) => s && s !== ".").join("/") || "."}\``).join(" or ");
}

function rows(g: BgDef, out: string[]): void {
  if (g.id !== "INVOICE") {
    const el = (w: BgDef["ubl"]) => paths(w.el, w.base);
    out.push(`| **${g.id}**${g.repeat ? " (repeats)" : ""} | **${g.name}** | ${el(g.ubl)} | ${el(g.cii)} |`);
  }
  for (const bt of g.bts as BtDef[]) {
    const note =
      bt.kind === "date"
        ? " (date)"
        : bt.codes
          ? ` (codes UBL↔CII: ${bt.codes.map(([u, c]) => `${u}↔${c}`).join(", ")})`
          : "";
    out.push(`| ${bt.id} | ${bt.name}${note} | ${paths(bt.ubl)} | ${paths(bt.cii)} |`);
  }
  for (const sub of g.groups) rows(sub, out);
}

export function btMappingMarkdown(): string {
  const out = [
    "| Term | Name | UBL 2.1 (relative to the group) | CII D16B (relative to the group) |",
    "|---|---|---|---|",
  ];
  rows(INVOICE, out);
  return out.join("\n");
}

/** `doc` with the table between the markers replaced by the current one. */
export function withBtTable(doc: string): string {
  const start = doc.indexOf(MARK_START);
  const end = doc.indexOf(MARK_END);
  if (start < 0 || end < start) throw new Error("bt-table markers not found");
  return `${doc.slice(0, start + MARK_START.length)}\n${btMappingMarkdown()}\n${doc.slice(end)}`;
}
