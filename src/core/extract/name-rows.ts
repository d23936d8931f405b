/**
 * Name rows under a party heading (the XRechnung visualisation's "Firmenname", a portal's "Name", a FatturaPA
 * stylesheet's "Denominazione"): the value right of the row's label, without the EN 16931 term reference printed
 * beside it, and continued when the name wraps in its value cell. Apart from label-candidates.ts, which asks it for
 * a heading's section.
 */
import { type Line, lineHeight } from "./lines";
import { below, type LabelHit, rowPartners } from "./labels";
import { readValue, type ReadContext, type ValueMatch } from "./values";
import { afterSpeck } from "./specks";
import { plausible } from "./candidate";
import { fold } from "./fuzzy";

/** Labels of a name row in a party section (the XRechnung visualisation's "Firmenname", a portal's "Name"). */
const NAME_ROW =
  /^\s*(name|firmenname|firma|company|company name|legal name|registered name|trading name|raison sociale|nom|d[eé]nomination|naam|bedrijfsnaam|nombre|raz[oó]n social|nome|ragione sociale|denominazione|namn|navn)\s*:?\s*$/iu;

/** Rows of a party section searched for its name row: a section lists the VAT ID and tax code before the name. */
const SECTION_ROWS = 6;

/**
 * The name row's value in the section under a party heading: the first name row among the rows under it, up to a
 * gap of more than a blank line (the next section). Undefined when the section has no name row.
 */
export function sectionNameValue(hit: LabelHit, lines: Line[], ctx: ReadContext): ValueMatch | null | undefined {
  let last = hit.line.box;
  for (const [i, row] of below(hit, lines, SECTION_ROWS).entries()) {
    if (i > 0 && row.box[1] - last[3] > Math.max(lineHeight(row), lineHeight(hit.line)) * 1.6) break;
    const named = nameRowValue(hit, row, lines, ctx);
    if (named !== undefined) return named;
    last = row.box;
  }
  return undefined;
}

/**
 * The value of the row under a party heading when that row is a name row: undefined when it is none (the heading's
 * value is the row itself), null when it is one without a readable value. The value is read right of the row's
 * label on its full line, or from the line OCR made of the row's right part.
 */
export function nameRowValue(hit: LabelHit, row: Line, lines: Line[], ctx: ReadContext): ValueMatch | null | undefined {
  // Folded: OCR lends a label diacritics it does not have ("Denominaziöne").
  const isLabel = (end: number) => NAME_ROW.test(fold(row.text.slice(0, end)));
  const label = row.words.filter((w) => isLabel(w.end));
  if (!label.length || !isLabel(label[label.length - 1]!.end)) return undefined;
  const lastWord = label[label.length - 1]!.word;
  const full = lines.find((l) => l.page === row.page && l.words.some((w) => w.word === lastWord));
  if (!full) return null;
  const at = full.words.find((w) => w.word === lastWord)!;
  const right = withoutTermRef(readValue("text", full, pastLoose(full, at.end), ctx));
  if (right && String(right.value ?? "").trim() && plausible("party", right.value)) return continued(right, lines);
  const sub: LabelHit = { ...hit, line: full, start: at.start, end: at.end, box: at.box };
  for (const partner of rowPartners(sub, lines).slice(0, 1)) {
    const m = withoutTermRef(readValue("text", partner, 0, ctx));
    if (m && plausible("party", m.value)) return continued(m, lines);
  }
  return null;
}

/** Past short marks OCR read from the grain in the gap between a row's label and its value ("Name  feo  Acme"). */
function pastLoose(line: Line, offset: number): number {
  const words = line.words.filter((w) => w.start >= offset);
  let at = offset;
  for (let i = 0; i + 1 < words.length; i++) {
    const [w, next] = [words[i]!, words[i + 1]!];
    if (w.word.text.length > 3 || next.box[0] - w.box[2] < lineHeight(line)) break;
    at = w.end;
  }
  return at;
}

