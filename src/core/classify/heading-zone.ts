/**
 * Where a document names itself: the heading zone of its first page (the first lines and short lines) and the title
 * lines among them, which classification's cues count more (cues.ts).
 */
import { fold } from "../extract/fuzzy";

/**
 * The heading zone: first 6 lines of the first page (body lines among them left out: isBodyLine) plus any line of
 * at most 4 words without digits on the first page. Short lines with numbers are table or totals rows ("VAT 20% 12.00"), not headings; a document number
 * after a title does not count ("Credit Memo Nr. F2025-780" is a heading).
 */
export function headingText(firstPageText: string): string {
  const lines = firstPageText.split("\n");
  return lines
    .filter((l, i) => (i < 6 && !isBodyLine(l)) || (mayBeShortHeading(l) && isShortHeadingLine(l)))
    .join("\n");
}

/**
 * A line among the first six that is body, not heading: prose (more than eight words) or a row ending in an amount
 * ("Lizenz gemäß Vertrag Nr. 881 1 500,00"). On a short document the first lines reach into the body, and a
 * contract's words in an invoice's line items or terms ("Kündigung gemäß § 5 des Vertrages") counted three times
 * there outweighed its "Rechnung" title.
 */
const isBodyLine = (line: string) => PROSE.test(line) || ENDS_IN_AMOUNT.test(line);
const PROSE = /^\s*(?:\S+\s+){8}\S/;
const ENDS_IN_AMOUNT = /\s\d[\d.,' ]*[.,]\d{2}(?:\s*(?:[A-Z]{3}|[€$£]))?\s*$/;

/**
 * Whether a line can still be a short heading once its trailing number is cut: NUMBER_AFTER_TITLE removes at most
 * two runs of non-blanks (the number word, the number), so a line of seven or more keeps five and is none. Settles
 * long lines without the number pattern, which tries every position of a line (~half of headingText's time).
 */
export const mayBeShortHeading = (line: string) => !SEVEN_RUNS.test(line);
const SEVEN_RUNS = /^\s*(?:\S+\s+){6}\S/;

/** A line that is a short heading once a trailing number is cut (exported for the test of mayBeShortHeading). */
export const isShortHeadingLine = (line: string) => isShortHeading(withoutNumber(line));

const NUMBER_AFTER_TITLE =
  /\s*(?<![\p{L}])(?:no|nr|n°|nº|#|number|nummer|numero|número)[.:]?\s*#?[\p{L}\p{N}\-/.]*\d[\p{L}\p{N}\-/.]*\s*$/iu;
/**
 * The line without a trailing document number ("Rechnung Nr. 2024-117" → "Rechnung", and a bare one after a title of
 * one or two words: "Rechnung 1234567", "Invoice INV-2024-17", as accounting software prints them); a line without a
 * digit has none. A bare number is no amount ("Total 119,00") nor a date, and has a letter, a dash or six digits;
 * nor is it an identifier led by a country code ("IBAN DE89…", "BTW NL8104…", as OCR reads them "NLSOINGB…": a
 * label and its value, no title).
 */
const withoutNumber = (line: string) =>
  DIGIT.test(line) ? line.replace(NUMBER_AFTER_TITLE, "").replace(BARE_NUMBER, "$1") : line;
const BARE_NUMBER =
  /^(\s*\p{L}[\p{L}'-]*(?:\s+\p{L}[\p{L}'-]*)?)\s+(?![A-Z]{2}\d{2}|[A-Z]{2}[A-Z\d]{9,}\s*$)(?=[\p{L}\p{N}-]*(?:\p{L}\p{N}|\p{N}\p{L}|-|\d{6}))[\p{L}\p{N}-]*\d[\p{L}\p{N}-]*\s*$/u;
const DIGIT = /\d/;
const isShortHeading = (line: string) => line.trim() !== "" && line.trim().split(/\s+/).length <= 4 && !/\d/.test(line);

export const titleKey = (s: string) =>
  fold(s.toLowerCase())
    .replace(/[^\p{L}\s]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();

/** Heading lines that are nothing but words: a cue making up a whole line is the document's title. */
export function titleLines(heading: string): Set<string> {
  return new Set(heading.split("\n").map(withoutNumber).filter(isShortHeading).map(titleKey).filter(Boolean));
}

/**
 * Where a title stands: the heading zone of the upper half of the first page's lines. A letter's sign-off on a line
 * of its own at the end ("Mit freundlichen Grüßen" under an invoice's payment terms) names no document.
 */
export function titleZone(firstPageText: string): string {
  const lines = firstPageText.split("\n");
  return headingText(lines.slice(0, Math.ceil(lines.length / 2)).join("\n"));
}

/**
 * headingText of a first page and titleLines of its titleZone, from one pass over its lines: the title zone is the
 * heading zone's lines in the upper half, and a line's number-less form (withoutNumber) serves both questions.
 */
export function headingZones(firstPageText: string): { heading: string; titles: Set<string> } {
  const lines = firstPageText.split("\n");
  const half = Math.ceil(lines.length / 2);
  const heading: string[] = [];
  const titles = new Set<string>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let bare: string | undefined;
    const short = () => isShortHeading((bare ??= withoutNumber(line)));
    if (!((i < 6 && !isBodyLine(line)) || (mayBeShortHeading(line) && short()))) continue;
    heading.push(line);
    if (i < half && short()) {
      const key = titleKey(bare!);
      if (key) titles.add(key);
    }
  }
  return { heading: heading.join("\n"), titles };
}
