/**
 * Last resort for a PDF that pdf.js cannot open (its own recovery included): rebuild the cross-reference table and
 * the page tree from the objects the bytes still hold, the way poppler and qpdf reconstruct a damaged file.
 *
 * Typical case: a file whose tail was lost (a zero-filled hole from an interrupted copy) takes the page tree, the
 * main xref section, or both with it, while most page objects survive. pdf.js then finds no catalog with a page
 * tree ("Invalid Root reference") and the whole file would be refused.
 *
 * The repair appends to the original bytes (nothing is rewritten): a fresh xref table of every `N G obj` found (the
 * last definition of a number wins, as with incremental updates), a page tree whose kids are the page objects in
 * file order, a catalog, and a trailer carrying the file's /Encrypt and /ID. Pages a linearized file declares
 * (/Linearized … /N) but whose objects are gone are kept as blank pages at the end, so the file's page count
 * stays right (at most MAX_PADDED of them: /N is read from untrusted bytes).
 *
 * Limits (why it is a fallback, not a parser): page objects inside compressed object streams are not seen, and page
 * order is file order, which is the page order of almost every writer but not guaranteed.
 */
const MAX_PADDED = 1000;
/** How far into an object its dictionary is searched for /Type /Page (a page dictionary is small). */
const HEAD_BYTES = 16 * 1024;
const A4 = "0 0 595.276 841.89";

export interface RepairedPdf {
  data: Uint8Array;
  /** Page objects found in the bytes. */
  found: number;
  /** Blank pages standing in for pages the file declares but no longer holds. */
  padded: number;
  /**
   * 1-based numbers of the rebuilt file's pages whose content is gone: a page object whose /Contents names an object
   * the bytes no longer hold (a file cut short), and the padded pages. They read as empty pages, but nothing was read.
   */
  lost: number[];
}

interface Located {
  gen: number;
  offset: number;
}