/**
 * A visualisation prints the EN 16931 term beside each value ("Acme GmbH   BT-27"): the value ends before it (a
 * text layer may join the next column after it).
 */
function withoutTermRef(m: ValueMatch | null): ValueMatch | null {
  const text = typeof m?.value === "string" ? m.value : "";
  // OCR reads the small reference loosely ("sr-27", "81-27").
  const ref = /\s+B[TG]-\d+(-\d+)?(?![\p{L}\p{N}])|\s+\S{1,3}[-–]\d{1,3}(?=\s|$)/u.exec(text);
  if (!m || !ref) return m;
  return { ...m, value: text.slice(0, ref.index), end: m.start + ref.index };
}

/** OCR words less sure than this in an empty label cell are grain read as letters ("SRS" at 0.23), no label. */
const GRAIN = 0.5;
/** An EN 16931 term reference as a word, as OCR reads it too ("BT-27", "sr-27"). */
const TERM_REF = /^\S{1,3}[-–]\d{1,3}(-\d+)?$/u;

/**
 * A name wrapped in its value cell ("Landesamt für Statistik" over "Heilbronn"): the next line's words that start
 * at the value's left edge, with nothing in the label cell left of them, continue it.
 */
function continued(m: ValueMatch, lines: Line[]): ValueMatch {
  // The value's first word, not a mark OCR read from the grain before it ("~"): the wrapped line starts under it.
  const first = m.line.words.find((w) => w.end > m.start && /[\p{L}\p{N}]/u.test(w.word.text));
  if (!first) return m;
  const lh = lineHeight(m.line);
  const x = first.box[0];
  // The next line down with a word starting at the value's edge (OCR may have put the other column's rows between).
  const startsAtX = (l: Line) => l.words.find((w) => Math.abs(w.box[0] - x) <= lh * 0.6);
  const next = lines
    .filter((l) => l.page === m.line.page && l.box[1] > m.line.box[1] + lh * 0.5 && l.box[1] - m.line.box[3] < lh)
    .filter((l) => startsAtX(l))
    .sort((a, b) => a.box[1] - b.box[1])[0];
  const start = next && startsAtX(next);
  if (!next || !start) return m;
  // A label of its own in the row's label cell, on this line or on one OCR made of the row's left part. The other
  // column's term reference ("BT-50") and marks or letters OCR read from the grain are no label: a skewed scan's
  // tall lines reach that far.
  const mid = (next.box[1] + next.box[3]) / 2;
  const row = lines.filter((l) => l.page === next.page && l.box[1] < mid && l.box[3] > mid);
  // A label ending in a colon is the row's label however wide the label column (a stylesheet's "Comune:" 20 line
  // heights left of its value).
  const labelLike = (w: Line["words"][number]) =>
    w.box[2] < x - lh * 0.5 &&
    (w.box[2] > x - lh * 12 || /\p{L}:$/u.test(w.word.text)) &&
    /\p{L}{2}/u.test(w.word.text) &&
    !TERM_REF.test(w.word.text) &&
    w.word.confidence >= GRAIN;
  if (row.some((l) => l.words.some(labelLike))) return m;
  const words = [start];
  for (const w of next.words.slice(next.words.indexOf(start) + 1)) {
    if (w.box[0] - words[words.length - 1]!.box[2] > lh || /^B[TG]-\d/.test(w.word.text)) break;
    words.push(w);
  }
  // Marks read from the grain between words are dropped; a street or a postcode is the next row, not the name.
  const tail = words
    .map((w) => afterSpeck(w.word.text)[0])
    .filter((t) => /[\p{L}\p{N}&(]/u.test(t))
    .join(" ");
  if (!/^[\p{L}(&]/u.test(tail) || /\d|:/.test(tail)) return m;
  const head = String(m.value).replace(/(\s+[^\p{L}\p{N}&(]+)+$/u, "");
  return { ...m, value: `${head} ${tail}` };
}
