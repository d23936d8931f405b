import type { Subprocess } from "bun";
import { DocprocError } from "../../errors.ts";
import type { RasterImage } from "../../model.ts";
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
}

/** Finds `tesseract` on PATH and returns its version line, or null when it is absent or does not run. */
export async function probeNativeTesseract(): Promise<{ binary: string; version: string } | null> {
  const binary = Bun.which("tesseract");
  if (!binary) return null;
  try {
    const proc = Bun.spawn([binary, "--version"], { stdout: "pipe", stderr: "pipe" });
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) return null;
    const version = /tesseract\s+v?([\d.]+)/i.exec(out + err)?.[1] ?? "unknown";
    return { binary, version };
  } catch {
    return null;
  }
}

/**
 * Native tesseract CLI engine: one child process per page, at most `workers` at once, each single-threaded
 * (OMP_THREAD_LIMIT=1: parallelism comes from pages, and OpenMP threads only fight over the same cores).
 * The image goes in on stdin as PGM (no temp file, no decompression); TSV comes back on stdout.
 */
export function createNativeEngine(opts: NativeOptions): OcrEngine {
  let slotId = 0;
  const running = new Set<Subprocess>();
  const pool = new LazyPool<number>(
    opts.workers,
    async () => ++slotId,
    async () => {},
    () => new DocprocError("ocr_failed", "OCR engine is closed", { stage: "ocr" }),
  );
  return {
    name: `native (tesseract ${opts.version})`,
    workers: opts.workers,
    async recognize(img, ro) {
      const pgm = encodePgm(toGrey(img));
      const slot = await pool.acquire();
      try {
        return await runTesseract(opts, pgm, ro ?? {}, running);
      } finally {
        pool.release(slot);
      }
    },
    async close() {
      for (const p of running) p.kill();
      await pool.close();
    },
  };
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
  const args = [opts.binary, "stdin", "stdout", "--tessdata-dir", opts.tessdataDir, "-l", "eng", "--oem", "1"];
  args.push("--psm", String(ro.psm ?? DEFAULT_PSM), "-c", "tessedit_create_tsv=1", "-c", "tessedit_create_txt=0");
  if (ro.dpi) args.push("--dpi", String(Math.round(ro.dpi)));
  const proc = Bun.spawn(args, { stdin: pgm, stdout: "pipe", stderr: "pipe", env: { OMP_THREAD_LIMIT: "1" } });
  running.add(proc);
  try {
    const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    if (code !== 0) {
      throw new DocprocError("ocr_failed", `tesseract exited with ${code}: ${err.trim().slice(-300)}`, { stage: "ocr", retryable: true });
    }
    return parseTesseractTsv(out);
  } finally {
    running.delete(proc);
  }
}
