/**
 * Coordinate rule 2 of the spec: with orientation Corrected the page rotation is applied to every box, so boxes
 * overlay the upright (corrected) JPG directly. Only the quarter-turn `rotation` is applied; a small measured skew
 * (`skew_degrees`) is not, on either the image or the boxes, so they stay aligned.
 */
import type { Box, ImageTransform, ResultsFile, ResultsPage } from "../model";
import { quarterTurn, rotateBox } from "../geometry";
export { quarterTurn, rotateBox };

export type Orientation = "original" | "corrected";
export type CorrectedImageTransform = ImageTransform & { orientation: Orientation };
export type OrientedResults = ResultsFile & { orientation?: Orientation };

function correctedTransform(t: ImageTransform): CorrectedImageTransform {
  const swap = quarterTurn(t.rotation) % 180 === 90;
  return {
    ...t,
    rasterized_width: swap ? t.rasterized_height : t.rasterized_width,
    rasterized_height: swap ? t.rasterized_width : t.rasterized_height,
    source_width: swap ? t.source_height : t.source_width,
    source_height: swap ? t.source_width : t.source_height,
    orientation: "corrected",
  };
}

function correctedPage(page: ResultsPage): ResultsPage {
  const t = page.image_transform;
  const turn = (b: Box) => rotateBox(b, t.rasterized_width, t.rasterized_height, t.rotation);
  return {
    ...page,
    image_transform: correctedTransform(t),
    ...(page.words ? { words: page.words.map((w) => ({ ...w, bounding_box: turn(w.bounding_box) })) } : {}),
  };
}

/**
 * A copy of `results` in corrected orientation: word and field boxes rotated by their page's `rotation`, page sizes
 * swapped for quarter turns, `orientation: "corrected"` at the top level and on every `image_transform`.
 * `rotation` keeps its value so a reader knows which turn was applied; it MUST NOT be applied again.
 * Field boxes on pages missing from `results.pages` are left unchanged. The input is not modified.
 */
export function correctedResults(results: ResultsFile): OrientedResults {
  const transforms = new Map((results.pages ?? []).map((p) => [p.page_number, p.image_transform]));
  const documents = results.documents.map((doc) => ({
    ...doc,
    fields: Object.fromEntries(
      Object.entries(doc.fields).map(([id, field]) => [
        id,
        {
          ...field,
          bounding_boxes: field.bounding_boxes.map((fb) => {
            const t = transforms.get(fb.page_index);
            if (!t) return { ...fb };
            return {
              ...fb,
              coordinates: rotateBox(fb.coordinates, t.rasterized_width, t.rasterized_height, t.rotation),
            };
          }),
        },
      ]),
    ),
  }));
  return {
    ...results,
    orientation: "corrected",
    documents,
    ...(results.pages ? { pages: results.pages.map(correctedPage) } : {}),
  };
}
