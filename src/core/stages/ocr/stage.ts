/**
 * The OCR Stage, which always runs after convert (it is not a workflow node): pages without a usable text layer.
 */
import type { OcrPagesReport } from "./index";
import { throwIfAborted } from "../../abort";
import { analyseAfterReading, splitFilesOf } from "../split/stage";
import { suspendFiles } from "../run-state";
import { StageInterrupted, type Stage } from "../types";
import { pushAll } from "../../arrays";

export const ocrStage: Stage = async (state, ctx) => {
  const targets = state.pages.filter((p) => p.text_source === "none" && p.render);
  const onRead = analyseAfterReading(splitFilesOf(state.files, state.sources), ctx.project, ctx.signal);
  if (targets.length > 0) void ctx.ocr.warm?.(ctx.project.ocr.languages, targets.length);
  ctx.progress("ocr", 0, targets.length);
  // All pages: the text layers of a file's other pages tell the language its scanned pages are read with. Without a
  // page to read, ocrPages reads none and reports nothing: its modules (layout, reading order, imaging) are not loaded.
  let report: OcrPagesReport = { warnings: [], failed: [] };
  if (targets.length > 0)
    report = await (await import("./index")).ocrPages(state.pages, ctx.ocr, {
      signal: ctx.signal,
      stop: ctx.checkpoint,
      onPage: (d, t) => ctx.progress("ocr", d, t),
      onRead,
      languages: ctx.project.ocr.languages,
    });
  else throwIfAborted(ctx.signal, "ocr");
  // Stopped at a checkpoint: the pages read are kept; the rest (and any that failed, tried again) come next time,
  // so their warnings are reported then.
  if (report.stopped) throw new StageInterrupted("ocr");
  pushAll(state.warnings, report.warnings);
  await suspendFiles(state.files);
};
