/**
 * Page images for review (`GET /transactions/{id}/pages/{page_index}/image`, internal per the spec). The image is
 * the page as OCR saw it: un-rotated, `rasterized_width × rasterized_height`, so every box and word of the results
 * lands on it unscaled. Rendered from the stored source file on first request, then kept in the blob store.
 * Pages of supplied text or OCR data have no image (404 saying so).
 */
import sharp from "sharp";
import { DocprocError } from "../../core/errors";
import { listPages } from "../../storage/transactions/pages";
import { getPageImage, putPageImage } from "../../storage/results/review-states";
import type { TransactionRecord } from "../../storage/transactions/transactions";
import type { ServerDeps } from "../deps";
import { storedSources } from "./review-finish";

export function parsePageIndex(raw: string): number {
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    throw new DocprocError("invalid_input", `page_index: expected a page number from 1, got ${JSON.stringify(raw)}`);
  return Number(raw);
}

export async function pageImage(
  deps: ServerDeps,
  t: TransactionRecord,
  pageNumber: number,
): Promise<{ data: Uint8Array; contentType: string }> {
  const cached = getPageImage(deps.db, t.transaction_id, pageNumber);
  if (cached) return { data: await deps.blobs.get(cached.blob_hash), contentType: cached.content_type };
  const page = listPages(deps.db, t.transaction_id).find((p) => p.page_number === pageNumber);
  if (!page) throw new DocprocError("not_found", `Transaction ${t.transaction_id} has no page ${pageNumber}`);
  const src = (await storedSources(deps, t.transaction_id)).find((s) => s.index === page.source_file_index);
  if (!src || page.text_source === "supplied_text" || page.text_source === "supplied_ocr") {
    throw new DocprocError("not_found", `Page ${pageNumber} has no image: it came from supplied text or OCR data`);
  }
  const { convertSource } = await import("../../core/stages/convert");
  const converted = await convertSource(src, {
    firstPageNumber: page.page_number - page.source_file_page_number + 1,
    maxPages: page.source_file_page_number,
  });
  try {
    const fresh = converted.pages.find((p) => p.source_file_page_number === page.source_file_page_number);
    if (!fresh?.render)
      throw new DocprocError("not_found", `Page ${pageNumber} could not be rendered from ${src.filename}`);
    const img = await fresh.render();
    const data = new Uint8Array(
      await sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
        .jpeg({ quality: 85 })
        .toBuffer(),
    );
    putPageImage(deps.db, t.transaction_id, pageNumber, await deps.blobs.put(data), "image/jpeg");
    return { data, contentType: "image/jpeg" };
  } finally {
    await converted.close();
  }
}
