import { createWorker, OEM, type Worker } from "tesseract.js";
import { DocprocError } from "../../errors.ts";
import type { RasterImage } from "../../model.ts";
import { chooseLanguages, missingLanguageWarning, traineddataIn } from "./languages.ts";
import { LazyPool } from "./pool.ts";
import { encodePgm, toGrey } from "../../imaging/grey.ts";
import { embeddedTessdataDir, type Tessdata } from "./tessdata.ts";
import { parseTesseractTsv } from "./tsv.ts";
import { DEFAULT_PSM, type OcrEngine, type OcrResult, type RecognizeOptions } from "./types.ts";

/**
 * tesseract.js (wasm) engine: a pool of `workers` worker threads, created on first use and reused.
 * Traineddata is read from the local directory only (`cacheMethod: "none"`: no cache writes, no network).
 */
export function createWasmEngine(opts: { workers: number; tessdata: Tessdata; cacheDir?: string }): OcrEngine {
  // English and the language packages docproc depends on (@tesseract.js-data/deu), read from one folder.
  const tessdata = {
    ...opts.tessdata,
    dir: embeddedTessdataDir(opts.tessdata, PACKED, opts.cacheDir) ?? opts.tessdata.dir,
  };
  const closedError = () => new DocprocError("ocr_failed", "OCR engine is closed", { stage: "ocr" });
  const pool = new LazyPool<Worker>(
    opts.workers,
    () => spawnWorker(tessdata),
    (w) => w.terminate().then(() => undefined),
    closedError,
  );
  // A terminated tesseract.js worker never settles its pending jobs: calls in flight at close() reject through this.
  let signalClosed: (e: unknown) => void = () => {};
  const closed = new Promise<never>((_, reject) => (signalClosed = reject));
  closed.catch(() => {});
  // Languages come only from the engine's own tessdata folder, in the same compression as its English model.
  const memo = new Map<string, { use: string; warning: string | null }>();
  const languagesFor = (requested?: readonly string[]) => {
    const key = (requested ?? []).join("+");
    let hit = memo.get(key);
    if (!hit) {
      const choice = chooseLanguages(requested, (l) => traineddataIn(tessdata.dir, l)?.gzip === tessdata.gzip);
      hit = {
        use: choice.use.join("+"),
        warning: choice.missing.length ? missingLanguageWarning("embedded", choice) : null,
      };
      memo.set(key, hit);
    }
    return hit;
  };
  return {
    name: "wasm",
    workers: opts.workers,
    recognize: async (img, ro) => {
      const lang = languagesFor(ro?.languages);
      const result = await recognizeWith(pool, closed, img, ro, lang.use);
      return lang.warning ? { ...result, warnings: [lang.warning] } : result;
    },
    // Workers start (wasm compiled, model loaded) while the first pages are still being decoded.
    has: (language) => languagesFor([language]).use === language,
    warm: (languages, pages) => pool.prestart((w) => useLanguages(w, languagesFor(languages).use, closed), pages),
    close: async () => {
      signalClosed(closedError());
      await pool.close();
    },
  };
}

/** Languages whose npm package (@tesseract.js-data/<lang>) is used when installed. */
const PACKED = ["deu", "fra", "spa", "ita", "nld", "por"];

/** The language set each worker is initialised with (workers start with English). */
const workerLanguages = new WeakMap<Worker, string>();

/** Loads `languages` into the worker unless it has them already. */
async function useLanguages(worker: Worker, languages: string, closed: Promise<never>): Promise<void> {
  if ((workerLanguages.get(worker) ?? "eng") === languages) return;
  await Promise.race([worker.reinitialize(languages, OEM.LSTM_ONLY), closed]);
  await worker.setParameters({ debug_file: "/dev/null" } as Record<string, string>);
  workerLanguages.set(worker, languages);
}

async function recognizeWith(
  pool: LazyPool<Worker>,
  closed: Promise<never>,
  img: RasterImage,
  ro: RecognizeOptions = {},
  languages = "eng",
): Promise<OcrResult> {
  const pgm = encodePgm(toGrey(img));
  const worker = await pool.acquire();
  try {
    await useLanguages(worker, languages, closed);
    const params: Record<string, string> = { tessedit_pageseg_mode: String(ro.psm ?? DEFAULT_PSM) };
    if (ro.dpi) params.user_defined_dpi = String(Math.round(ro.dpi));
    // Only TSV: it carries words, boxes, confidences and line structure; no second text rendering.
    const res = await Promise.race([
      worker.recognize(pgm as unknown as Buffer, params, { text: false, tsv: true }),
      closed,
    ]);
    pool.release(worker);
    return parseTesseractTsv(res.data.tsv ?? "");
  } catch (err) {
    if (err instanceof DocprocError) throw err;
    // A wasm abort leaves the module unusable: replace the worker rather than reuse it.
    pool.discard(worker);
    throw new DocprocError("ocr_failed", `tesseract.js failed: ${String((err as Error)?.message ?? err)}`, {
      stage: "ocr",
      retryable: true,
      cause: err,
    });
  }
}

async function spawnWorker(td: Tessdata): Promise<Worker> {
  // tesseract.js swallows init failures after `load` (the createWorker promise would never settle) and by default
  // rethrows worker errors as uncaught exceptions; route both into a rejection we own.
  let fail: (e: unknown) => void = () => {};
  const failed = new Promise<never>((_, reject) => (fail = reject));
  failed.catch(() => {});
  try {
    const worker = await Promise.race([
      createWorker("eng", OEM.LSTM_ONLY, {
        langPath: td.dir,
        gzip: td.gzip,
        cacheMethod: "none",
        errorHandler: (e: unknown) => fail(e),
      }),
      failed,
    ]);
    // Silences tesseract's diagnostics ("Estimating resolution as ...") that would otherwise go to stderr.
    await worker.setParameters({ debug_file: "/dev/null" } as Record<string, string>);
    return worker;
  } catch (err) {
    throw new DocprocError(
      "ocr_failed",
      `could not start a tesseract.js worker: ${String((err as Error)?.message ?? err)}`,
      {
        stage: "ocr",
        cause: err,
      },
    );
  }
}
