import type { Subprocess } from "bun";
import fs from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DocprocError } from "../../errors.ts";
import type { RasterImage } from "../../model.ts";
import { chooseLanguages, missingLanguageWarning, traineddataIn } from "./languages.ts";
import { LazyPool } from "./pool.ts";
import { encodePgm, toGrey } from "./raster.ts";
import { parseTesseractTsv } from "./tsv.ts";
import { DEFAULT_PSM, type OcrEngine, type OcrResult, type RecognizeOptions } from "./types.ts";

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
}

/** Finds `tesseract` on PATH and returns its version line, or null when it is absent or does not run. */
export async function probeNativeTesseract(): Promise<{ binary: string; version: string; systemTessdataDir: string | null } | null> {
  const binary = Bun.which("tesseract");
  if (!binary) return null;
  try {
    const proc = Bun.spawn([binary, "--version"], { stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
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
    const [out, err] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    const dir = /"([^"]+)"/.exec(out + err)?.[1];
    return dir && fs.existsSync(dir) ? path.resolve(dir) : null;
  } catch {
    return null;
  }
}

/**
 * Native tesseract CLI engine: one child process per page, at most `workers` at once, each single-threaded
 * (OMP_THREAD_LIMIT=1: parallelism comes from pages, and OpenMP threads only fight over the same cores).
 * The image goes in on stdin as PGM (no temp file, no decompression); TSV comes back on stdout. The single lines
 * of a page's second look are read together in one process (recognizeMany).
 */
export function createNativeEngine(opts: NativeOptions): OcrEngine {
  let slotId = 0;
  const running = new Set<Subprocess>();
  const languages = nativeLanguages(opts);
  const pool = new LazyPool<number>(
    opts.workers,
    async () => ++slotId,
    async () => {},
    () => new DocprocError("ocr_failed", "OCR engine is closed", { stage: "ocr" }),
  );
  const engine: OcrEngine = {
    name: `native (tesseract ${opts.version})`,
    workers: opts.workers,
    async recognize(img, ro) {
      const pgm = encodePgm(toGrey(img));
      const lang = languages(ro?.languages);
      const slot = await pool.acquire();
      try {
        const result = await runTesseract(lang.opts, pgm, { ...ro, languages: lang.use }, running);
        return lang.warning ? { ...result, warnings: [lang.warning] } : result;
      } finally {
        pool.release(slot);
      }
    },
    async recognizeMany(imgs, ro) {
      if (imgs.length <= 1) return Promise.all(imgs.map((img) => engine.recognize(img, ro).catch(() => null)));
      const out: Array<OcrResult | null> = imgs.map(() => null);
      const readable: number[] = [];
      const pgms: Uint8Array[] = [];
      imgs.forEach((img, i) => {
        try {
          pgms.push(encodePgm(toGrey(img)));
          readable.push(i);
        } catch {
          // an invalid raster stays null; the others are still read
        }
      });
      if (pgms.length === 0) return out;
      const slot = await pool.acquire().catch(() => null);
      if (slot === null) return out;
      try {
        const lang = languages(ro?.languages);
        const reads = await runTesseractOnList(lang.opts, pgms, { ...ro, languages: lang.use }, running);
        readable.forEach((i, k) => (out[i] = reads[k] ?? null));
      } catch {
        // tesseract failed on the list: every line stays unread, the first reading stands
      } finally {
        pool.release(slot);
      }
      return out;
    },
    async close() {
      for (const p of running) p.kill();
      await pool.close();
    },
  };
  return engine;
}

/** Runs the CLI on a tiny blank image: proves the binary and the traineddata load together. */
export async function nativeSelfTest(opts: NativeOptions): Promise<boolean> {
  const blank: RasterImage = { data: new Uint8Array(64 * 32).fill(255), width: 64, height: 32, channels: 1 };
  try {
    await runTesseract(opts, encodePgm(toGrey(blank)), {}, new Set());
    return true;
  } catch {
    return false;
  }
}

async function runTesseract(opts: NativeOptions, pgm: Uint8Array, ro: RecognizeOptions, running: Set<Subprocess>): Promise<OcrResult> {
  return parseTesseractTsv(await runCli(opts, "stdin", pgm, ro, running));
}

