/** Page geometry shared by OCR and exports: quarter turns of boxes in rasterized pixel space. */
import { DocprocError } from "./errors";
import type { Box } from "./model";

/** The nearest multiple of 90 in 0..270 (rotations are recorded in whole quarter turns). */
export function quarterTurn(rotation: number): 0 | 90 | 180 | 270 {
  const r = ((Math.round(rotation / 90) * 90) % 360 + 360) % 360;
  return r as 0 | 90 | 180 | 270;
}

/**
 * Turns a box on a `width` × `height` page `rotation` degrees clockwise (the direction sharp's rotate() uses),
 * returning it in the rotated page's pixel space: with the page's recorded rotation, where a box sits on the page
 * as a person reads it.
 */
export function rotateBox(box: Box, width: number, height: number, rotation: number): Box {
  if (rotation % 90 !== 0) throw new DocprocError("invalid_input", `rotation must be a multiple of 90, got ${rotation}`);
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
