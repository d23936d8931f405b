import type { Subprocess } from "bun";
import fs from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DocprocError } from "../../errors.ts";
import { chooseLanguages, missingLanguageWarning, traineddataIn } from "./languages.ts";
import { LazyPool } from "./pool.ts";
import { HostUnavailable, hostScriptAvailable, NativeHost } from "./native-hosts.ts";
import { encodePgm, toGrey, type GreyImage } from "../../imaging/grey.ts";
import { parseTesseractTsv } from "./tsv.ts";
import { DEFAULT_PSM, type OcrEngine, type OcrResult, type RecognizeOptions } from "./types.ts";
import { pushAll } from "../../arrays";

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
 * Native tesseract engine, at most `workers` recognitions at once, each single-threaded (OMP_THREAD_LIMIT=1:
 * parallelism comes from pages, and OpenMP threads only fight over the same cores). Each worker slot keeps a
 * tesseract host (native-host.ts: libtesseract loaded once in a child process) and sends it page after page and
 * the single lines of a page's second look. Where no host can run (no libtesseract to load, or a compiled binary
 * without the host script), it runs the `tesseract` CLI per page instead: the image on stdin as PGM, TSV on stdout,
 * and a page's single lines together in one process (recognizeMany).
 */
export function createNativeEngine(opts: NativeOptions): OcrEngine {
  let slotId = 0;
  const running = new Set<Subprocess>();
  const hosts = new Map<number, NativeHost>();
  let useHosts = opts.hosts !== false && hostScriptAvailable();
  const languages = nativeLanguages(opts);
  const pool = new LazyPool<number>(
    opts.workers,
    async () => ++slotId,
    async (slot) => {
      const host = hosts.get(slot);
      hosts.delete(slot);
      await host?.stop();
    },
    () => new DocprocError("ocr_failed", "OCR engine is closed", { stage: "ocr" }),
  );
  /** The slot's running host, started (or restarted after a crash) on demand; null when hosts cannot run. */
  const hostOf = async (slot: number): Promise<NativeHost | null> => {
    if (!useHosts) return null;
    const host = hosts.get(slot);
    if (host?.alive) return host;
    try {
      const fresh = await NativeHost.start();
      hosts.set(slot, fresh);
      return fresh;
    } catch (err) {
      if (!(err instanceof HostUnavailable)) throw err;
      useHosts = false;
      return null;
    }
  };
  /** One image on the slot's host, or through the CLI. */
  const readOn = async (
    slot: number,
    grey: GreyImage,
    ro: RecognizeOptions | undefined,
    lang: LanguageChoice,
  ): Promise<OcrResult> => {
    const host = await hostOf(slot);
    if (!host) return runTesseract(lang.opts, encodePgm(grey), { ...ro, languages: lang.use }, running);
    const request = {
      datapath: lang.opts.tessdataDir,
      lang: lang.use.join("+"),
      psm: ro?.psm ?? DEFAULT_PSM,
      ...(ro?.dpi ? { dpi: ro.dpi } : {}),
    };
    try {
      return parseTesseractTsv(await host.read(grey, request));
    } catch (err) {
      throw new DocprocError("ocr_failed", `tesseract failed: ${(err as Error).message}`, {
        stage: "ocr",
        retryable: true,
        cause: err,
      });
    }
  };
  const engine: OcrEngine = {
    name: `native (tesseract ${opts.version})`,
    workers: opts.workers,
    async recognize(img, ro) {
      const grey = toGrey(img);
      const lang = languages(ro?.languages);
      const slot = await pool.acquire();
      try {
        const result = await readOn(slot, grey, ro, lang);
        return lang.warning ? { ...result, warnings: [lang.warning] } : result;
      } finally {
        pool.release(slot);
      }
    },
    async recognizeMany(imgs, ro) {
      if (imgs.length <= 1) return Promise.all(imgs.map((img) => engine.recognize(img, ro).catch(() => null)));
      const out: Array<OcrResult | null> = imgs.map(() => null);
      const greys = imgs.map((img) => {
        try {
          return toGrey(img);
        } catch {
          return null; // an invalid raster stays null; the others are still read
        }
      });
      if (greys.every((g) => g === null)) return out;
      const slot = await pool.acquire().catch(() => null);
      if (slot === null) return out;
      try {
        const lang = languages(ro?.languages);
        if (await hostOf(slot).catch(() => null)) {
          // One running host reads them one after another: no process, no model loading per line.
          for (const [i, grey] of greys.entries())
            if (grey) out[i] = await readOn(slot, grey, ro, lang).catch(() => null);
        } else {
          const readable = greys.flatMap((g, i) => (g ? [i] : []));
          const reads = await runTesseractOnList(
            lang.opts,
            readable.map((i) => encodePgm(greys[i]!)),
            { ...ro, languages: lang.use },
            running,
          );
          readable.forEach((i, k) => (out[i] = reads[k] ?? null));
        }
      } catch {
        // tesseract failed on the list: every line stays unread, the first reading stands
      } finally {
        pool.release(slot);
      }
      return out;
    },
    warm(requested, pages) {
      const lang = languages(requested);
      // Each slot's host started and its model loaded by reading a blank image: the first page pays neither.
      return pool.prestart(async (slot) => {
        if (await hostOf(slot)) await readOn(slot, WARM_UP_IMAGE, undefined, lang);
      }, pages);
    },
    async close() {
      for (const p of running) p.kill();
      const stopping = [...hosts.values()].map((h) => h.stop());
      hosts.clear();
      await Promise.all([pool.close(), ...stopping]);
    },
  };
  return engine;
}

/**
 * A small blank image, read in a few milliseconds: what the self-test runs the CLI on, and what a host reads to load
 * its model ahead of the first page.
 */
const WARM_UP_IMAGE: GreyImage = { data: new Uint8Array(64 * 32).fill(255), width: 64, height: 32 };

/** Runs the CLI on a tiny blank image: proves the binary and the traineddata load together. */
export async function nativeSelfTest(opts: NativeOptions): Promise<boolean> {
  try {
    await runTesseract(opts, encodePgm(WARM_UP_IMAGE), {}, new Set());
    return true;
  } catch {
    return false;
  }
}

async function runTesseract(
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
async function runTesseractOnList(
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

/**
 * Per language set: the tessdata directory to pass and the languages to ask for. English (and any language in
 * docproc's own tessdata) comes from there; other languages from the system's tessdata, through a cache folder of
 * symbolic links that holds both (tesseract takes one directory). Decided once per set.
 */
interface LanguageChoice {
  opts: NativeOptions;
  use: string[];
  warning: string | null;
}

function nativeLanguages(opts: NativeOptions): (requested?: readonly string[]) => LanguageChoice {
  const memo = new Map<string, LanguageChoice>();
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
        pushAll(choice.missing, fromSystem);
        choice.use = choice.use.filter(own);
        if (choice.use.length === 0) choice.use = ["eng"];
      }
    }
    const out = {
      opts: { ...opts, tessdataDir: dir },
      use: choice.use,
      warning: choice.missing.length ? missingLanguageWarning("native", choice) : null,
    };
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
