/**
 * Values printed over several lines of one block (an address: "Weena 664" over "3012 CN Rotterdam"): where a
 * confirmed value stands when no single line holds it, and reading such a block back on a new page.
 *
 * A block is the words of a line from a start word on, up to a wide gap (the next column), and the same for the
 * lines right under it that start in the same column.
 */
import type { Line, LineWord } from "../extract/lines";
import { compactText } from "./frame";

const height = (l: Line) => Math.max(1, l.box[3] - l.box[1]);

/** Words of `line` from the one starting near `x` on, up to a gap wider than 2.5 line heights. */
export function runFrom(line: Line, x: number): LineWord[] {
  const h = height(line);
  const start = line.words.findIndex((w) => Math.abs(w.box[0] - x) <= 2 * h);
  if (start < 0) return [];
  const out = [line.words[start]!];
  for (let k = start + 1; k < line.words.length && line.words[k]!.box[0] - out[out.length - 1]!.box[2] <= 2.5 * h; k++)
    out.push(line.words[k]!);
  return out;
}

/** The line right under `line` (within 1.5 line heights) with a word starting near `x`. */
export function lineBelow(line: Line, x: number, lines: Line[]): Line | null {
  const h = height(line);
  return (
    lines
      .filter(
        (l) =>
          l.page === line.page &&
          l !== line &&
          l.box[1] >= line.box[1] + h * 0.5 &&
          l.box[1] - line.box[3] <= 1.5 * h &&
          runFrom(l, x).length > 0,
      )
      .sort((a, b) => a.box[1] - b.box[1])[0] ?? null
  );
}

/** The separator the confirmed value puts between its first `chars` letters/digits and the rest (", ", " ", "\n"). */
function joinerOf(value: string, chars: number): string {
  let n = 0;
  for (let i = 0; i < value.length; i++) {
    if (/[\p{L}\p{N}]/u.test(value[i]!)) n++;
    if (n === chars) return /^[^\p{L}\p{N}]*/u.exec(value.slice(i + 1))![0] || " ";
  }
  return " ";
}

export interface Block {
  line: Line;
  words: LineWord[];
  more: LineWord[][];
  joiner: string;
}

const textOf = (ws: LineWord[]) => ws.map((w) => w.word.text).join(" ");

/** Where a value spanning two to four lines of one block is printed (first such place), or null. */
export function locateBlock(value: string, lines: Line[]): Block | null {
  const target = compactText(value);
  if (target.length < 6) return null;
  for (const line of lines) {
    for (const first of line.words) {
      const words = runFrom(line, first.box[0]).filter((w) => w.box[0] >= first.box[0]);
      const head = compactText(textOf(words));
      if (head.length < 3 || head.length >= target.length || !target.startsWith(head)) continue;
      let rest = target.slice(head.length);
      const more: LineWord[][] = [];
      for (let cur = line; rest && more.length < 3; ) {
        const next = lineBelow(cur, first.box[0], lines);
        const run = next ? runFrom(next, first.box[0]) : [];
        // The last line may end inside the run (the value stops before a column's next word).
        let taken: LineWord[] = [];
        for (let k = run.length; k > 0 && !taken.length; k--)
          if (rest.startsWith(compactText(textOf(run.slice(0, k))))) taken = run.slice(0, k);
        if (!next || !taken.length) break;
        more.push(taken);
        rest = rest.slice(compactText(textOf(taken)).length);
        cur = next;
      }
      if (!rest && more.length) return { line, words, more, joiner: joinerOf(value, head.length) };
    }
  }
  return null;
}

/**
 * Reads a block of `count` lines from `start` on: its text joined as the confirmed value joined its lines; the last
 * line no longer than `tail` words when given (the confirmed value stopped there).
 */
export function readBlock(
  line: Line,
  start: LineWord,
  count: number,
  joiner: string,
  lines: Line[],
  tail?: number,
): { start: number; end: number; value: string } | null {
  const first = runFrom(line, start.box[0]).filter((w) => w.box[0] >= start.box[0]);
  if (!first.length) return null;
  const parts = [textOf(first)];
  for (let cur = line; parts.length < count; ) {
    const next = lineBelow(cur, start.box[0], lines);
    if (!next) return null;
    const run = runFrom(next, start.box[0]);
    parts.push(textOf(parts.length === count - 1 && tail ? run.slice(0, tail) : run));
    cur = next;
  }
  return { start: first[0]!.start, end: first[first.length - 1]!.end, value: parts.join(joiner) };
}
