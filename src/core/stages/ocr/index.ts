import { throwIfAborted as checkAborted } from "../../abort";
import { DocprocError } from "../../errors.ts";
import type { Box, Page, RasterImage } from "../../model.ts";
import type { PageLayout } from "../../engines/ocr/layout.ts";
import { toGrey, type GreyImage } from "../../imaging/grey.ts";
import { boxToSource } from "../../imaging/upright.ts";
import { pageGeometry, SINGLE_BLOCK } from "./geometry.ts";
import { readPageGeometry } from "./read-geometry.ts";
import type { OcrEngine, OcrResult, RecognizeOptions } from "../../engines/ocr/types.ts";
import { keepDecimalPoints } from "../../engines/ocr/decimals.ts";
import { orderByLayout } from "../../engines/ocr/reading-order.ts";
import { rereadCrossedBlocks } from "./block-reread.ts";
import { type Reading, readUpright } from "./orientation.ts";
import { mergeDiacritics } from "./language-merge.ts";
import { addLargeLines, addUnreadLines } from "./recover.ts";
import { dropSpecks } from "./specks.ts";
import { timeStage, timeStageSync } from "../../timing.ts";
import { languagePlan } from "./language-choice.ts";
import type { RenderOptions } from "../../imaging/render.ts";

export interface OcrPagesOptions {
  /** Called after each page (whether it succeeded or not) with pages done and pages to OCR in total. */
  onPage?(done: number, total: number): void;
  signal?: AbortSignal;
  /**
   * Pages in flight at once; by default one more than the engine's workers, so a page is rendered and analysed
   * while the workers are still busy with the previous ones and no worker waits for its next image.
   */
  concurrency?: number;
  /**
   * Called after a page was read, with the grey raster it was read from (rasterized size, un-rotated): separator
   * detection looks at the image the OCR stage has anyway, and only once the page's text can tell it whether to.
   * A rejection is ignored (the split stage looks again itself).
   */
  onRead?(page: Page, grey: RasterImage): Promise<void>;
  /**
   * A checkpoint request (graceful shutdown): once it fires, no new page is started; the pages in flight finish
   * normally and the report says `stopped` when pages were left undone (they keep `text_source "none"`).
   */
  stop?: AbortSignal;
  /**
   * Language models to read with (the project's `ocr.languages`). When absent, each page's language is chosen from
   * its own words (language-choice.ts): English first, read again with its language when its words say so.
   */
  languages?: readonly string[];
}

/** Per-page problems; the batch itself never fails because one page could not be read. */
export interface OcrPagesReport {
  warnings: string[];
  failed: Array<{ page_number: number; error: DocprocError }>;
  /** `stop` fired before every page was started: the pages not started are still to be read. */
  stopped?: boolean;
}

/**
 * OCRs every page with `text_source === "none"` that can `render()`.
 * For each page it MUST: render once, find the orientation (0/90/180/270) and small skew, read the upright image,
 * map every word box back to the un-rotated rasterized page (image_transform space, top-left origin), and set
 * `words`, `text`, `ocr_confidence`, `image_transform.rotation`, `image_transform.skew_degrees` and
 * `text_source = "ocr"`.
 * A page whose rendering or OCR fails keeps `text_source "none"` and is listed in the returned report (warning +
 * DocprocError "ocr_failed"); it never fails the batch. An aborted `signal` stops starting new pages and rejects
 * with the signal's reason when it is a DocprocError, otherwise with DocprocError("timeout").
 */
