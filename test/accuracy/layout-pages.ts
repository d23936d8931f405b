/**
 * Generated text pages of known reading order, for the reading-order corpus (ocr-text/columns) and its tests: one,
 * two or three columns of prose (narrow or wide gutters, justified or ragged, serif or sans), a full-width title, a
 * running header with the page number, a picture box with its caption, a table-like block in a column, a full-width
 * note under the columns and a page number at the foot. Drawn with pdf-lib's standard fonts, which pdf.js renders
 * with its bundled fonts (node_modules/pdfjs-dist/standard_fonts: the repository's, never the system's), so the
 * pixels do not depend on the fonts installed. The true text comes with it in reading order: header, title, each
 * column top to bottom (caption and table rows where they stand), the note, the page number. Same layout and seed,
 * same page.
 */
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { Rng } from "../../fixtures/varied/generator/random";

export interface PageLayout {
  columns: 1 | 2 | 3;
  /** Space between columns, in points. */
  gutter: number;
  justified: boolean;
  sans?: boolean;
  /** Running header: the journal's name on the left, the page number on the right, over a rule. */
  header?: boolean;
  /** A grey picture box in a column, with a two-line caption under it. */
  figure?: boolean;
  /** A table-like block (a header row and rows of a name and two amounts) in a column. */
  table?: boolean;
  /** A full-width note of two or three lines under the columns. */
  note?: boolean;
  /** "Page N" centred at the foot of the page. */
  pageNumber?: boolean;
}

export interface LayoutPage {
  pdf: Uint8Array;
  /** The page's text in reading order, lines joined by "\n". */
  text: string;
}

const WORDS = (
  "the harbour town keeps its old stone walls and narrow streets where fishermen mend their nets before dawn " +
  "while merchants open small shops selling bread cheese wine and bright fabric to visitors who arrive by ferry " +
  "every morning during the long summer season many families have lived here for generations and remember " +
  "storms that flooded the market square or winters when the bay froze solid from shore to island the council " +
  "plans to restore the lighthouse repair the pier and build a museum about ships trade and the sailors who " +
  "crossed distant oceans carrying salt timber copper and letters from home"
).split(" ");
const CARGO = ["Salt", "Timber", "Copper", "Wool", "Grain", "Wine", "Cheese", "Fabric", "Coal", "Rope"];

const [W, H] = [612, 792];
const MARGIN = 54;
const BODY = 10;
const LEADING = 13;

function sentence(r: Rng, min = 8, spread = 10): string {
  const words = Array.from({ length: min + Math.floor(r.next() * spread) }, () => r.pick(WORDS));
  words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
  return `${words.join(" ")}.`;
}

/** Words of a paragraph cut into lines of at most `width` points (the first one indented by `indent`). */
function wrap(font: PDFFont, size: number, words: string[], width: number, indent: number): string[][] {
  const lines: string[][] = [];
  let line: string[] = [];
  for (const w of words) {
    const room = width - (lines.length === 0 ? indent : 0);
    if (line.length && font.widthOfTextAtSize([...line, w].join(" "), size) > room) {
      lines.push(line);
      line = [];
    }
    line.push(w);
  }
  if (line.length) lines.push(line);
  return lines;
}

interface Pen {
  page: PDFPage;
  font: PDFFont;
  size: number;
}

/** Draws `words` from x at baseline y, spread to `width` when `justify` (else single spaces). */
function drawLine({ page, font, size }: Pen, words: string[], x: number, y: number, width: number, justify: boolean) {
  const widths = words.map((w) => font.widthOfTextAtSize(w, size));
  const space = font.widthOfTextAtSize(" ", size);
  const gap = !justify || words.length < 2 ? space : (width - widths.reduce((a, b) => a + b, 0)) / (words.length - 1);
  let at = x;
  words.forEach((w, i) => {
    page.drawText(w, { x: at, y, size, font });
    at += widths[i]! + gap;
  });
}

/** What flows down the columns: a line of prose, or a block that is never split (picture with caption, table). */
type Piece =
  | { kind: "line"; words: string[]; indent: number; last: boolean }
  | { kind: "block"; height: number; draw: (x: number, top: number, width: number) => string[] };

function figureBlock(pen: Pen, italic: PDFFont, r: Rng): Piece {
  const box = LEADING * (6 + Math.floor(r.next() * 5));
  const caption = [sentence(r).slice(0, -1).split(" ").slice(0, 4).join(" "), "seen from the old pier."];
  return {
    kind: "block",
    height: box + 12 + caption.length * 10 + 4,
    draw(x, top, width) {
      pen.page.drawRectangle({ x, y: top - box, width, height: box, color: rgb(0.78, 0.78, 0.78) });
      pen.page.drawRectangle({
        x: x + 12,
        y: top - box + 10,
        width: width / 3,
        height: box / 2,
        color: rgb(0.5, 0.5, 0.5),
      });
      caption.forEach((c, i) => pen.page.drawText(c, { x, y: top - box - 12 - i * 10, size: 8, font: italic }));
      return caption;
    },
  };
}

