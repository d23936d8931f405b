/**
 * A page whose rows of text are words 10 px per character on lines 30 px apart: the label-index tests
 * (label-lists, search-plan) build their pages from every label of the default project this way.
 */
import type { Page, Word } from "../../../src/core/model";

export function pageOf(rows: string[], source: Page["text_source"] = "text_layer"): Page {
  const words: Word[] = [];
  rows.forEach((row, line) => {
    let x = 50;
    for (const text of row.split(" ").filter(Boolean)) {
      words.push({
        text,
        confidence: 1,
        bounding_box: [x, 100 + line * 30, x + text.length * 10, 120 + line * 30],
        line,
      });
      x += text.length * 10 + 10;
    }
  });
  return {
    page_number: 1,
    source_file_index: 0,
    source_filename: "t.pdf",
    source_file_page_number: 1,
    image_transform: {
      rasterized_width: 2000,
      rasterized_height: 3000,
      source_width: 1000,
      source_height: 1500,
      source_unit: "point",
      render_scale: 2,
      effective_dpi: 144,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
    text_source: source,
    words,
    text: rows.map((r) => r.split(" ").filter(Boolean).join(" ")).join("\n"),
    ocr_confidence: 1,
  };
}
