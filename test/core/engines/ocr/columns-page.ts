/**
 * A deterministic generator of magazine-like pages for the reading-order tests: a heading across the page, two or
 * three columns of justified prose in paragraphs (first lines indented), a picture box in one column with a caption
 * under it, and a page footer. Drawn with pdf-lib's standard fonts (pdf.js renders them with its bundled fonts, so
 * the pixels do not depend on the fonts installed); the true text comes with it, in reading order: heading, each
 * column top to bottom (the caption where it stands in its column), footer. Same seed, same page.
 */
import { PDFDocument, rgb, StandardFonts, type PDFFont, type PDFPage } from "pdf-lib";
import { Rng } from "../../../../fixtures/varied/generator/random";

const WORDS = (
  "the harbour town keeps its old stone walls and narrow streets where fishermen mend their nets before dawn " +
  "while merchants open small shops selling bread cheese wine and bright fabric to visitors who arrive by ferry " +
  "every morning during the long summer season many families have lived here for generations and remember " +
  "storms that flooded the market square or winters when the bay froze solid from shore to island the council " +
  "plans to restore the lighthouse repair the pier and build a museum about ships trade and the sailors who " +
  "crossed distant oceans carrying salt timber copper and letters from home"
).split(" ");

export interface ColumnsPage {
  pdf: Uint8Array;
  /** The page's text in reading order, lines joined by "\n". */
  text: string;
}

const [W, H] = [612, 792];
const MARGIN = 54;
const GUTTER = 20;
const BODY = 10;
const LEADING = 13;

function sentence(r: Rng): string {
  const n = 8 + Math.floor(r.next() * 10);
  const words = Array.from({ length: n }, () => WORDS[Math.floor(r.next() * WORDS.length)]!);
  words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
  return `${words.join(" ")}.`;
}

/** Paragraphs of about `words` words each. */
function paragraphs(r: Rng, count: number): string[][] {
  return Array.from({ length: count }, () => {
    const out: string[] = [];
    while (out.length < 45) out.push(...sentence(r).split(" "));
    return out;
  });
}

/** Draws `words` justified between x and x + width at baseline y (the last line of a paragraph ragged). */
function drawLine(page: PDFPage, font: PDFFont, words: string[], x: number, y: number, width: number, last: boolean) {
  const widths = words.map((w) => font.widthOfTextAtSize(w, BODY));
  const space = font.widthOfTextAtSize(" ", BODY);
  const gap = last || words.length < 2 ? space : (width - widths.reduce((a, b) => a + b, 0)) / (words.length - 1);
  let at = x;
  words.forEach((w, i) => {
    page.drawText(w, { x: at, y, size: BODY, font });
    at += widths[i]! + gap;
  });
}

/** Words of a paragraph cut into lines of at most `width` points (the first one indented by `indent`). */
function wrap(font: PDFFont, words: string[], width: number, indent: number): string[][] {
  const lines: string[][] = [];
  let line: string[] = [];
  for (const w of words) {
    const room = width - (lines.length === 0 ? indent : 0);
    if (line.length && font.widthOfTextAtSize([...line, w].join(" "), BODY) > room) {
      lines.push(line);
      line = [];
    }
    line.push(w);
  }
  if (line.length) lines.push(line);
  return lines;
}

/** A page of `columns` (2 or 3) columns from `seed`. */
export async function columnsPage(columns: 2 | 3, seed: number): Promise<ColumnsPage> {
  const r = new Rng(seed);
  const doc = await PDFDocument.create();
  doc.setCreationDate(new Date(Date.UTC(2024, 0, 1)));
  doc.setModificationDate(new Date(Date.UTC(2024, 0, 1)));
  const page = doc.addPage([W, H]);
  const [roman, bold, italic] = await Promise.all([
    doc.embedFont(StandardFonts.TimesRoman),
    doc.embedFont(StandardFonts.HelveticaBold),
    doc.embedFont(StandardFonts.HelveticaOblique),
  ]);
  const text: string[] = [];
  const heading = `${sentence(r).slice(0, -1).split(" ").slice(0, 6).join(" ")}`;
  page.drawText(heading, { x: MARGIN, y: H - MARGIN - 20, size: 20, font: bold });
  text.push(heading);
  const width = (W - 2 * MARGIN - (columns - 1) * GUTTER) / columns;
  const top = H - MARGIN - 56;
  const bottom = MARGIN + 30;
  // The picture: in the last column but one, a third of the way down, 9-13 lines high, its caption under it.
  const picColumn = columns - 2;
  const picTop = top - LEADING * (8 + Math.floor(r.next() * 6));
  const picHeight = LEADING * (9 + Math.floor(r.next() * 5));
  const caption = [sentence(r).slice(0, -1).split(" ").slice(0, 5).join(" "), "seen from the old pier."];
  const paras = paragraphs(r, 12);
  let col = 0;
  let y = top;
  let picDone = false;
  const x = () => MARGIN + col * (width + GUTTER);
  const nextLine = () => {
    y -= LEADING;
    if (col === picColumn && !picDone && y < picTop) {
      page.drawRectangle({ x: x(), y: picTop - picHeight, width, height: picHeight, color: rgb(0.75, 0.75, 0.75) });
      page.drawRectangle({
        x: x() + 20,
        y: picTop - picHeight + 15,
        width: width / 3,
        height: picHeight / 2,
        color: rgb(0.45, 0.45, 0.45),
      });
      caption.forEach((c, i) =>
        page.drawText(c, { x: x(), y: picTop - picHeight - 12 - i * 10, size: 8, font: italic }),
      );
      text.push(...caption);
      y = picTop - picHeight - 12 - caption.length * 10 - LEADING;
      picDone = true;
    }
    if (y < bottom) {
      col++;
      y = top - LEADING;
    }
  };
  for (const para of paras) {
    const lines = wrap(roman, para, width, 12);
    for (const [i, line] of lines.entries()) {
      if (col >= columns) break;
      nextLine();
      if (col >= columns) break;
      const indent = i === 0 ? 12 : 0;
      drawLine(page, roman, line, x() + indent, y, width - indent, i === lines.length - 1);
      text.push(line.join(" "));
    }
  }
  const footer = `Page ${2 + (seed % 40)} The Harbour Review`;
  page.drawText(footer, { x: MARGIN, y: MARGIN - 4, size: 8, font: italic });
  text.push(footer);
  return { pdf: await doc.save({ useObjectStreams: false }), text: text.join("\n") };
}