function tableBlock(pen: Pen, bold: PDFFont, r: Rng): Piece {
  const rows = Array.from({ length: 4 + Math.floor(r.next() * 3) }, (_, i) => [
    CARGO[(i * 3 + Math.floor(r.next() * 3)) % CARGO.length]!,
    String(r.int(2, 480)),
    `${r.int(1, 99)}.${String(r.int(0, 99)).padStart(2, "0")}`,
  ]);
  const all = [["Cargo", "Tons", "Price"], ...rows];
  return {
    kind: "block",
    height: all.length * 12 + 10,
    draw(x, top, width) {
      all.forEach((row, i) => {
        const font = i === 0 ? bold : pen.font;
        const y = top - 10 - i * 12;
        pen.page.drawText(row[0]!, { x, y, size: 9, font });
        for (const [c, right] of [
          [1, x + width * 0.62],
          [2, x + width],
        ] as const)
          pen.page.drawText(row[c]!, { x: right - font.widthOfTextAtSize(row[c]!, 9), y, size: 9, font });
      });
      return all.map((row) => row.join(" "));
    },
  };
}

/** The prose lines and blocks of the columns, in reading order. */
function pieces(layout: PageLayout, pen: Pen, fonts: { italic: PDFFont; bold: PDFFont }, r: Rng, width: number) {
  const out: Piece[] = [];
  for (let p = 0; p < 14; p++) {
    const words: string[] = [];
    while (words.length < 40) words.push(...sentence(r).split(" "));
    const lines = wrap(pen.font, BODY, words, width, 12);
    lines.forEach((w, i) =>
      out.push({ kind: "line", words: w, indent: i === 0 ? 12 : 0, last: i === lines.length - 1 }),
    );
    if (p === 1 && layout.figure) out.push(figureBlock(pen, fonts.italic, r));
    if (p === (layout.columns === 1 ? 2 : 4) && layout.table) out.push(tableBlock(pen, fonts.bold, r));
  }
  return out;
}

/** A page of `layout` from `seed`. */
export async function layoutPage(layout: PageLayout, seed: number): Promise<LayoutPage> {
  const r = new Rng(seed);
  const doc = await PDFDocument.create();
  doc.setCreationDate(new Date(Date.UTC(2024, 0, 1)));
  doc.setModificationDate(new Date(Date.UTC(2024, 0, 1)));
  const page = doc.addPage([W, H]);
  const [body, bold, italic] = await Promise.all(
    (layout.sans
      ? [StandardFonts.Helvetica, StandardFonts.HelveticaBold, StandardFonts.HelveticaOblique]
      : [StandardFonts.TimesRoman, StandardFonts.HelveticaBold, StandardFonts.TimesRomanItalic]
    ).map((f) => doc.embedFont(f)),
  );
  const pen: Pen = { page, font: body, size: BODY };
  const number = 2 + (seed % 97);
  const text: string[] = [];
  let top = H - MARGIN;
  if (layout.header) {
    const right = `Page ${number}`;
    page.drawText("The Harbour Review", { x: MARGIN, y: top - 8, size: 9, font: italic });
    page.drawText(right, { x: W - MARGIN - italic.widthOfTextAtSize(right, 9), y: top - 8, size: 9, font: italic });
    page.drawLine({ start: { x: MARGIN, y: top - 13 }, end: { x: W - MARGIN, y: top - 13 }, thickness: 0.6 });
    text.push(`The Harbour Review ${right}`);
    top -= 24;
  }
  const title = sentence(r).slice(0, -1).split(" ").slice(0, 6).join(" ");
  page.drawText(title, { x: MARGIN, y: top - 20, size: 20, font: bold });
  text.push(title);
  top -= 44;
  // Under the columns, from the foot up: the page number, the full-width note.
  let bottom = MARGIN;
  const foot: string[] = [];
  if (layout.pageNumber) {
    const label = `Page ${number}`;
    page.drawText(label, { x: (W - body.widthOfTextAtSize(label, 9)) / 2, y: bottom - 12, size: 9, font: body });
    foot.push(label);
    bottom += 6;
  }
  if (layout.note) {
    const words: string[] = [];
    while (words.length < (layout.columns === 1 ? 20 : 30)) words.push(...sentence(r).split(" "));
    const lines = wrap(italic, 9, ["Note:", ...words], W - 2 * MARGIN, 0);
    lines.forEach((w, i) =>
      drawLine(
        { page, font: italic, size: 9 },
        w,
        MARGIN,
        bottom + 12 * (lines.length - i),
        W - 2 * MARGIN,
        i < lines.length - 1,
      ),
    );
    foot.unshift(...lines.map((w) => w.join(" ")));
    bottom += 12 * lines.length + 16;
  }
  const width = (W - 2 * MARGIN - (layout.columns - 1) * layout.gutter) / layout.columns;
  flow(pieces(layout, pen, { italic, bold }, r, width), layout, pen, { top, bottom, width }, text);
  text.push(...foot);
  return { pdf: await doc.save({ useObjectStreams: false }), text: text.join("\n") };
}

/** Places the pieces column by column between top and bottom; what does not fit on the page is left out. */
function flow(
  all: Piece[],
  layout: PageLayout,
  pen: Pen,
  box: { top: number; bottom: number; width: number },
  text: string[],
) {
  let col = 0;
  let y = box.top;
  const x = () => MARGIN + col * (box.width + layout.gutter);
  for (const piece of all) {
    const need = piece.kind === "line" ? LEADING : piece.height + LEADING;
    if (y - need < box.bottom) {
      if (++col >= layout.columns) return;
      y = box.top;
    }
    if (piece.kind === "line") {
      y -= LEADING;
      drawLine(pen, piece.words, x() + piece.indent, y, box.width - piece.indent, layout.justified && !piece.last);
      text.push(piece.words.join(" "));
    } else {
      text.push(...piece.draw(x(), y - 4, box.width));
      y -= piece.height + 4;
    }
  }
}
