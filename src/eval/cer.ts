/**
 * Character error rate of a document's read text against its true text (the corpora convention, docs/eval.md):
 * Levenshtein edits / reference length, after Unicode NFKC, typographic quotes as ASCII and whitespace collapsing.
 * Pure.
 */

/**
 * Typographic quotes read as their ASCII forms: a page prints “ ” ’ where typed truths (UNLV/ISRI, most corpora)
 * write " and ', and a reader sees one character, not an error. Without this, 30 of the 90 edits on the UNLV
 * magazine page were quote shapes. Dashes stay distinct (their truths disagree on how to type them).
 */
const foldQuotes = (s: string) =>
  s.replace(/[\u2018\u2019\u201A\u201B\u2032]/g, "'").replace(/[\u201C\u201D\u201E\u201F\u2033]/g, '"');
const normalize = (s: string) => foldQuotes(s.normalize("NFKC")).replace(/\s+/g, " ").trim();

/** Edit distance between the normalised texts and the reference length (both in code points). */
export function textEdits(got: string, reference: string): { edits: number; length: number } {
  const a = [...normalize(got)];
  const b = [...normalize(reference)];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++)
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = cur;
  }
  return { edits: prev[b.length]!, length: b.length };
}

export interface TextScore {
  /** Documents whose expected file gives their text. */
  documents: number;
  /** All edits over all reference characters (a long page weighs more than a short one). */
  cer: number | null;
  files: Array<{ file: string; cer: number; edits: number; length: number }>;
}

export function scoreTexts(pairs: Array<{ file: string; expected: string; got: string | undefined }>): TextScore {
  const files = pairs.map(({ file, expected, got }) => {
    const { edits, length } = textEdits(got ?? "", expected);
    return { file, edits, length, cer: length ? edits / length : edits ? 1 : 0 };
  });
  const [edits, length] = files.reduce(([e, l], f) => [e + f.edits, l + f.length], [0, 0]);
  return { documents: files.length, cer: files.length ? (length ? edits / length : 0) : null, files };
}
