/** The native tesseract OCR engine: worker slots, each with a long-running host or the CLI per page. */
import type { Subprocess } from "bun";
import { DocprocError } from "../../errors.ts";
import { LazyPool } from "./pool.ts";
import { HostUnavailable, hostScriptAvailable, NativeHost } from "./native-hosts.ts";
import { encodePgm, toGrey, type GreyImage } from "../../imaging/grey.ts";
import { parseTesseractTsv } from "./tsv.ts";
import { DEFAULT_PSM, type OcrEngine, type OcrResult, type RecognizeOptions } from "./types.ts";
import { runTesseract, runTesseractOnList, WARM_UP_IMAGE, type NativeOptions } from "./native-cli.ts";
import { nativeLanguages, type NativeLanguageChoice } from "./native-languages.ts";

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
  const { hostOf, readOn } = slotReaders(opts, running, hosts);
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
      const greys = imgs.map(greyOrNull);
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
    has: (language) => languages([language]).use.includes(language),
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

/** A slot's reader: its running host, or the CLI where hosts cannot run (then for every slot, from then on). */
function slotReaders(opts: NativeOptions, running: Set<Subprocess>, hosts: Map<number, NativeHost>) {
  let useHosts = opts.hosts !== false && hostScriptAvailable();
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
    lang: NativeLanguageChoice,
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
  return { hostOf, readOn };
}

function greyOrNull(img: Parameters<typeof toGrey>[0]): GreyImage | null {
  try {
    return toGrey(img);
  } catch {
    return null; // an invalid raster stays null; the others are still read
  }
}
