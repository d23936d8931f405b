/**
 * The one font docproc draws text with (stand-in page images of supplied text, test fixtures): Liberation Sans as
 * pdfjs-dist ships it (the compiled binary's companion folder carries the same file, scripts/build.ts), registered
 * under a private family name.
 *
 * Why: a generic family such as `sans-serif` or `monospace` resolves through fontconfig to whatever the machine has
 * (DejaVu here, Liberation once `fonts-liberation` is installed), so drawn pixels, JPEG sizes and OCR of drawn text
 * changed with the machine. A private name can only resolve to the registered file.
 */
import { dirname, join } from "node:path";

export const DRAW_FONT_FAMILY = "docproc-sans";

let registered: boolean | null = null;

/** Registers the font once and returns the family name to use in `ctx.font`; throws if the file is missing. */
export function drawFontFamily(): string {
  if (registered === null) {
    const { GlobalFonts } = require("@napi-rs/canvas") as typeof import("@napi-rs/canvas");
    const pdfjsRoot = dirname(dirname(dirname(Bun.resolveSync("pdfjs-dist/legacy/build/pdf.mjs", import.meta.dir))));
    const file = join(pdfjsRoot, "standard_fonts", "LiberationSans-Regular.ttf");
    registered = Boolean(GlobalFonts.registerFromPath(file, DRAW_FONT_FAMILY));
    if (!registered) throw new Error(`could not register the drawing font ${file}`);
  }
  return DRAW_FONT_FAMILY;
}
