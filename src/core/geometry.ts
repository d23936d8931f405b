/** Page geometry shared by OCR, extraction and exports: boxes in rasterized pixel space and their quarter turns. */
import { DocprocError } from "./errors";
import type { Box } from "./model";

/** The nearest multiple of 90 in 0..270 (rotations are recorded in whole quarter turns). */
export function quarterTurn(rotation: number): 0 | 90 | 180 | 270 {
  const r = (((Math.round(rotation / 90) * 90) % 360) + 360) % 360;
  return r as 0 | 90 | 180 | 270;
}

/**
 * Turns a box on a `width` × `height` page `rotation` degrees clockwise (the direction sharp's rotate() uses),
 * returning it in the rotated page's pixel space: with the page's recorded rotation, where a box sits on the page
 * as a person reads it.
 */
export function rotateBox(box: Box, width: number, height: number, rotation: number): Box {
  if (rotation % 90 !== 0)
    throw new DocprocError("invalid_input", `rotation must be a multiple of 90, got ${rotation}`);
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

/** The smallest box around all `boxes`; [0, 0, 0, 0] for none. */
export function unionBox(boxes: Box[]): Box {
  if (boxes.length === 0) return [0, 0, 0, 0];
  let [x1, y1, x2, y2] = boxes[0]!;
  for (const b of boxes) {
    x1 = Math.min(x1, b[0]);
    y1 = Math.min(y1, b[1]);
    x2 = Math.max(x2, b[2]);
    y2 = Math.max(y2, b[3]);
  }
  return [x1, y1, x2, y2];
}

/** Share of box a's area that lies inside box b (0..1). */
export function shareInside(a: Box, b: Box): number {
  const w = Math.min(a[2], b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[3], b[3]) - Math.max(a[1], b[1]);
  const area = Math.max(1, (a[2] - a[0]) * (a[3] - a[1]));
  return w > 0 && h > 0 ? (w * h) / area : 0;
}
