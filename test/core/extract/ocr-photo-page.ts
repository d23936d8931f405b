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
