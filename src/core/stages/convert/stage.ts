/**
 * The Convert Stage, which always runs first (it is not a workflow node): every source file to pages, plus the
 * supplied text and OCR data as pseudo-files after them. While a file converts, its pages are read ahead
 * (read-ahead.ts).
 *
 * MUST process every source it can: one unreadable file makes the result `partial`, never stops the others; when no
 * file could be read the run aborts with the first file's error.
 */
import { pushAll } from "../../arrays";
import { sniffFormat } from "../../convert/sniff";
import { DocprocError, wrapStageError } from "../../errors";
import type { SourceInput } from "../../model";
import type { Stage } from "../types";
import { convertOcrData, convertSource, convertText } from "./index";
import { readAheadOf } from "./read-ahead";
import { headBytes, wholeBytes } from "../../source-data";

export const convertStage: Stage = async (state, ctx) => {
  const { input, progress } = ctx;
  let nextPage = 1;
  let budget = input.pageLimit ?? null;
  const sources = state.sources;
  const total = sources.length + (input.documentText ? 1 : 0) + (input.ocrData ? 1 : 0);
  let failed = 0;
  const readAhead = readAheadOf(ctx.project, ctx.signal);
  // An image is read by OCR next: the engine starts (workers, model) while the image is being decoded, one worker per
  // image at most (the OCR stage asks again for its pages: a multi-page TIFF reads several at once).
  const images = sources.filter((s) => isImage(headBytes(s.data))).length;
  if (images > 0) void ctx.ocr.warm?.(ctx.project.ocr.languages, images);
  progress("convert", 0, total);
  for (const src of sources) {
    if (budget !== null && budget <= 0) break;
    try {
      const file = isPlainText(src)
        ? convertText(new TextDecoder().decode(wholeBytes(src.data)), nextPage, {
            sourceFileIndex: src.index,
            filename: src.filename,
          })
        : await convertSource(src, {
            firstPageNumber: nextPage,
            maxPages: budget,
            password: src.password ?? ctx.password,
            signal: ctx.signal,
            onPage: readAhead,
            wordsJson: ctx.keepsState,
          });
      state.files.push(file);
      nextPage += file.pages.length;
      if (budget !== null) budget -= file.pages.length;
    } catch (err) {
      const e = wrapStageError("convert", err);
      failed++;
      state.errors.push({
        source_file_index: src.index,
        stage: "convert",
        code: e.code,
        message: `${src.filename}: ${e.message}`,
      });
    }
    progress("convert", state.files.length + failed, total);
  }
  // Supplied text and OCR data are pseudo-files after the uploaded ones, so page numbers stay in request order.
  if (input.documentText) {
    const file = convertText(input.documentText, nextPage, { sourceFileIndex: sources.length });
    state.files.push(file);
    nextPage += file.pages.length;
  }
  if (input.ocrData) {
    state.files.push(
      convertOcrData(input.ocrData, nextPage, { sourceFileIndex: sources.length + (input.documentText ? 1 : 0) }),
    );
  }
  progress("convert", total, total);
  for (const f of state.files)
    pushAll(
      state.warnings,
      f.warnings.map((w) => `${f.filename}: ${w}`),
    );
  state.pages = state.files.flatMap((f) => f.pages);
  if (state.pages.length === 0 && state.errors.length > 0) {
    const first = state.errors[0]!;
    throw new DocprocError(first.code as never, first.message, { stage: first.stage });
  }
};

function isImage(data: Uint8Array): boolean {
  const format = sniffFormat(data);
  return format !== "pdf" && format !== "unknown";
}

/** Plain-text sources (a `.txt` upload, the rendered body of an imported e-mail) are read as supplied text. */
function isPlainText(src: SourceInput): boolean {
  const declared = /^text\/plain\b/i.test(src.content_type ?? "") || /\.txt$/i.test(src.filename);
  if (!declared || src.data.byteLength === 0) return false;
  const head = headBytes(src.data).subarray(0, 4096);
  if (head.includes(0)) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(
      head.length < src.data.byteLength ? head.subarray(0, head.length - 4) : head,
    );
    return true;
  } catch {
    return false;
  }
}
