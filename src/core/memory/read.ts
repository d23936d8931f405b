/**
 * Reading one remembered field on a new page: next to its label (found as OCR reads it), or measured from a fixed word
 * of the issuer's page, at the remembered offset in word heights (so a copy scanned at another DPI, shifted, cropped
 * or turned a little is read at the same place). Every placement the issuer was confirmed with is tried, the most
 * seen first.
 *
 * MUST return null (the general extractor's value stands) when the place holds no value of the remembered shape: a
 * remembered place that reads an amount where a number stood, or a date where a name stood, is not a reading.
 */
import type { FieldValue, Page } from "../model";
import type { FieldSettings } from "../project";
import { uprightSize, type Line, type LineWord } from "../extract/lines";
import { kindOf } from "../extract/fields";
import { readValue } from "../extract/values";
import type { DateOrder } from "../extract/normalize";
import { findValueOnLines } from "./learn";
import { compact, shapeOf } from "./text-forms";
import { readBlock } from "./block";
import { findText, frameOf, offsetOf, placeOf, similarity, type Frame } from "./frame";
import type { Placement, RememberedField } from "../project/memory";

export interface Read {
  line: Line;
  start: number;
  end: number;
  value: FieldValue;
  how: string;
}

function readAt(
  field: FieldSettings,
  r: Placement,
  line: Line,
  from: LineWord,
  order: DateOrder,
  lines: Line[],
): { start: number; end: number; value: FieldValue } | null {
  if (r.lines && r.lines > 1) return readBlock(line, from, r.lines, r.joiner ?? " ", lines, r.tail);
  const kind = kindOf(field);
  if (field.type === "string" && (kind === "identifier" || kind === "text" || kind === "party")) {
    const i = line.words.indexOf(from);
    const words = line.words.slice(i, i + r.words);
    if (words.length < r.words) return null;
    const value = words
      .map((w) => w.word.text)
      .join(" ")
      .replace(/[,;:]+$/, "");
    return { start: words[0]!.start, end: words[words.length - 1]!.end, value };
  }
  const m = readValue(kind, line, from.start, { dateOrder: order, values: field.values });
  return m && m.start <= from.end ? { start: m.start, end: m.end, value: m.value } : null;
}

const LETTER_FOR: Record<string, string> = { "0": "O", "1": "I", "5": "S", "8": "B", "2": "Z", "6": "G" };
const DIGIT_FOR: Record<string, string> = {
  O: "0",
  o: "0",
  D: "0",
  Q: "0",
  I: "1",
  l: "1",
  i: "1",
  "|": "1",
  S: "5",
  s: "5",
  B: "8",
  Z: "2",
  z: "2",
  G: "6",
};

/**
 * The value in the remembered shape: as read when it has it; else, when it has the example's length and differs from
 * its letter/digit pattern only by characters OCR confuses (1/I, 0/O, 8/B, 5/S...), with those read back. Else null.
 */
export function conform(value: string, r: Placement): string | null {
  if (!r.shape || shapeOf(value) === r.shape) return value;
  const ex = String(r.example);
  if (ex.length !== value.length) return null;
  let out = "";
  for (let i = 0; i < ex.length; i++) {
    const [e, v] = [ex[i]!, value[i]!];
    const isL = (c: string) => /\p{L}/u.test(c),
      isD = (c: string) => /\p{N}/u.test(c);
    if (isL(e) && isD(v)) out += LETTER_FOR[v] ?? v;
    else if (isD(e) && !isD(v)) out += DIGIT_FOR[v] ?? v;
    else out += v;
  }
  return shapeOf(out) === r.shape ? out : null;
}

function fitted(
  field: FieldSettings,
  r: Placement,
  got: { start: number; end: number; value: FieldValue } | null,
): { start: number; end: number; value: FieldValue } | null {
  if (!got || got.value === null || got.value === "") return null;
  if (field.type !== "string" || typeof got.value !== "string") return got;
  const value = conform(got.value, r);
  return value === null ? null : { ...got, value };
}

type Target = { line: Line; word: LineWord };

/** Words of the page whose offset from `origin` is near `rel`, nearest first. */
function near(
  onPage: Line[],
  f: Frame,
  origin: [number, number],
  rel: [number, number],
  tx: number,
  ty: number,
): Target[] {
  const o: [number, number, number, number] = [origin[0], origin[1], origin[0], origin[1]];
  return onPage
    .flatMap((l) => l.words.map((w) => ({ line: l, word: w, d: offsetOf(f, o, w.box) })))
    .filter((c) => Math.abs(c.d[0] - rel[0]) <= tx && Math.abs(c.d[1] - rel[1]) <= ty)
    .sort(
      (a, b) => Math.hypot((a.d[0] - rel[0]) / 3, a.d[1] - rel[1]) - Math.hypot((b.d[0] - rel[0]) / 3, b.d[1] - rel[1]),
    )
    .slice(0, 4);
}

/** The label as printed, or as OCR reads it (one or two slips). */
function labelHits(label: string, onPage: Line[], order: DateOrder) {
  const exact = findValueOnLines("string", label, onPage, order);
  return exact.length ? exact : findText(label, onPage, compact(label).length >= 8 ? 0.8 : 0.75);
}

