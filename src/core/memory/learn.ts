/**
 * Learning from one confirmed document: find each confirmed value on the pages, note the label printed next to it,
 * where it stood (relative to that label and to the page) and what it looked like; note who issued the document.
 *
 * MUST NOT throw on pages without words or values that are not printed: such a field is simply not remembered.
 * Table fields are not remembered (their rows change from document to document).
 */
import type { FieldValue, Page } from "../model";
import type { ProjectSettings } from "../project";
import { pageLines, uprightSize, type Line, type LineWord } from "../extract/lines";
import { findAmounts } from "../extract/values";
import { findDates, inferDateOrder, type DateOrder } from "../extract/normalize";
import { locateBlock, type Block } from "./block";
import { issuerOf } from "./issuer";
import { compact, shapeOf } from "./text-forms";
import { frameOf, offsetOf, placeOf, type Frame } from "./frame";
import type { Memory, RememberedField } from "../project/memory";

export interface LearnInput {
  pages: Page[];
  class_id: string;
  /** The confirmed values by field id. */
  values: Record<string, FieldValue>;
  project: ProjectSettings;
  source: Memory["source"];
  now: Date;
  transaction_id?: string | null;
  document_id?: string | null;
}

export interface Located {
  line: Line;
  words: LineWord[];
}

/** Where `value` is printed: amounts and dates by their readers, anything else by its letters and digits. */
export function findValueOnLines(type: string, value: FieldValue, lines: Line[], order: DateOrder): Located[] {
  const out: Located[] = [];
  const wordsOf = (line: Line, start: number, end: number) => line.words.filter((w) => w.start < end && w.end > start);
  for (const line of lines) {
    if (type === "amount" || type === "number") {
      for (const a of findAmounts(line.text, order))
        if (Math.abs(Math.abs(a.value) - Math.abs(Number(value))) <= 0.005)
          out.push({ line, words: wordsOf(line, a.start, a.end) });
    } else if (type === "date") {
      for (const d of findDates(line.text, order))
        if (d.iso === value) out.push({ line, words: wordsOf(line, d.start, d.end) });
    } else {
      const target = compact(String(value));
      if (!target) return [];
      for (let i = 0; i < line.words.length; i++) {
        let acc = "";
        for (let j = i; j < Math.min(line.words.length, i + 12); j++) {
          acc += compact(line.words[j]!.word.text);
          if (acc === target) out.push({ line, words: line.words.slice(i, j + 1) });
          if (acc.length >= target.length) break;
        }
      }
    }
  }
  return out;
}

/**
 * Words left of the value on its line, back to a separator ("·", "|"), a number (another value) or half a page of
 * gap: the label, when it has letters. Totals blocks print labels far left of right-aligned amounts.
 */
export function labelLeft(hit: Located): LineWord[] {
  const first = hit.line.words.indexOf(hit.words[0]!);
  const [W] = uprightSize(hit.line.page);
  const label: LineWord[] = [];
  let right = hit.words[0]!.box[0];
  for (let k = first - 1; k >= 0 && label.length < 5; k--) {
    const w = hit.line.words[k]!;
    if (right - w.box[2] > W * 0.5 || /^[^\p{L}\p{N}]+$/u.test(w.word.text) || /\d{3}|\d[.,]\d{2}\b/.test(w.word.text))
      break;
    label.unshift(w);
    right = w.box[0];
  }
  return /\p{L}/u.test(label.map((w) => w.word.text).join(" ")) ? label : [];
}

/** Words of the line above that sit over the value: the label of a value printed under its label. */
function labelAbove(hit: Located, lines: Line[]): { line: Line; words: LineWord[] } | null {
  const [x1, , x2] = [hit.words[0]!.box[0], 0, hit.words[hit.words.length - 1]!.box[2]];
  const above = lines
    .filter((l) => l.page === hit.line.page && l.box[3] <= hit.line.box[1] + 1)
    .sort((a, b) => b.box[3] - a.box[3])[0];
  if (!above || hit.line.box[1] - above.box[3] > (hit.line.box[3] - hit.line.box[1]) * 0.8) return null;
  const words = above.words.filter((w) => Math.min(w.box[2], x2) - Math.max(w.box[0], x1) > 0);
  if (words.some((w) => /\d[.,]\d{2}\b/.test(w.word.text))) return null; // a value row, not a label
  return words.length && /\p{L}/u.test(words.map((w) => w.word.text).join(" ")) ? { line: above, words } : null;
}

const textOf = (words: LineWord[]) =>
  words
    .map((w) => w.word.text)
    .join(" ")
    .replace(/[:.\s]+$/, "");

/** The nearest unique letter word of the page that is not part of a confirmed value: a fixed point to measure from. */
function anchorFor(hit: Located, lines: Line[], frame: Frame, valueWords: Set<LineWord>): RememberedField["anchor"] {
  const onPage = lines.filter((l) => l.page === hit.line.page).flatMap((l) => l.words);
  const count = new Map<string, number>();
  for (const w of onPage) count.set(compact(w.word.text), (count.get(compact(w.word.text)) ?? 0) + 1);
  let best: { w: LineWord; d: number } | null = null;
  for (const w of onPage) {
    const c = compact(w.word.text);
    if (valueWords.has(w) || hit.words.includes(w) || count.get(c) !== 1 || !/^\p{L}{3,}$/u.test(c)) continue;
    const [dx, dy] = offsetOf(frame, w.box, hit.words[0]!.box);
    const d = Math.hypot(dx / 3, dy);
    if (d <= 12 && (!best || d < best.d)) best = { w, d };
  }
  if (!best) return null;
  const rel = offsetOf(frame, best.w.box, hit.words[0]!.box);
  return { text: compact(best.w.word.text), rel: [round(rel[0]), round(rel[1])] };
}