/**
 * Reads several images in one tesseract process: the CLI takes a text file listing image paths as its input and
 * numbers the images' TSV rows by page (column 2, from 1). Same model, same options per image as separate runs, one
 * start-up (model loading is most of the cost of reading a single line). The images go through a private temp dir.
 */
async function runTesseractOnList(opts: NativeOptions, pgms: Uint8Array[], ro: RecognizeOptions, running: Set<Subprocess>): Promise<Array<OcrResult | null>> {
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

async function runCli(opts: NativeOptions, input: string, stdin: Uint8Array | "ignore", ro: RecognizeOptions, running: Set<Subprocess>): Promise<string> {
  const args = [opts.binary, input, "stdout", "--tessdata-dir", opts.tessdataDir, "-l", (ro.languages ?? ["eng"]).join("+"), "--oem", "1"];
  args.push("--psm", String(ro.psm ?? DEFAULT_PSM), "-c", "tessedit_create_tsv=1", "-c", "tessedit_create_txt=0");
  if (ro.dpi) args.push("--dpi", String(Math.round(ro.dpi)));
  const proc = Bun.spawn(args, { stdin, stdout: "pipe", stderr: "pipe", env: { OMP_THREAD_LIMIT: "1" } });
  running.add(proc);
  try {
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) {
      throw new DocprocError("ocr_failed", `tesseract exited with ${code}: ${err.trim().slice(-300)}`, { stage: "ocr", retryable: true });
    }
    return out;
  } finally {
    running.delete(proc);
  }
}

/**
 * Per language set: the tessdata directory to pass and the languages to ask for. English (and any language in
 * docproc's own tessdata) comes from there; other languages from the system's tessdata, through a cache folder of
 * symbolic links that holds both (tesseract takes one directory). Decided once per set.
 */
function nativeLanguages(opts: NativeOptions): (requested?: readonly string[]) => { opts: NativeOptions; use: string[]; warning: string | null } {
  const memo = new Map<string, { opts: NativeOptions; use: string[]; warning: string | null }>();
  return (requested) => {
    const key = (requested ?? []).join("+");
    const hit = memo.get(key);
    if (hit) return hit;
    const own = (l: string) => traineddataIn(opts.tessdataDir, l)?.gzip === false;
    const system = (l: string) => traineddataIn(opts.systemTessdataDir, l)?.gzip === false;
    const choice = chooseLanguages(requested, (l) => own(l) || system(l));
    const fromSystem = choice.use.filter((l) => !own(l));
    let dir = opts.tessdataDir;
    if (fromSystem.length) {
      try {
        dir = combinedTessdataDir(opts, choice.use.filter(own), fromSystem);
      } catch {
        // no writable cache: read with docproc's own languages only
        choice.missing.push(...fromSystem);
        choice.use = choice.use.filter(own);
        if (choice.use.length === 0) choice.use = ["eng"];
      }
    }
    const out = { opts: { ...opts, tessdataDir: dir }, use: choice.use, warning: choice.missing.length ? missingLanguageWarning("native", choice) : null };
    memo.set(key, out);
    return out;
  };
}

function combinedTessdataDir(opts: NativeOptions, own: string[], fromSystem: string[]): string {
  const root = opts.cacheDir ?? tmpdir();
  const tag = Bun.hash(`${opts.tessdataDir}|${opts.systemTessdataDir}`).toString(36);
  const dir = path.join(root, `docproc-tessdata-langs-${tag}`);
  fs.mkdirSync(dir, { recursive: true });
  const link = (target: string, name: string) => {
    const at = path.join(dir, name);
    if (fs.existsSync(at)) return;
    const tmp = `${at}.${process.pid}.${Date.now()}.tmp`;
    fs.symlinkSync(target, tmp);
    fs.renameSync(tmp, at); // concurrent callers race safely: the last rename wins with the same target
  };
  for (const l of own) link(path.join(opts.tessdataDir, `${l}.traineddata`), `${l}.traineddata`);
  for (const l of fromSystem) link(path.join(opts.systemTessdataDir!, `${l}.traineddata`), `${l}.traineddata`);
  return dir;
}