export function repairPdf(data: Uint8Array): RepairedPdf | null {
  if (data.length > 9_999_999_999) return null; // offsets are ten digits in a classic xref table
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("latin1");
  const objects = new Map<number, Located>();
  const order: Array<{ num: number; offset: number; end: number }> = [];
  for (let at = text.indexOf("obj"); at >= 0; at = text.indexOf("obj", at + 3)) {
    const h = objectHeader(text, at);
    if (!h) continue;
    objects.set(h.num, { gen: h.gen, offset: h.offset });
    order.push({ num: h.num, offset: h.offset, end: at + 3 });
  }
  const pages: number[] = [];
  const heads = new Map<number, string>();
  for (const [i, o] of order.entries()) {
    if (objects.get(o.num)!.offset !== o.offset) continue; // redefined later: the later one counts
    const limit = Math.min(text.length, o.end + HEAD_BYTES, order[i + 1]?.offset ?? Infinity);
    let head = text.slice(o.end, limit);
    const cut = head.search(/stream|endobj/);
    if (cut >= 0) head = head.slice(0, cut);
    if (/\/Type\s*\/Page(?![A-Za-z0-9])/.test(head) && !/\/Kids\s*\[/.test(head)) {
      pages.push(o.num);
      // A page dictionary the file ends inside has lost its /Contents with its tail: "" stands for "none left".
      heads.set(o.num, cut >= 0 ? head : "");
    }
  }
  if (pages.length === 0) return null;
  // Before the repair adds objects of its own (numbered from the largest found on, they could take a lost number).
  const lost = pages.flatMap((n, i) => (contentsMissing(heads.get(n)!, objects) ? [i + 1] : []));

  const declared = Number(/\/Linearized[^>]*?\/N\s+(\d{1,9})/.exec(text.slice(0, 4096))?.[1] ?? 0);
  const padded = declared > pages.length && declared - pages.length <= MAX_PADDED ? declared - pages.length : 0;
  let next = 1;
  for (const n of objects.keys()) if (n >= next) next = n + 1;
  const treeNum = next++;
  const catalogNum = next++;
  const blanks = Array.from({ length: padded }, () => next++);

  const parts: string[] = ["\n"];
  let offset = data.length + 1;
  const add = (num: number, body: string) => {
    objects.set(num, { gen: 0, offset });
    const chunk = `${num} 0 obj\n${body}\nendobj\n`;
    parts.push(chunk);
    offset += chunk.length;
  };
  const kids = [...pages, ...blanks].map((n) => `${n} ${objects.get(n)?.gen ?? 0} R`).join(" ");
  add(treeNum, `<</Type/Pages/Kids[${kids}]/Count ${pages.length + padded}>>`);
  add(catalogNum, `<</Type/Catalog/Pages ${treeNum} 0 R>>`);
  for (const n of blanks) add(n, `<</Type/Page/Parent ${treeNum} 0 R/MediaBox[${A4}]/Resources<<>>>>`);

  // One subsection per run of consecutive numbers: object numbers come from untrusted bytes ("999999999 0 obj"), so
  // the table is as long as the objects found, never as long as the largest number.
  const size = next;
  const rows: string[] = ["xref\n0 1\n0000000000 65535 f\r\n"];
  const numbers = [...objects.keys()].filter((n) => n > 0).sort((a, b) => a - b);
  for (let i = 0; i < numbers.length; ) {
    let j = i;
    while (j + 1 < numbers.length && numbers[j + 1] === numbers[j]! + 1) j++;
    rows.push(`${numbers[i]} ${j - i + 1}\n`);
    for (let k = i; k <= j; k++) {
      const o = objects.get(numbers[k]!)!;
      rows.push(`${String(o.offset).padStart(10, "0")} ${String(o.gen).padStart(5, "0")} n\r\n`);
    }
    i = j + 1;
  }
  const encrypt = /\/Encrypt\s+(\d+\s+\d+\s+R)/.exec(text)?.[1];
  const id = /\/ID\s*\[\s*(<[0-9A-Fa-f\s]*>\s*<[0-9A-Fa-f\s]*>)\s*\]/.exec(text)?.[1];
  const xrefAt = offset;
  for (const row of rows) parts.push(row);
  parts.push(
    `trailer\n<</Size ${size}/Root ${catalogNum} 0 R${encrypt ? `/Encrypt ${encrypt}` : ""}${id ? `/ID[${id}]` : ""}>>\nstartxref\n${xrefAt}\n%%EOF\n`,
  );

  const tail = Buffer.from(parts.join(""), "latin1");
  const out = new Uint8Array(data.length + tail.length);
  out.set(data, 0);
  out.set(tail, data.length);
  for (let k = 1; k <= padded; k++) lost.push(pages.length + k);
  return { data: out, found: pages.length, padded, lost };
}

/**
 * Whether a page dictionary's /Contents (a reference or an array of them) names an object that is not there, or the
 * dictionary itself was cut short ("").
 */
function contentsMissing(head: string, objects: Map<number, Located>): boolean {
  if (head === "") return true;
  const m = /\/Contents\s*(\[[^\]]*\]|\d+\s+\d+\s+R)/.exec(head);
  if (!m) return false;
  return [...m[1]!.matchAll(/(\d+)\s+\d+\s+R/g)].some((r) => !objects.has(Number(r[1])));
}

const isDigit = (c: number) => c >= 48 && c <= 57;
const isSpace = (c: number) => c === 32 || c === 9 || c === 10 || c === 13 || c === 12 || c === 0;
const isWordChar = (c: number) => isDigit(c) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * `N G obj` ending at `at` (the "obj"), read backwards: a linear scan (a regular expression with a look-behind took
 * 0.3 s for 3 MB). Null when the keyword is not an object header.
 */
function objectHeader(text: string, at: number): { num: number; gen: number; offset: number } | null {
  if (at + 3 < text.length && isWordChar(text.charCodeAt(at + 3))) return null;
  let i = at - 1;
  const skip = (test: (c: number) => boolean, max: number) => {
    const from = i;
    while (i >= 0 && from - i < max && test(text.charCodeAt(i))) i--;
    return from - i;
  };
  if (skip(isSpace, 64) === 0) return null;
  const genEnd = i + 1;
  if (skip(isDigit, 6) === 0 || skip(isSpace, 64) === 0) return null;
  const genStart = i + 1;
  const numEnd = i + 1;
  const numLength = skip(isDigit, 10);
  if (numLength === 0 || numLength > 9 || (i >= 0 && isWordChar(text.charCodeAt(i)))) return null;
  const gen = Number(text.slice(genStart, genEnd).trim());
  return { num: Number(text.slice(i + 1, numEnd)), gen: Number.isFinite(gen) ? gen : 0, offset: i + 1 };
}