export async function ocrPages(pages: Page[], engine: OcrEngine, opts: OcrPagesOptions = {}): Promise<OcrPagesReport> {
  const targets = pages.filter((p) => p.text_source === "none" && typeof p.render === "function");
  const report: OcrPagesReport = { warnings: [], failed: [] };
  // What the engine could not do as asked (a language it lacks) is said once per run, not once per page.
  const engineWarnings = new Set<string>();
  const plan = languagePlan(opts.languages, engine, pages);
  const engines = new Map<string, OcrEngine>();
  const engineFor = (languages: readonly string[] | undefined) => {
    const key = languages?.join("+") ?? "";
    if (!engines.has(key))
      engines.set(
        key,
        withLanguages(engine, languages, (w) => engineWarnings.add(w)),
      );
    return engines.get(key)!;
  };
  const readPage = async (page: Page) => {
    const first = plan.first(page);
    const other = (text: string) => {
      const again = plan.again(page, text, first);
      if (!again) return null;
      return { read: again.read && engineFor(again.read), lend: again.lend && engineFor(again.lend) };
    };
    return ocrPage(page, engineFor(first), other);
  };
  const concurrency = Math.max(1, Math.min(opts.concurrency ?? (engine.workers ?? 1) + 1, targets.length));
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < targets.length) {
      throwIfAborted(opts.signal);
      if (opts.stop?.aborted) {
        report.stopped = true;
        return;
      }
      const page = targets[next++];
      try {
        const grey = await readPage(page);
        await opts.onRead?.(page, { ...grey, channels: 1 }).catch(() => undefined);
      } catch (err) {
        const error =
          err instanceof DocprocError
            ? err
            : new DocprocError("ocr_failed", String((err as Error)?.message ?? err), { stage: "ocr", cause: err });
        report.failed.push({ page_number: page.page_number, error });
        report.warnings.push(
          `page ${page.page_number} (${page.source_filename} p.${page.source_file_page_number}): OCR failed: ${error.message}`,
        );
      }
      opts.onPage?.(++done, targets.length);
    }
  };
  throwIfAborted(opts.signal);
  await Promise.all(Array.from({ length: concurrency }, lane));
  // Pages in flight at the abort fail as "OCR failed"; the run itself MUST still end as aborted, not succeed.
  throwIfAborted(opts.signal);
  report.warnings = [...engineWarnings, ...report.warnings];
  return report;
}

/** The engine with every call reading `languages`, the warnings of its results passed to `warn`. */
function withLanguages(
  engine: OcrEngine,
  languages: readonly string[] | undefined,
  warn: (w: string) => void,
): OcrEngine {
  const note = (r: OcrResult | null) => {
    for (const w of r?.warnings ?? []) warn(w);
    return r;
  };
  const opts = (o?: RecognizeOptions): RecognizeOptions => (languages ? { ...o, languages } : { ...o });
  const many = engine.recognizeMany?.bind(engine);
  return {
    name: engine.name,
    workers: engine.workers,
    recognize: async (img, o) => note(await engine.recognize(img, opts(o)))!,
    ...(many
      ? { recognizeMany: async (imgs: RasterImage[], o?: RecognizeOptions) => (await many(imgs, opts(o))).map(note) }
      : {}),
    close: () => engine.close(),
  };
}

function throwIfAborted(signal?: AbortSignal): void {
  checkAborted(signal, "ocr");
}

/**
 * `relanguage`: given the first recognition's text, the engine to read the page again with (`read`) and the one whose
 * reading lends it its names' diacritics (`lend`, language-merge.ts), or null.
 */
