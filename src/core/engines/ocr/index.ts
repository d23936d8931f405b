import { cpuCount } from "../../cores";
import { DocprocError } from "../../errors.ts";
import { createNativeEngine } from "./native.ts";
import { nativeSelfTest, probeNativeTesseract } from "./native-cli.ts";
import { resolveTessdataDir, unpackedTessdataDir } from "./tessdata.ts";
import type { OcrEngine } from "./types.ts";

/** tesseract.js is loaded only when the embedded engine is chosen: `docproc process` on text PDFs never needs it. */
async function createWasmEngine(opts: {
  workers: number;
  tessdata: ReturnType<typeof resolveTessdataDir>;
  cacheDir?: string;
}): Promise<OcrEngine> {
  return (await import("./wasm.ts")).createWasmEngine(opts);
}

export type { OcrEngine, OcrResult, RecognizeOptions } from "./types.ts";
export { DEFAULT_LANGUAGES, LANGUAGE_CODE } from "./languages.ts";
export { resolveTessdataDir, unpackedTessdataDir } from "./tessdata.ts";
export { rotateBox } from "../../geometry";

export type OcrEngineKind = "auto" | "wasm" | "native";

export interface CreateOcrEngineOptions {
  engine: OcrEngineKind;
  /** Recognitions at once; 0 or less means one per core. */
  workers: number;
  /** Overrides where traineddata is read from (see resolveTessdataDir). */
  tessdataDir?: string;
  /** Where the native engine keeps the gunzipped traineddata; the OS temp dir by default. */
  cacheDir?: string;
}

export function defaultOcrWorkers(): number {
  return cpuCount();
}

/**
 * Creates the process-wide OCR engine.
 * - "wasm": tesseract.js, always available (needs nothing outside node_modules).
 * - "native": the `tesseract` CLI from PATH; MUST fail with ocr_failed when it is missing or does not run.
 * - "auto": native when the CLI is on PATH and passes a self-test with our traineddata, else wasm.
 * Both engines read the same traineddata (resolveTessdataDir), so results do not depend on the engine chosen.
 * Workers are started lazily, on the first recognize call.
 */
export async function createOcrEngine(opts: CreateOcrEngineOptions): Promise<OcrEngine> {
  const workers = Number.isInteger(opts.workers) && opts.workers > 0 ? opts.workers : defaultOcrWorkers();
  const tessdata = resolveTessdataDir(opts.tessdataDir);
  if (opts.engine === "wasm") return createWasmEngine({ workers, tessdata, cacheDir: opts.cacheDir });
  if (opts.engine !== "native" && opts.engine !== "auto") {
    throw new DocprocError("invalid_settings", `ocr.engine must be auto, wasm or native, got ${String(opts.engine)}`, {
      stage: "ocr",
    });
  }
  const native = await probeNativeTesseract();
  if (native) {
    const nativeOpts = {
      workers,
      binary: native.binary,
      version: native.version,
      tessdataDir: unpackedTessdataDir(tessdata, opts.cacheDir),
      systemTessdataDir: native.systemTessdataDir,
      ...(opts.cacheDir ? { cacheDir: opts.cacheDir } : {}),
    };
    if (await nativeSelfTest(nativeOpts)) return createNativeEngine(nativeOpts);
  }
  if (opts.engine === "auto") return createWasmEngine({ workers, tessdata, cacheDir: opts.cacheDir });
  throw new DocprocError(
    "ocr_failed",
    "ocr.engine is native but a working `tesseract` is not on PATH (Debian: apt-get install tesseract-ocr)",
    {
      stage: "ocr",
    },
  );
}
export { lazyOcrEngine } from "./lazy.ts";
