/**
 * Coordinate rule 2 of the spec: with orientation Corrected the page rotation is applied to every box, so boxes
 * overlay the upright (corrected) JPG directly. Only the quarter-turn `rotation` is applied; a small measured skew
 * (`skew_degrees`) is not, on either the image or the boxes, so they stay aligned.
 */
import type { Box, ImageTransform, ResultsFile, ResultsPage } from "../model";

export type Orientation = "original" | "corrected";
export type CorrectedImageTransform = ImageTransform & { orientation: Orientation };
export type OrientedResults = ResultsFile & { orientation?: Orientation };

/** 0, 90, 180 or 270: the recorded rotation snapped to a quarter turn. */
export function quarterTurn(rotation: number): 0 | 90 | 180 | 270 {
  const r = ((Math.round(rotation / 90) * 90) % 360 + 360) % 360;
  return r as 0 | 90 | 180 | 270;
}

/**
 * Turns a box on a `width` × `height` page `rotation` degrees clockwise (the direction sharp's rotate() uses),
 * returning it in the rotated page's pixel space.
 */
export function rotateBox(box: Box, width: number, height: number, rotation: number): Box {
  const [x1, y1, x2, y2] = box;
  switch (quarterTurn(rotation)) {
    case 90:
      return [height - y2, x1, height - y1, x2];
    case 180:
      return [width - x2, height - y2, width - x1, height - y1];
    case 270:
      return [y1, width - x2, y2, width - x1];
    default:
      return [x1, y1, x2, y2];
  }
}

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
            return { ...fb, coordinates: rotateBox(fb.coordinates, t.rasterized_width, t.rasterized_height, t.rotation) };
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
