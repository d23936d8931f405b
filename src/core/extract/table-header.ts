/**
 * Table header lines: the column anchors a header line names (memoised per column list and line), and which anchor
 * a word sits under.
 */
import type { TableColumn } from "../project";
import { findLabels, type LabelHit } from "./labels";
import { listsMayHold } from "./label-index";
import { type Line, type LineWord, lineHeight } from "./lines";
import { tick } from "./gc-pace";

export interface Anchor {
  column: TableColumn | null;
  x1: number;
  x2: number;
}

/**
 * headerAnchors per column list and line: the header zone and the table itself both look every line up. Keyed by
 * the (few) column lists first, so a line costs one weak entry, not a Map of its own (43,000 Maps for a document of
 * a thousand pages).
 */
const anchorMemo = new WeakMap<TableColumn[], WeakMap<Line, Anchor[] | null>>();

/** Column anchors of a header line, or null when fewer than two of the table's columns are named there. */
export function headerAnchors(line: Line, columns: TableColumn[]): Anchor[] | null {
  let byLine = anchorMemo.get(columns);
  if (!byLine) anchorMemo.set(columns, (byLine = new WeakMap()));
  let anchors = byLine.get(line);
  if (anchors === undefined) {
    tick();
    byLine.set(line, (anchors = findHeaderAnchors(line, columns)));
  }
  return anchors;
}

/** The columns' label lists, one array per column list (listsMayHold keeps its index per array). */
const labelLists = new WeakMap<TableColumn[], string[][]>();
function labelListsOf(columns: TableColumn[]): string[][] {
  let lists = labelLists.get(columns);
  if (!lists) labelLists.set(columns, (lists = columns.map((c) => c.labels)));
  return lists;
}

function findHeaderAnchors(line: Line, columns: TableColumn[]): Anchor[] | null {
  // A header names two columns or more: most lines of a long document name none, and are passed over here
  // without the label search's allocations (a 999-page document's lines made ~250 MB of garbage).
  if (listsMayHold(line, labelListsOf(columns), 2) < 2) return null;
  const hits: Array<LabelHit & { column: TableColumn }> = [];
  for (const column of columns) for (const h of findLabels([line], column.labels)) hits.push({ ...h, column });
  // Longer (more specific) labels first; then each column keeps its best-ranked hit.
  hits.sort((a, b) => b.end - b.start - (a.end - a.start) || a.rank - b.rank);
  const kept: typeof hits = [];
  for (const h of hits) if (!kept.some((k) => k.start < h.end && k.end > h.start)) kept.push(h);
  const byColumn = new Map<string, (typeof hits)[number]>();
  for (const h of kept.sort((a, b) => a.rank - b.rank)) if (!byColumn.has(h.column.id)) byColumn.set(h.column.id, h);
  const numeric = [...byColumn.values()].filter((h) => h.column.type !== "string").length;
  if (byColumn.size < 2 || numeric < 1) return null;
  const used = [...byColumn.values()];
  const anchors: Anchor[] = used.map((h) => ({ column: h.column, x1: h.box[0], x2: h.box[2] }));
  // A word right after a label, a space apart, finishes that header cell ("Precio unitario", "Prix unitaire HT"):
  // right-aligned values sit under its end. Other header words (tax rate, discount...) name columns we do not
  // extract, and still claim the values under them.
  const space = 0.6 * lineHeight(line);
  let previous: Anchor | null = null;
  for (const w of line.words) {
    const hit = used.find((h) => w.start < h.end && w.end > h.start);
    if (hit) {
      previous = anchors[used.indexOf(hit)]!;
      continue;
    }
    if (previous?.column && w.box[0] - previous.x2 <= space) {
      previous.x2 = w.box[2];
      continue;
    }
    previous = { column: null, x1: w.box[0], x2: w.box[2] };
    anchors.push(previous);
  }
  return anchors;
}

export function nearestAnchor(word: LineWord, anchors: Anchor[]): Anchor {
  const [x1, , x2] = word.box;
  const dist = (a: Anchor) =>
    (x2 < a.x1 ? a.x1 - x2 : x1 > a.x2 ? x1 - a.x2 : 0) + Math.abs((x1 + x2) / 2 - (a.x1 + a.x2) / 2) * 0.01;
  return anchors.reduce((best, a) => (dist(a) < dist(best) ? a : best));
}
