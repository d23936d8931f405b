/**
 * TIFF page enumeration from the IFD chain, in one linear pass over the headers.
 *
 * Why not sharp: libvips opens a TIFF page by walking the IFD chain from the first directory, so asking for the
 * size of every page one by one was quadratic (1,000 pages 10 s of CPU, 5,000 pages over 300 s, even when only
 * five pages were wanted). Here the chain is walked once, page sizes are read only for the pages that will be
 * converted, and the walk itself is capped, so a hostile chain (a loop, millions of tiny IFDs) costs little.
 *
 * Contract: `pageCount` is the number of directories in the main chain (what libvips calls pages), counted up to
 * `countCap` (above it the file MUST be refused before any page is read); sizes are the stored ones (EXIF/TIFF
 * orientation is applied by the caller). A chain that breaks off (offset out of the file, a loop) ends the count
 * there, the way libtiff stops; a file whose first directory cannot be read returns null (sharp then decides).
 */

export interface TiffPageInfo {
  width: number;
  height: number;
  /** TIFF Orientation tag (1-8); 1 when absent. */
  orientation: number;
}

export interface TiffPages {
  pageCount: number;
  /** Sizes of the first `wanted` pages (fewer when a directory has no size: such pages are left out). */
  pages: Array<TiffPageInfo & { index: number }>;
  /** True when the chain was longer than `countCap` (pageCount is then countCap + 1). */
  overCap: boolean;
}

const TAG_WIDTH = 256;
const TAG_HEIGHT = 257;
const TAG_ORIENTATION = 274;

export function readTiffPages(data: Uint8Array, wanted: number, countCap: number): TiffPages | null {
  if (data.length < 8) return null;
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  const little = data[0] === 0x49 && data[1] === 0x49;
  if (!little && !(data[0] === 0x4d && data[1] === 0x4d)) return null;
  const version = view.getUint16(2, little);
  const big = version === 43;
  if (version !== 42 && !big) return null;
  const u16 = (at: number) => view.getUint16(at, little);
  const u32 = (at: number) => view.getUint32(at, little);
  const u64 = (at: number) => Number(view.getBigUint64(at, little));
  const offsetAt = (at: number) => (big ? u64(at) : u32(at));
  const entrySize = big ? 20 : 12;
  const countSize = big ? 8 : 2;
  const fits = (at: number, len: number) => Number.isSafeInteger(at) && at >= 8 && at + len <= data.length;

  const pages: TiffPages["pages"] = [];
  const seen = new Set<number>();
  let offset = big ? (fits(8, 8) ? u64(8) : 0) : u32(4);
  let count = 0;
  while (offset !== 0 && fits(offset, countSize) && !seen.has(offset)) {
    if (count >= countCap) return { pageCount: count + 1, pages, overCap: true };
    seen.add(offset);
    const entries = big ? u64(offset) : u16(offset);
    const first = offset + countSize;
    const next = first + entries * entrySize;
    if (!fits(first, entries * entrySize + (big ? 8 : 4))) break;
    if (count < wanted) {
      const info = readSizes(first, entries);
      if (info) pages.push({ ...info, index: count });
    }
    count++;
    offset = offsetAt(next);
  }
  if (count === 0) return null;
  return { pageCount: count, pages, overCap: false };

  function readSizes(first: number, entries: number): TiffPageInfo | null {
    let width = 0;
    let height = 0;
    let orientation = 1;
    for (let i = 0; i < entries; i++) {
      const at = first + i * entrySize;
      const tag = u16(at);
      if (tag !== TAG_WIDTH && tag !== TAG_HEIGHT && tag !== TAG_ORIENTATION) continue;
      const type = u16(at + 2);
      const valueAt = at + (big ? 12 : 8);
      // SHORT (3) or LONG (4), inline in the entry; anything else is not a size we can trust.
      const value = type === 3 ? u16(valueAt) : type === 4 ? u32(valueAt) : type === 16 && big ? u64(valueAt) : 0;
      if (tag === TAG_WIDTH) width = value;
      else if (tag === TAG_HEIGHT) height = value;
      else if (value >= 1 && value <= 8) orientation = value;
    }
    return width > 0 && height > 0 ? { width, height, orientation } : null;
  }
}
