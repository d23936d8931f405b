/** Shared helpers of the batch tests: tiny text-layer PDFs (cheap to process) and the CLI as a real child process. */
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { runCli as runCliProcess, type CliRun } from "../support/process";

/** A one-page PDF with a real text layer (no OCR needed); distinct text → distinct content hash. */
export async function textPdf(text: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  // Fixed dates: the same text always gives the same bytes (the same content hash).
  pdf.setCreationDate(new Date("2024-01-01T00:00:00Z"));
  pdf.setModificationDate(new Date("2024-01-01T00:00:00Z"));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf.addPage([595, 842]).drawText(text, { x: 60, y: 760, size: 14, font });
  return pdf.save();
}

export { removeAll, tempDir } from "../support/temp";
export { spawnCli } from "../support/process";

/** The CLI run to its end, as cron runs it; killed after `timeoutMs` (default 90 s: batch runs process real files). */
export function runCli(args: string[], opts: { cwd?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  return runCliProcess(args, { ...opts, timeoutMs: opts.timeoutMs ?? 90_000 });
}

/** Results files (`<transaction_id>_data.json`) in a folder tree. */
export function resultsFiles(dir: string): string[] {
  return [...new Bun.Glob("**/*_data.json").scanSync({ cwd: dir })].sort();
}

/**
 * A project file equal to the default project but splitting per file: the default (intelligent) split renders each
 * page to look for separator sheets, which costs most of the time of a one-page text PDF. Tests of batch semantics
 * use it to stay fast; the slow-write test keeps the default project.
 */
export async function perFileProject(dir: string): Promise<string> {
  const { defaultProject } = await import("../../src/core/project");
  const file = path.join(dir, "per-file-project.json");
  await Bun.write(file, JSON.stringify({ ...JSON.parse(JSON.stringify(defaultProject)), split: { mode: "per_file" } }));
  return file;
}
