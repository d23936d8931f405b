/**
 * A cheap PDF of many pages, written by hand (no PDF library, ~70 bytes a page): one font, and per page a small
 * content stream saying which page it is ("Page N of M"), so every page has a text layer of its own and the pages
 * read as one long document. 10,000 pages make ~1.6 MB in well under a second.
 */
export function longPdf(pages: number): Uint8Array {
  const parts: string[] = [];
  const offsets: number[] = [];
  let length = 0;
  const add = (s: string) => {
    parts.push(s);
    length += s.length; // ASCII only
  };
  const obj = (n: number, body: string) => {
    offsets[n] = length;
    add(`${n} 0 obj\n${body}\nendobj\n`);
  };
  add("%PDF-1.4\n");
  // 1 catalog, 2 page tree, 3 font; page k is object 4 + 2k, its content 5 + 2k.
  obj(1, "<< /Type /Catalog /Pages 2 0 R >>");
  const kids: string[] = [];
  for (let k = 0; k < pages; k++) kids.push(`${4 + 2 * k} 0 R`);
  obj(2, `<< /Type /Pages /Count ${pages} /Kids [${kids.join(" ")}] >>`);
  obj(3, "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  for (let k = 0; k < pages; k++) {
    const text = `BT /F1 12 Tf 72 760 Td (Report page ${k + 1} of ${pages}) Tj ET`;
    obj(
      4 + 2 * k,
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + 2 * k} 0 R >>`,
    );
    obj(5 + 2 * k, `<< /Length ${text.length} >>\nstream\n${text}\nendstream`);
  }
  const size = 4 + 2 * pages;
  const xrefAt = length;
  const rows = ["0000000000 65535 f \n"];
  for (let n = 1; n < size; n++) rows.push(`${String(offsets[n]).padStart(10, "0")} 00000 n \n`);
  add(`xref\n0 ${size}\n${rows.join("")}trailer\n<< /Size ${size} /Root 1 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`);
  return new TextEncoder().encode(parts.join(""));
}
