/**
 * The few facts of a TrueType font that a PDF font descriptor and its /Widths need (pdfa-font-embed.ts): units per
 * em, bounding box, ascent, descent, cap height, italic angle, and the advance width of the glyph of a Unicode code
 * point (through the Windows Unicode BMP cmap, format 4). Read from the font's tables; nothing else is interpreted.
 */
export interface TtfMetrics {
  unitsPerEm: number;
  bbox: [number, number, number, number];
  ascent: number;
  descent: number;
  capHeight: number;
  italicAngle: number;
  /** Advance width in font units of the glyph for `codePoint` (of glyph 0, .notdef, when the font has none). */
  advance(codePoint: number): number;
}

export function readTtf(bytes: Uint8Array): TtfMetrics {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tables = new Map<string, number>();
  for (let i = 0, n = v.getUint16(4); i < n; i++) {
    const rec = 12 + i * 16;
    tables.set(new TextDecoder("latin1").decode(bytes.subarray(rec, rec + 4)), v.getUint32(rec + 8));
  }
  const at = (tag: string) => {
    const o = tables.get(tag);
    if (o === undefined) throw new Error(`font has no ${tag} table`);
    return o;
  };
  const head = at("head");
  const hhea = at("hhea");
  const hmtx = at("hmtx");
  const os2 = tables.get("OS/2");
  const metrics = v.getUint16(hhea + 34);
  const widthOf = (glyph: number) => v.getUint16(hmtx + 4 * Math.min(glyph, metrics - 1));
  const glyphOf = cmap4(v, at("cmap"));
  const ascent = v.getInt16(hhea + 4);
  return {
    unitsPerEm: v.getUint16(head + 18),
    bbox: [v.getInt16(head + 36), v.getInt16(head + 38), v.getInt16(head + 40), v.getInt16(head + 42)],
    ascent,
    descent: v.getInt16(hhea + 6),
    capHeight: os2 !== undefined && v.getUint16(os2) >= 2 ? v.getInt16(os2 + 88) : ascent,
    italicAngle: v.getInt32(at("post") + 4) / 65536,
    advance: (cp) => widthOf(glyphOf(cp)),
  };
}

/** The glyph index of a BMP code point through the (3,1) format 4 subtable; 0 when the font has no such glyph. */
function cmap4(v: DataView, cmap: number): (cp: number) => number {
  let sub = -1;
  for (let i = 0, n = v.getUint16(cmap + 2); i < n; i++) {
    const rec = cmap + 4 + i * 8;
    if (v.getUint16(rec) === 3 && v.getUint16(rec + 2) === 1) sub = cmap + v.getUint32(rec + 4);
  }
  if (sub < 0 || v.getUint16(sub) !== 4) throw new Error("font has no Windows Unicode (3,1) format 4 cmap");
  const segs = v.getUint16(sub + 6) / 2;
  const ends = sub + 14;
  const starts = ends + 2 * segs + 2;
  const deltas = starts + 2 * segs;
  const offsets = deltas + 2 * segs;
  return (cp) => {
    for (let i = 0; i < segs; i++) {
      if (cp > v.getUint16(ends + 2 * i)) continue;
      const start = v.getUint16(starts + 2 * i);
      if (cp < start) return 0;
      const delta = v.getInt16(deltas + 2 * i);
      const ro = v.getUint16(offsets + 2 * i);
      if (ro === 0) return (cp + delta) & 0xffff;
      const glyph = v.getUint16(offsets + 2 * i + ro + 2 * (cp - start));
      return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
    }
    return 0;
  };
}
