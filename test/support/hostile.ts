/**
 * Small, deterministic hostile inputs built in memory (issue 21): each one is a few kilobytes and stands for a
 * class of files that once cost gigabytes or minutes. Shared by the hardening tests and the fuzz harness.
 */

const latin1 = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * A one-page PDF whose page resources live in an object stream declaring `/N count` objects (it holds one).
 * pdf.js sized two arrays by that count before reading a single entry: `/N 99999999` cost ~1.6 GB per fetch.
 */
export function pdfWithObjectStreamCount(count: number): Uint8Array {
  const parts: Uint8Array[] = [];
  const offsets: number[] = [];
  let size = 0;
  const add = (bytes: Uint8Array) => {
    parts.push(bytes);
    size += bytes.length;
  };
  const object = (num: number, body: string) => {
    offsets[num] = size;
    add(latin1(`${num} 0 obj\n${body}\nendobj\n`));
  };
  add(latin1("%PDF-1.5\n%\xe2\xe3\xcf\xd3\n"));
  object(1, "<< /Type /Catalog /Pages 2 0 R >>");
  object(2, "<< /Type /Pages /Kids [3 0 R] /Count 1 >>");
  object(3, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources 6 0 R /Contents 7 0 R >>");
  const header = "6 0 ";
  const objStm = `${header}<< /ProcSet [/PDF /Text] >>`;
  object(
    4,
    `<< /Type /ObjStm /N ${count} /First ${header.length} /Length ${objStm.length} >>\nstream\n${objStm}\nendstream`,
  );
  const content = "BT /F1 12 Tf 72 720 Td (hostile) Tj ET";
  object(7, `<< /Length ${content.length} >>\nstream\n${content}\nendstream`);
  // Cross-reference stream (W [1 4 2]): objects 1-4 and 7 in the file, 6 in the object stream 4 at index 0.
  const xrefNum = 5;
  offsets[xrefNum] = size;
  const rows = new Uint8Array(8 * 7);
  const row = (num: number, type: number, a: number, b: number) => {
    const v = new DataView(rows.buffer, num * 7, 7);
    v.setUint8(0, type);
    v.setUint32(1, a);
    v.setUint16(5, b);
  };
  row(0, 0, 0, 0xffff);
  for (const n of [1, 2, 3, 4, 5, 7]) row(n, 1, offsets[n]!, 0);
  row(6, 2, 4, 0);
  add(latin1(`${xrefNum} 0 obj\n<< /Type /XRef /Size 8 /W [1 4 2] /Root 1 0 R /Length ${rows.length} >>\nstream\n`));
  add(rows);
  add(latin1(`\nendstream\nendobj\nstartxref\n${offsets[xrefNum]}\n%%EOF\n`));
  return concat(parts);
}

/**
 * A little-endian multi-page TIFF: `pages` IFDs of 8 × 8 bilevel strips, all sharing one strip of white pixels.
 * ~170 bytes a page, so 5,000 pages are under a megabyte; libvips walks the IFD chain from the start for every
 * page it is asked about, which made reading page sizes one by one quadratic.
 */
export function multiPageTiff(pages: number, size = 8): Uint8Array {
  const entries = 9;
  const ifdBytes = 2 + entries * 12 + 4;
  const rowBytes = Math.ceil(size / 8);
  const strip = new Uint8Array(rowBytes * size); // PhotometricInterpretation 0 (white is zero): all white
  const stripAt = 8;
  const firstIfd = stripAt + strip.length + (strip.length % 2);
  const out = new Uint8Array(firstIfd + pages * ifdBytes);
  const v = new DataView(out.buffer);
  out.set([0x49, 0x49], 0);
  v.setUint16(2, 42, true);
  v.setUint32(4, firstIfd, true);
  out.set(strip, stripAt);
  for (let p = 0; p < pages; p++) {
    let at = firstIfd + p * ifdBytes;
    v.setUint16(at, entries, true);
    at += 2;
    const tag = (id: number, type: number, value: number) => {
      v.setUint16(at, id, true);
      v.setUint16(at + 2, type, true);
      v.setUint32(at + 4, 1, true);
      if (type === 3) v.setUint16(at + 8, value, true);
      else v.setUint32(at + 8, value, true);
      at += 12;
    };
    tag(254, 4, 2); // NewSubfileType: one page of a multi-page document
    tag(256, 3, size); // ImageWidth
    tag(257, 3, size); // ImageLength
    tag(258, 3, 1); // BitsPerSample
    tag(259, 3, 1); // Compression: none
    tag(262, 3, 0); // PhotometricInterpretation: WhiteIsZero
    tag(273, 4, stripAt); // StripOffsets
    tag(278, 3, size); // RowsPerStrip
    tag(279, 4, strip.length); // StripByteCounts
    v.setUint32(at, p + 1 < pages ? firstIfd + (p + 1) * ifdBytes : 0, true);
  }
  return out;
}

/** A JSON value nested `depth` levels deep under `{"a": ...}`, built as text (JSON.stringify would recurse). */
export function nestedJson(depth: number): string {
  return '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
}

/** A PDF (classic xref table) made of the given object bodies, numbered from 1; object 1 is the catalog. */
export function classicPdf(bodies: string[]): Uint8Array {
  let text = "%PDF-1.4\n";
  const offsets: number[] = [];
  bodies.forEach((body, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xrefAt = text.length;
  text += `xref\n0 ${bodies.length + 1}\n0000000000 65535 f \n`;
  for (const at of offsets) text += `${String(at).padStart(10, "0")} 00000 n \n`;
  text += `trailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return latin1(text);
}

/** A one-page PDF whose page tree claims `count` pages. */
export function pdfClaimingPages(count: number): Uint8Array {
  return classicPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    `<< /Type /Pages /Kids [3 0 R] /Count ${count} >>`,
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
  ]);
}

/**
 * A one-page PDF whose text uses a CID font with a `/W` range `[0 last 500]`: widths for CIDs 0 to `last`. pdf.js
 * filled one entry per CID of the range, so a range ending at 4294967295 (a fuzzed number) took gigabytes.
 */
export function pdfWithCidWidthRange(last: number): Uint8Array {
  const content = "BT /F1 12 Tf 72 720 Td <00410042> Tj ET";
  return classicPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type0 /BaseFont /Hostile /Encoding /Identity-H /DescendantFonts [6 0 R] >>",
    `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /Hostile /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 7 0 R /W [0 ${last} 500] >>`,
    "<< /Type /FontDescriptor /FontName /Hostile /Flags 4 /FontBBox [0 0 1000 1000] /ItalicAngle 0 /Ascent 800 /Descent -200 /CapHeight 700 /StemV 80 >>",
  ]);
}

/**
 * A one-page PDF painting a 16 × 16 gray image (32 bytes of data, no filter) that declares `bits` bits per
 * component. pdf.js read bits/8 bytes per component: 99999999 bits cost 15-45 s of CPU for this tiny file.
 */
export function pdfWithImageBits(bits: number): Uint8Array {
  const content = "q 200 0 0 200 72 500 cm /Im0 Do Q";
  const pixels = "\xff\x00".repeat(16);
  return classicPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    `<< /Type /XObject /Subtype /Image /Width 16 /Height 16 /ColorSpace /DeviceGray /BitsPerComponent ${bits} /Length ${pixels.length} >>\nstream\n${pixels}\nendstream`,
  ]);
}

/**
 * A one-page PDF whose font carries a ToUnicode CMap with one `bfrange` of `count` four-byte codes. pdf.js allows a
 * CMap 2^24 - 1 entries, a string each: a range that size (the shape of a ToUnicode stream damaged into garbage)
 * took gigabytes.
 */
export function pdfWithToUnicodeRange(count: number): Uint8Array {
  const hex = (n: number) => n.toString(16).padStart(8, "0");
  const cmap = [
    "/CIDInit /ProcSet findresource begin 12 dict begin begincmap",
    "/CMapName /Hostile def /CMapType 2 def",
    "1 begincodespacerange <00000000> <ffffffff> endcodespacerange",
    `1 beginbfrange <${hex(0)}> <${hex(count - 1)}> <0041> endbfrange`,
    "endcmap CMapName currentdict /CMap defineresource pop end end",
  ].join("\n");
  const content = "BT /F1 12 Tf 72 720 Td (Hello) Tj ET";
  return classicPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /ToUnicode 6 0 R >>",
    `<< /Length ${cmap.length} >>\nstream\n${cmap}\nendstream`,
  ]);
}
