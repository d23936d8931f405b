import type { Word } from "../../model.ts";
import type { OcrResult } from "./types.ts";

/**
 * Parses tesseract's TSV output (the same format from the CLI and from tesseract.js) into words in reading order.
 * Rows of level 5 are words; (block, paragraph, line) identify a line, numbered from 1 in order of appearance,
 * which is tesseract's reading order.
 */
export function parseTesseractTsv(tsv: string): OcrResult {
  const words: Word[] = [];
  const lines: string[][] = [];
  let lineKey = "";
  for (const row of tsv.split("\n")) {
    const cols = row.split("\t");
    if (cols.length < 12 || cols[0] !== "5") continue;
    const text = cols.slice(11).join("\t").trim();
    const conf = Number(cols[10]);
    if (text === "" || !Number.isFinite(conf) || conf < 0) continue;
    const key = `${cols[1]}/${cols[2]}/${cols[3]}/${cols[4]}`;
    if (key !== lineKey) {
      lineKey = key;
      lines.push([]);
    }
    const [left, top, width, height] = cols.slice(6, 10).map(Number);
    lines[lines.length - 1].push(text);
    words.push({
      text,
      confidence: Math.round(Math.min(1, Math.max(0, conf / 100)) * 10000) / 10000,
      bounding_box: [left, top, left + width, top + height],
      line: lines.length,
    });
  }
  return { words, text: lines.map((l) => l.join(" ")).join("\n"), confidence: meanConfidence(words) };
}

/** Mean word confidence rounded to 4 decimals, null without words. */
export function meanConfidence(words: Word[]): number | null {
  if (words.length === 0) return null;
  const sum = words.reduce((acc, w) => acc + w.confidence, 0);
  return Math.round((sum / words.length) * 10000) / 10000;
}

/** Rebuilds page text from words (after boxes were mapped, line numbers stay valid). */
export function textOfWords(words: Word[]): string {
  const lines: string[] = [];
  let current: number | undefined;
  for (const w of words) {
    if (lines.length === 0 || w.line !== current) {
      lines.push(w.text);
      current = w.line;
    } else lines[lines.length - 1] += ` ${w.text}`;
  }
  return lines.join("\n");
}

/** Lines numbered 1, 2, … in reading order (after words were added or moved between tesseract's lines). */
export function renumberLines(words: Word[]): Word[] {
  let n = 0;
  let previous: number | undefined;
  return words.map((w, i) => {
    if (i === 0 || w.line !== previous) n++;
    previous = w.line;
    return { ...w, line: n };
  });
}
