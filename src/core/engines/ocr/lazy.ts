/**
 * An OCR engine that starts (tesseract workers, traineddata) only when a page first needs OCR: a batch of
 * born-digital PDFs never pays for it. `name` is "lazy" until then, the real engine's name afterwards; `workers` is
 * what the caller will start (the OCR stage sizes its pages in flight from it before the engine exists).
 */
import { cpuCount } from "../../cores";
import type { OcrEngine } from "./types.ts";

export function lazyOcrEngine(
  create: () => Promise<OcrEngine>,
  workers = cpuCount(),
): OcrEngine & { started(): OcrEngine | null } {
  let engine: Promise<OcrEngine> | undefined;
  let ready: OcrEngine | null = null;
  const start = () =>
    (engine ??= create().then((e) => {
      ready = e;
      return e;
    }));
  return {
    get name() {
      return ready?.name ?? "lazy";
    },
    workers,
    recognize: async (img, o) => (await start()).recognize(img, o),
    recognizeMany: async (imgs, o) => {
      const e = await start().catch(() => null);
      if (!e) return imgs.map(() => null);
      return e.recognizeMany
        ? e.recognizeMany(imgs, o)
        : Promise.all(imgs.map((img) => e.recognize(img, o).catch(() => null)));
    },
    warm: async (languages, pages) => {
      const e = await start().catch(() => null);
      await e?.warm?.(languages, pages);
    },
    has: (language) => ready?.has?.(language) ?? false,
    close: async () => {
      if (engine) await (await engine.catch(() => null))?.close();
    },
    started: () => ready,
  } as OcrEngine & { started(): OcrEngine | null };
}
