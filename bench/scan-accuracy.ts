/**
 * Accuracy beside speed for the scanned-PDF rows (issue 34: "word F1 against the true text × pages/s"): the scans
 * are rendered from born-digital pages, so the true text is those pages' own text (pdftotext of the source PDF).
 * docproc's reading is the page text of one run of the installed command (JSON export with page OCR data);
 * OCRmyPDF's its `--sidecar` text.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { docprocCommand } from "./job/command";

/** Words as a multiset: lower-cased, surrounding punctuation dropped. */
function words(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const raw of text.split(/\s+/)) {
    const w = raw.toLowerCase().replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
    if (w) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return counts;
}

/** Word F1 of `text` against `truth` (bag of words: reading order does not count here). */
export function wordF1(truth: string, text: string): number {
  const t = words(truth);
  const r = words(text);
  let hit = 0;
  let nt = 0;
  let nr = 0;
  for (const c of t.values()) nt += c;
  for (const [w, c] of r) {
    nr += c;
    hit += Math.min(c, t.get(w) ?? 0);
  }
  return nt === 0 || nr === 0 ? 0 : (2 * hit) / (nt + nr);
}

/** The text of a PDF's pages as pdftotext reads it (the truth of a scan rendered from it). */
export function pdftotextOf(pdf: string): string {
  return Bun.spawnSync(["pdftotext", pdf, "-"]).stdout.toString();
}

/** A project whose JSON export carries every page's OCR text (docs/exports.md, `include_page_ocr`). */
const PROJECT = `name: bench scan accuracy
export_profiles:
  - id: json
    name: JSON with page OCR
    output_format: json
    options: { include_page_ocr: true }
`;

/** The page texts docproc read from `input`: one run of the installed command, its JSON export with page OCR. */
export async function docprocTextOf(input: string): Promise<string> {
  const out = mkdtempSync(path.join(tmpdir(), "docproc-scan-"));
  try {
    const project = path.join(out, "project.yaml");
    writeFileSync(project, PROJECT);
    const cmd = [...docprocCommand(), "process", input, "--out", path.join(out, "o"), "--project", project, "--json"];
    await Bun.spawn(cmd, { stdout: "ignore", stderr: "ignore" }).exited;
    const texts: string[] = [];
    for (const e of readdirSync(path.join(out, "o"), { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !e.name.endsWith("_data.json")) continue;
      const json = JSON.parse(readFileSync(path.join(e.parentPath, e.name), "utf8")) as {
        pages?: Array<{ text?: string }>;
      };
      for (const page of json.pages ?? []) texts.push(page.text ?? "");
    }
    return texts.join("\n");
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