const round = (x: number) => Math.round(x * 100) / 100;

function remember(
  type: string,
  value: FieldValue,
  hits: Located[],
  lines: Line[],
  hintLabels: string[],
  valueWords: Set<LineWord>,
  block?: Block | null,
): RememberedField | null {
  if (!hits.length) return null;
  const hints = hintLabels.map(compact);
  // A value next to a label is the printed one (a total, not the same amount in a line item); a label the project
  // also knows for this field is the surest sign.
  const rank = (h: Located) => {
    const label = labelLeft(h);
    const known = label.length && hints.some((k) => compact(textOf(label)).endsWith(k));
    return (label.length ? 2 : labelAbove(h, lines) ? 1 : 0) + (known ? 2 : 0);
  };
  const hit = hits.slice().sort((a, b) => rank(b) - rank(a))[0]!;
  const page = hit.line.page;
  const [W, H] = uprightSize(page);
  const frame = frameOf(
    lines.filter((l) => l.page === page),
    page,
  );
  const box = hit.words[0]!.box;
  const vx = box[0] / W,
    vy = box[1] / H;
  const pageIndex = [...new Set(lines.map((l) => l.page))].indexOf(page) + 1;
  const place = placeOf(frame, box).map(round) as [number, number];
  const more = block
    ? { lines: block.more.length + 1, joiner: block.joiner, tail: block.more[block.more.length - 1]!.length }
    : {};
  const base = {
    position: [vx, vy] as [number, number],
    page: pageIndex,
    shape: type === "amount" || type === "number" || type === "date" ? "" : shapeOf(String(value)),
    words: hit.words.length,
    example: value as string | number | boolean,
    place,
    seen: 1,
    ...more,
  };
  const left = labelLeft(hit);
  if (left.length) {
    const last = left[left.length - 1]!;
    const rel = offsetOf(frame, [last.box[2], last.box[1], last.box[2], last.box[3]], box);
    return {
      ...base,
      label: textOf(left),
      relation: "right",
      offset: [vx - last.box[2] / W, vy - last.box[1] / H],
      rel: [round(rel[0]), round(rel[1])],
    };
  }
  const above = labelAbove(hit, lines);
  if (above) {
    const first = above.words[0]!;
    const rel = offsetOf(frame, [first.box[0], first.box[3], first.box[2], first.box[3]], box);
    return {
      ...base,
      label: textOf(above.words),
      relation: "below",
      offset: [vx - first.box[0] / W, vy - first.box[3] / H],
      rel: [round(rel[0]), round(rel[1])],
    };
  }
  return { ...base, label: null, relation: "none", offset: null, anchor: anchorFor(hit, lines, frame, valueWords) };
}

export function learnMemory(input: LearnInput): Memory {
  const lines = input.pages.flatMap((p) => pageLines(p));
  const text = lines.map((l) => l.text).join("\n");
  const order = inferDateOrder([text], input.project.locale, false);
  const fields: Record<string, RememberedField> = {};
  const wanted = (input.project.fields[input.class_id] ?? []).filter((f) => {
    const v = input.values[f.id];
    return f.type !== "table" && v !== null && v !== undefined && v !== "" && !Array.isArray(v);
  });
  const hits = new Map(wanted.map((f) => [f.id, findValueOnLines(f.type, input.values[f.id]!, lines, order)]));
  // A text value no line holds may be printed over several lines of one block (an address).
  const blocks = new Map(
    wanted
      .filter((f) => f.type === "string" && !hits.get(f.id)!.length)
      .map((f) => [f.id, locateBlock(String(input.values[f.id]), lines)] as const),
  );
  for (const [id, b] of blocks) if (b) hits.set(id, [{ line: b.line, words: b.words }]);
  // Words of any confirmed value: never an anchor to measure another value from (they change).
  const valueWords = new Set(
    [...hits.values()]
      .flatMap((hs) => hs.flatMap((h) => h.words))
      .concat([...blocks.values()].flatMap((b) => b?.more.flat() ?? [])),
  );
  for (const field of wanted) {
    const value = input.values[field.id]!;
    const found = remember(
      field.type,
      value,
      hits.get(field.id)!,
      lines,
      field.hints.labels,
      valueWords,
      blocks.get(field.id),
    );
    if (found) fields[field.id] = found;
    // Confirmed but not printed (a till receipt that never says EUR, a name that is a logo): an issuer constant.
    else if ((field.hints.recognizer === "currency" || field.id === "vendor_name") && typeof value === "string")
      fields[field.id] = {
        label: null,
        relation: "none",
        offset: null,
        position: [0, 0],
        page: 1,
        shape: "",
        words: 1,
        example: value,
        constant: true,
        seen: 1,
      };
  }
  const issuer = issuerOf(
    lines,
    input.values,
    wanted.map((f) => String(input.values[f.id])),
  );
  return {
    memory_id: crypto.randomUUID(),
    class_id: input.class_id,
    source: input.source,
    confirmed_at: input.now.toISOString(),
    transaction_id: input.transaction_id ?? null,
    document_id: input.document_id ?? null,
    issuer,
    fields,
    confirmations: 1,
  };
}
