/**
 * crop() with fractional coordinates: an enlarged layout's ink box (scaled by a zoom such as 2.67) reaches the
 * orientation probes' window unrounded; a receipt photo whose enlarged ink exceeded the probe window failed its OCR
 * with a RangeError (found on receipts-hard/photo-real).
 */
import { expect, test } from "bun:test";
import { crop } from "../../../src/core/imaging/grey.ts";

test("crop rounds fractional windows down instead of throwing", () => {
  const img = { data: Uint8Array.from({ length: 100 }, (_, i) => i), width: 10, height: 10 };
  const out = crop(img, 2.67, 1.5, 3.9, 2.2);
  expect([out.width, out.height]).toEqual([3, 2]);
  expect([...out.data]).toEqual([12, 13, 14, 22, 23, 24]);
});
