/**
 * The sums of a one-channel image's factor × factor blocks (integers, exact), a block row at a time: what a box
 * downscale divides by the block's area. Shared by separator detection's grey copy (imaging/grey-thumbnail.ts) and the OCR
 * analysis copy (engines/ocr/downscale.ts), which round the division each in its own way.
 * `width` × `height` blocks from the top-left corner; a source row is `stride` pixels long.
 */
export function blockSums(
  src: Uint8Array | Uint8ClampedArray,
  stride: number,
  factor: number,
  width: number,
  height: number,
): Int32Array {
  const sums = new Int32Array(width * height);
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let dy = 0; dy < factor; dy++) {
      let p = (y * factor + dy) * stride;
      for (let x = 0; x < width; x++) {
        let sum = 0;
        for (let k = 0; k < factor; k++) sum += src[p++]!;
        sums[row + x]! += sum;
      }
    }
  }
  return sums;
}
