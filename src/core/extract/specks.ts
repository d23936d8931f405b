/**
 * Specks: what OCR reads from a scan's grain and dirt as marks or short words, around values and names.
 */
import type { Line } from "./lines";

/**
 * On an OCR line, the offset past the words right after `offset` that are specks, not text: a box smaller than a
 * third of the line's height each way (a dot of dirt read as ":" or "i"), or a reading without a digit that OCR
 * itself doubts (confidence below 0.35: "So", "Eien" read from the grain of a scan). `offset` when there are none.
 */
export function pastSpecks(line: Line, offset: number): number {
  if (line.page.text_source !== "ocr") return offset;
  const h = line.box[3] - line.box[1];
  let at = offset;
  for (const w of line.words) {
    if (w.start < offset) continue; // the label's own last word ("no:")
    const [x1, y1, x2, y2] = w.box;
    const speck = (x2 - x1 < h / 3 && y2 - y1 < h / 3) || (w.word.confidence < 0.35 && !/\d/.test(w.word.text));
    if (!speck) break;
    at = w.end;
  }
  return at;
}

/**
 * A name without the marks around it that are no part of it: a dash or quote OCR read from a speck before a
 * letterhead ("- KINGS DELI", "‘Bridor Servicios S.L."), a lone dot or bar after it ("Pixsie Print LLC .").
 * Brackets and a legal form's own dots stay.
 */
export function withoutSpecks(name: string): string {
  return name
    .replace(/^[^\p{L}\p{N}(&]+(?=[\p{L}\p{N}(])/u, "")
    .replace(/\s+[^\p{L}\p{N})\]]+$/u, "")
    .replace(DOT_AFTER_DOTLESS_FORM, "");
}

/** A dot after a legal form that is never abbreviated ("… PHARMACY KG."): a speck, or the end of a sentence. */
const DOT_AFTER_DOTLESS_FORM =
  /(?<=(?:^|\s)(?:GmbH|gGmbH|KG|KGaA|AG|UG|OHG|GbR|SE|SARL|SAS|BV|NV|LLC|LLP|PLC|AB|ApS|SpA|Srl))\.$/iu;

/** A word without a quote or dash OCR read from a speck stuck to its start ("‘Bridor"), and that mark's length. */
export function afterSpeck(word: string): [string, number] {
  const speck = /^[‘’‚„“”'"`´~|_.,«»-]+(?=\p{L})/u.exec(word)?.[0].length ?? 0;
  return [word.slice(speck), speck];
}

/** On an OCR line, only marks before `offset`: specks read from the scan's grain ("~ Käufer" starts its line). */
export function onlySpecksBefore(line: Line, offset: number): boolean {
  return line.page.text_source === "ocr" && !/[\p{L}\p{N}]/u.test(line.text.slice(0, offset));
}