function readPlacement(
  field: FieldSettings,
  r: Placement,
  lines: Line[],
  pages: Page[],
  order: DateOrder,
): Read | null {
  const page = pages[r.page - 1] ?? pages[0];
  if (!page) return null;
  const onPage = lines.filter((l) => l.page === page);
  const f = frameOf(onPage, page);
  const tryAll = (cands: Target[], how: string): Read | null => {
    for (const c of cands) {
      const got = fitted(field, r, readAt(field, r, c.line, c.word, order, onPage));
      if (got) return { line: c.line, ...got, how };
    }
    return null;
  };
  if (r.label && r.rel) {
    for (const hit of labelHits(r.label, onPage, order)) {
      const last = hit.words[hit.words.length - 1]!,
        first = hit.words[0]!;
      const labelText = hit.words.map((w) => w.word.text).join(" ");
      const origin: [number, number] =
        r.relation === "right" ? [last.box[2], last.box[1]] : [first.box[0], first.box[3]];
      const tx =
        r.relation === "right" ? Math.max(4, Math.abs(r.rel[0]) * 0.35) : Math.max(3, Math.abs(r.rel[0]) * 0.3);
      const cands = near(onPage, f, origin, r.rel, tx, r.relation === "right" ? 0.9 : 1.3).filter(
        (c) => !hit.words.includes(c.word),
      );
      const read = tryAll(cands, `value ${r.relation === "right" ? "right of" : "below"} label "${labelText}"`);
      if (read) return read;
    }
    // A label OCR could not read: a header value (not an amount: totals move with the item count) is looked for at
    // its place relative to the page's text, where it must still have the remembered shape.
    return field.type === "amount" || !r.place
      ? null
      : atPlace(r, onPage, f, tryAll, "value at its remembered place (its label not read)");
  }
  if (r.label && r.offset) return legacyLabelled(field, r, onPage, page, order, tryAll);
  if (r.label) return null;
  if (r.anchor) {
    const anchor = r.anchor;
    const words = onPage.flatMap((l) => l.words).filter((w) => similarity(compact(w.word.text), anchor.text) >= 0.8);
    for (const w of words) {
      const read = tryAll(
        near(onPage, f, [w.box[0], w.box[1]], anchor.rel, 2.5, 1),
        `value measured from "${w.word.text}" as on the confirmed document`,
      );
      if (read) return read;
    }
  }
  if (r.place) return atPlace(r, onPage, f, tryAll, "value at the remembered place relative to the page's text");
  // A memory written before places were relative to the text: the remembered page fractions.
  const [W, H] = uprightSize(page);
  const cands = onPage.flatMap((l) =>
    l.words.map((w) => ({
      line: l,
      word: w,
      d: Math.hypot(w.box[0] / W - r.position[0], 3 * (w.box[1] / H - r.position[1])),
    })),
  );
  return tryAll(
    cands
      .filter((c) => c.d <= 0.06)
      .sort((a, b) => a.d - b.d)
      .slice(0, 3),
    "value at the remembered place on the page",
  );
}

/** The words starting nearest the remembered place (frame terms), read in turn. */
function atPlace(
  r: Placement,
  onPage: Line[],
  f: Frame,
  tryAll: (c: Target[], how: string) => Read | null,
  how: string,
): Read | null {
  const place = r.place!;
  const cands = onPage
    .flatMap((l) => l.words.map((w) => ({ line: l, word: w, p: placeOf(f, w.box) })))
    .filter((c) => Math.abs(c.p[0] - place[0]) <= 0.06 && Math.abs(c.p[1] - place[1]) <= 2)
    .sort(
      (a, b) =>
        Math.hypot(a.p[0] - place[0], (a.p[1] - place[1]) / 30) -
        Math.hypot(b.p[0] - place[0], (b.p[1] - place[1]) / 30),
    );
  return tryAll(cands.slice(0, 3), how);
}

/** Memories written before offsets in word heights: the label's offset in page fractions, as they were read then. */
function legacyLabelled(
  field: FieldSettings,
  r: Placement,
  onPage: Line[],
  page: Page,
  order: DateOrder,
  tryAll: (c: Target[], how: string) => Read | null,
): Read | null {
  const [W, H] = uprightSize(page);
  for (const hit of findValueOnLines("string", r.label!, onPage, order)) {
    const last = hit.words[hit.words.length - 1]!,
      first = hit.words[0]!;
    const how = `value ${r.relation === "right" ? "right of" : "below"} label "${hit.words.map((w) => w.word.text).join(" ")}"`;
    let cands: Target[];
    if (r.relation === "right") {
      const x = last.box[2] / W + r.offset![0];
      cands = hit.line.words
        .filter((w) => w.box[0] >= last.box[2] - 1 && Math.abs(w.box[0] / W - x) <= 0.2)
        .sort((a, b) => Math.abs(a.box[0] / W - x) - Math.abs(b.box[0] / W - x))
        .map((w) => ({ line: hit.line, word: w }));
    } else {
      const x = first.box[0] / W + r.offset![0],
        y = first.box[3] / H + r.offset![1];
      cands = onPage
        .filter((l) => l.box[1] >= first.box[1] && Math.abs(l.box[1] / H - y) <= 0.03)
        .flatMap((l) => l.words.map((w) => ({ line: l, word: w })))
        .filter((c) => Math.abs(c.word.box[0] / W - x) <= 0.1)
        .sort((a, b) => Math.abs(a.word.box[0] / W - x) - Math.abs(b.word.box[0] / W - x));
    }
    const read = tryAll(cands.slice(0, 1), how);
    if (read) return read;
  }
  return null;
}

/** Reads a remembered field: each placement the issuer was confirmed with, the most seen first. */
export function recallField(
  field: FieldSettings,
  r: RememberedField,
  lines: Line[],
  pages: Page[],
  order: DateOrder,
): Read | null {
  const placements: Placement[] = [r, ...(r.variants ?? [])]
    .filter((p) => !p.constant)
    .sort((a, b) => (b.seen ?? 1) - (a.seen ?? 1));
  for (const p of placements) {
    const read = readPlacement(field, p, lines, pages, order);
    if (read) return read;
  }
  return null;
}
