/**
 * JPG profile: one JPEG per page, as OCR saw it (the rasterized page), named `<name>_page_<n>.jpg` with n the
 * transaction page number. Orientation Corrected turns the image by the page's recorded quarter-turn rotation
 * (boxes of a JSON profile in corrected orientation then overlay it directly); Original leaves it un-rotated.
 * Resolution Original keeps the rasterized size, so JSON boxes overlay 1:1; reduced shrinks it (by `scale`, else to
 * `max_side`) and breaks that alignment. Quality changes bytes only, never pixel size.
 * A page without an image (supplied text) is skipped with a warning; when no page has one, the profile fails.
 */
import { DocprocError } from "../errors";
import { throwIfAborted } from "../abort";
import type { ProfileOf } from "../project/exports";
import { documentIdsOfPage, pageValues, type ExportContext, type ExportWriter } from "./context";
import { renderTemplate } from "./filename";
import { quarterTurn } from "./orientation";
import { rasterToJpeg } from "../imaging/jpeg";

/** Default name part; `_page_{page_number}.jpg` is appended unless the template places {page_number} itself. */
const DEFAULT_NAME = "{source_stem}";

export function jpgTemplate(template: string | undefined): string {
  let t = template ?? DEFAULT_NAME;
  if (/\.jpe?g$/i.test(t)) t = t.replace(/\.jpe?g$/i, "");
  if (!t.includes("{page_number}")) t = `${t}_page_{page_number}`;
  return `${t}.jpg`;
}

export async function exportJpg(ctx: ExportContext, profile: ProfileOf<"jpg">, out: ExportWriter): Promise<void> {
  const o = profile.options;
  const template = jpgTemplate(profile.filename);
  const pages = [...ctx.pages].sort((a, b) => a.page_number - b.page_number);
  let written = 0;
  for (const page of pages) {
    throwIfAborted(ctx.signal, "export");
    if (!page.render) {
      out.warn(`page ${page.page_number} has no image`);
      continue;
    }
    const name = renderTemplate(template, pageValues(ctx, profile.id, page.page_number));
    const reduced = o.resolution === "reduced";
    const jpeg = await rasterToJpeg(await page.render(), {
      quality: o.quality,
      rotate: o.orientation === "corrected" ? quarterTurn(page.image_transform.rotation) : 0,
      maxSide: reduced ? o.max_side : undefined,
      scale: reduced ? o.scale : null,
    });
    await out.file(name, jpeg.data, documentIdsOfPage(ctx.results, page.page_number));
    written++;
  }
  if (written === 0 && pages.length > 0) {
    throw new DocprocError("export_failed", "no page has an image (the source files are not available)", {
      stage: "export",
    });
  }
}