async function ocrPage(
  page: Page,
  engine: OcrEngine,
  relanguage?: (text: string) => { read: OcrEngine | null; lend: OcrEngine | null } | null,
): Promise<GreyImage> {
  // Grey straight from the renderer (one channel from a grey scan, luma computed off the main thread for a PDF).
  const render = page.render as (o?: RenderOptions) => Promise<RasterImage>;
  // A scanned PDF page may come back at its scan's own resolution, below the rasterized size (RenderOptions.scan).
  // Tesseract is told the page's DPI even then: told 200 for a 200-DPI bilevel scan its layout analysis took 25.5
  // CPU-s for 20 pages against 15.7 told 300, for the same words (F1 0.843 / 0.846).
  const rendered = toGrey(await timeStage("ocr: render", () => render({ grayscale: true, scan: true })));
  const dpi = page.image_transform.effective_dpi ?? undefined;
  // The layout measures inches in the raster's own pixels (a till roll is narrow in inches).
  const rasterDpi = dpi && (dpi * rendered.width) / page.image_transform.rasterized_width;
  const geometry = timeStageSync("ocr: layout analysis", () => pageGeometry(rendered, rasterDpi));
  const read = await readPageGeometry(geometry, dpi, engine);
  const { region, zoom, readDpi, image, upright } = read;
  const { sheet, layout, psm, roll } = read.geometry;
  let reading = read.reading;
  // The words may say the page is in another language (language-choice.ts): the same image read again with it; if
  // that reading fails, the first one stands.
  const other = layout.inkBox ? relanguage?.(reading.result.text) : null;
  const firstEngine = engine;
  if (other?.read) {
    const [first, read] = [reading, other.read];
    reading = await timeStage("ocr: reading in the page's language", () =>
      readUpright(image, upright, read, readDpi, psm),
    ).then(
      (r) => ((engine = read), r),
      () => first,
    );
  }
  // Blocks whose rows tesseract ran into the block beside them, read alone (in the names' language too, for diacritics).
  if (layout.inkBox && psm !== SINGLE_BLOCK)
    reading.result = await timeStage("ocr: crossed blocks", () =>
      rereadCrossedBlocks(reading, engine, readDpi, other?.lend),
    );
  // The names' language, when it is not the page's: its reading only lends the names their diacritics.
  if (other?.lend) reading = await lendDiacritics(reading, image, upright, other.lend, readDpi, psm);
  if (layout.inkBox)
    reading.result = await timeStage("ocr: second look", () =>
      addUnreadLines(
        reading.image,
        reading.result,
        engine,
        readDpi,
        undefined,
        engine === firstEngine ? undefined : firstEngine,
      ),
    );
  // A till roll read as one block of lines loses a line in much larger type: its merchant's logo.
  if (layout.inkBox && psm === SINGLE_BLOCK)
    reading.result = await timeStage("ocr: large type", () =>
      addLargeLines(reading.image, reading.result, engine, readDpi),
    );
  reading.result = keepDecimalPoints(reading.image, reading.result);
  if (psm === SINGLE_BLOCK) reading.result = dropSpecks(reading.result);
  // Columns tesseract ran its lines across (a misjudged skew, one column) are read one by one; a roll has none.
  if (!roll) reading.result = timeStageSync("ocr: reading order", () => orderByLayout(reading.result));
  const it = page.image_transform;
  // render() SHOULD return the rasterized size; if it does not, scale boxes into the declared space anyway.
  const sx = it.rasterized_width / rendered.width;
  const sy = it.rasterized_height / rendered.height;
  const toPage = (b: Box): Box => {
    const [x1, y1, x2, y2] = boxToSource(reading.transform, b);
    const read: Box = [x1 / zoom + region[0], y1 / zoom + region[1], x2 / zoom + region[0], y2 / zoom + region[1]];
    return scaleBox(sheet ? sheet.toSource(read) : read, sx, sy);
  };
  page.words = reading.result.words.map((w) => ({ ...w, bounding_box: toPage(w.bounding_box) }));
  page.text = reading.result.text;
  page.ocr_confidence = reading.result.confidence;
  page.text_source = "ocr";
  page.image_transform = { ...it, rotation: reading.transform.rotation, skew_degrees: reading.transform.skew };
  return rendered;
}

/** `first` with the diacritics of its names as `engine` reads them (language-merge.ts); `first` if that fails. */
async function lendDiacritics(
  first: Reading,
  image: GreyImage,
  layout: PageLayout,
  engine: OcrEngine,
  dpi: number | undefined,
  psm: number | undefined,
): Promise<Reading> {
  const second = await timeStage("ocr: reading the names' language", () =>
    readUpright(image, layout, engine, dpi, psm),
  ).catch(() => null);
  const same = second && second.transform.rotation === first.transform.rotation;
  return same ? { ...first, result: mergeDiacritics(first.result, second.result) } : first;
}

function scaleBox(b: Box, sx: number, sy: number): Box {
  if (sx === 1 && sy === 1) return b;
  return [Math.round(b[0] * sx), Math.round(b[1] * sy), Math.round(b[2] * sx), Math.round(b[3] * sy)];
}
