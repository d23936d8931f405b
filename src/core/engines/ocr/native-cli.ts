/**
 * The `tesseract` CLI: finding it, its self-test, and reading images through it (one image on stdin, or a list of
 * images in one process). Every run is single-threaded (OMP_THREAD_LIMIT=1) and tracked in `running` so the engine
 * can kill it on close.
 */
import type { Subprocess } from "bun";
import fs from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DocprocError } from "../../errors.ts";
import { encodePgm, type GreyImage } from "../../imaging/grey.ts";
import { parseTesseractTsv } from "./tsv.ts";
import { DEFAULT_PSM, type OcrResult, type RecognizeOptions } from "./types.ts";

export interface NativeOptions {
  workers: number;
  /** Absolute path of the tesseract executable. */
  binary: string;
  /** Directory holding an uncompressed eng.traineddata. */
  tessdataDir: string;
  version: string;
  /** The system's tessdata directory (Debian: /usr/share/tesseract-ocr/5/tessdata), where other languages are found. */
  systemTessdataDir?: string | null;
  /** Where a folder combining docproc's English with the system's other languages is made (OS temp dir by default). */
  cacheDir?: string;
  /** false: run the CLI per page even where a long-running tesseract host could run (tests compare the two). */
  hosts?: boolean;
}

/** Finds `tesseract` on PATH and returns its version line, or null when it is absent or does not run. */
export async function probeNativeTesseract(): Promise<{
  binary: string;
  version: string;
  systemTessdataDir: string | null;
} | null> {
  const binary = Bun.which("tesseract");
  if (!binary) return null;
  try {
    const proc = Bun.spawn([binary, "--version"], { stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    if (code !== 0) return null;
    const version = /tesseract\s+v?([\d.]+)/i.exec(out + err)?.[1] ?? "unknown";
    return { binary, version, systemTessdataDir: await systemTessdataDir(binary) };
  } catch {
    return null;
  }
}

/** The directory the CLI loads languages from by default, as `--list-langs` names it ("… in "/usr/share/…/" (7):"). */
async function systemTessdataDir(binary: string): Promise<string | null> {
  try {
    const proc = Bun.spawn([binary, "--list-langs"], { stdout: "pipe", stderr: "pipe" });
    const [out, err] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    const dir = /"([^"]+)"/.exec(out + err)?.[1];
    return dir && fs.existsSync(dir) ? path.resolve(dir) : null;
  } catch {
    return null;
  }
}

/**
 * A small blank image, read in a few milliseconds: what the self-test runs the CLI on, and what a host reads to load
 * its model ahead of the first page.
 */
export const WARM_UP_IMAGE: GreyImage = { data: new Uint8Array(64 * 32).fill(255), width: 64, height: 32 };

/** Runs the CLI on a tiny blank image: proves the binary and the traineddata load together. */
export async function nativeSelfTest(opts: NativeOptions): Promise<boolean> {
  try {
    await runTesseract(opts, encodePgm(WARM_UP_IMAGE), {}, new Set());
    return true;
  } catch {
    return false;
  }
}

export async function runTesseract(
  opts: NativeOptions,
  pgm: Uint8Array,
  ro: RecognizeOptions,
  running: Set<Subprocess>,
): Promise<OcrResult> {
  return parseTesseractTsv(await runCli(opts, "stdin", pgm, ro, running));
}

/**
 * Reads several images in one tesseract process: the CLI takes a text file listing image paths as its input and
 * numbers the images' TSV rows by page (column 2, from 1). Same model, same options per image as separate runs, one
 * start-up (model loading is most of the cost of reading a single line). The images go through a private temp dir.
 */
export async function runTesseractOnList(
  opts: NativeOptions,
  pgms: Uint8Array[],
  ro: RecognizeOptions,
  running: Set<Subprocess>,
): Promise<Array<OcrResult | null>> {
  const dir = await mkdtemp(path.join(tmpdir(), "docproc-lines-"));
  try {
    const files = pgms.map((_, i) => path.join(dir, `${i}.pgm`));
    await Promise.all(pgms.map((pgm, i) => writeFile(files[i]!, pgm)));
    await writeFile(path.join(dir, "list.txt"), files.join("\n") + "\n");
    const tsv = await runCli(opts, path.join(dir, "list.txt"), "ignore", ro, running);
    const rows: string[][] = pgms.map(() => []);
    for (const row of tsv.split("\n")) {
      const page = Number(row.split("\t", 2)[1]);
      if (Number.isInteger(page) && page >= 1 && page <= rows.length) rows[page - 1]!.push(row);
    }
    return rows.map((r) => parseTesseractTsv(r.join("\n")));
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

async function runCli(
  opts: NativeOptions,
  input: string,
  stdin: Uint8Array | "ignore",
  ro: RecognizeOptions,
  running: Set<Subprocess>,
): Promise<string> {
  const args = [
    opts.binary,
    input,
    "stdout",
    "--tessdata-dir",
    opts.tessdataDir,
    "-l",
    (ro.languages ?? ["eng"]).join("+"),
    "--oem",
    "1",
  ];
  args.push("--psm", String(ro.psm ?? DEFAULT_PSM), "-c", "tessedit_create_tsv=1", "-c", "tessedit_create_txt=0");
  if (ro.dpi) args.push("--dpi", String(Math.round(ro.dpi)));
  const proc = Bun.spawn(args, { stdin, stdout: "pipe", stderr: "pipe", env: { OMP_THREAD_LIMIT: "1" } });
  running.add(proc);
  try {
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    if (code !== 0) {
      throw new DocprocError("ocr_failed", `tesseract exited with ${code}: ${err.trim().slice(-300)}`, {
        stage: "ocr",
        retryable: true,
      });
    }
    return out;
  } finally {
    running.delete(proc);
  }
}
