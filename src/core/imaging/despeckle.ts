/**
 * Speckle taken out of a scan before it is read: the median of every 3 × 3 neighbourhood.
 */
import type { GreyImage } from "./grey.ts";

/** The 3 × 3 median of `img` (edge pixels repeated). */
export function median3(img: GreyImage): GreyImage {
  const { width: w, height: h, data } = img;
  const out = new Uint8Array(w * h);
  const v = new Int32Array(9);
  for (let y = 0; y < h; y++) {
    const up = (y > 0 ? y - 1 : 0) * w;
    const mid = y * w;
    const down = (y < h - 1 ? y + 1 : y) * w;
    for (let x = 0; x < w; x++) {
      const l = x > 0 ? x - 1 : 0;
      const r = x < w - 1 ? x + 1 : x;
      v[0] = data[up + l]!;
      v[1] = data[up + x]!;
      v[2] = data[up + r]!;
      v[3] = data[mid + l]!;
      v[4] = data[mid + x]!;
      v[5] = data[mid + r]!;
      v[6] = data[down + l]!;
      v[7] = data[down + x]!;
      v[8] = data[down + r]!;
      out[mid + x] = median9(v);
    }
  }
  return { data: out, width: w, height: h };
}

/** The median of nine values by partial insertion sort (the fifth smallest). */
function median9(v: Int32Array): number {
  for (let i = 1; i < 9; i++) {
    const x = v[i]!;
    let j = i - 1;
    while (j >= 0 && v[j]! > x) {
      v[j + 1] = v[j]!;
      j--;
    }
    v[j + 1] = x;
  }
  return v[4]!;
}
