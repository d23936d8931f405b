/** The page object around words a test placed as OCR would on a 700-pixel-wide photo (receipt tests share it). */
import type { Page, Word } from "../../../src/core/model";

/** An OCR'd photo page of `words`, `height` pixels tall, whose page text is `text`. */
export function photoPage(words: Word[], text: string, height: number): Page {
  return {
    page_number: 1,
    source_file_index: 0,
    source_filename: "r.jpg",
    source_file_page_number: 1,
    image_transform: {
      rasterized_width: 700,
      rasterized_height: height,
      source_width: 700,
      source_height: height,
      source_unit: "pixel",
      render_scale: 1,
      effective_dpi: null,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
    text_source: "ocr",
    words,
    text,
    ocr_confidence: 0.9,
  };
}

/**
 * Words of `lines` as OCR boxes them: 10 px of width per character, a space's width between words, 20 px tall, one
 * line every `pitch` px from y = 40, starting at `x0`; lines numbered from 1.
 */
export function wordsOfLines(lines: string[], x0: number, pitch = 30): Word[] {
  const words: Word[] = [];
  lines.forEach((text, i) => {
    let x = x0;
    for (const t of text.split(" ").filter(Boolean)) {
      words.push({
        text: t,
        bounding_box: [x, 40 + i * pitch, x + 10 * t.length, 60 + i * pitch],
        confidence: 0.9,
        line: i + 1,
      });
      x += 10 * (t.length + 1);
    }
  });
  return words;
}
