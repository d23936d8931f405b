/** The shapes of a page's layout analysis for reading order (layout-blocks.ts, gutters.ts, block-order.ts). */
import type { Word } from "../../model.ts";

export interface Item {
  word: Word;
  /** Deskewed box. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export interface Rect {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** A piece of a text line: the words of one band between two gutters, left to right. */
export interface Segment extends Rect {
  items: Item[];
}

/** Segments read one after the other, top to bottom. */
export interface TextBlock extends Rect {
  segments: Segment[];
}

export type Interval = [number, number];

export function median(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1]!;
}
