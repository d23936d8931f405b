/** Shared helpers of the batch tests: tiny text-layer PDFs (cheap to process) and the CLI as a real child process. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";

export const REPO = path.resolve(import.meta.dir, "../..");
export const CLI = path.join(REPO, "src/cli.ts");

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

export function tempDir(prefix: string, cleanup: string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), `docproc-${prefix}-`));
  cleanup.push(dir);
  return dir;
}

export function removeAll(dirs: string[]): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Spawns `bun src/cli.ts ...` without a TTY, the way cron runs it. */
export function spawnCli(args: string[], opts: { cwd?: string; env?: Record<string, string> } = {}) {
  return Bun.spawn([process.execPath, CLI, ...args], {
    cwd: opts.cwd ?? REPO,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, NO_COLOR: "1", ...opts.env },
  });
}

export async function runCli(args: string[], opts: { cwd?: string; timeoutMs?: number } = {}): Promise<Run> {
  const proc = spawnCli(args, opts);
  const timer = setTimeout(() => proc.kill(), opts.timeoutMs ?? 90_000);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr };
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
