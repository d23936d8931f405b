/**
 * pdf.js loads the @napi-rs/canvas addon (Skia, about 0.35 s of CPU) as soon as its module is evaluated, to
 * polyfill DOMMatrix and Path2D, although only rendering needs them: a batch of born-digital PDFs never renders a
 * page. `importWithoutCanvas` evaluates pdf.js with a stand-in for the addon in the require cache and stand-in
 * DOMMatrix / Path2D globals that refuse to be used; `loadCanvas` (called before every render) loads the real addon
 * and installs its DOMMatrix and Path2D, which pdf.js looks up at the time it draws.
 * Only for the pdf.js host worker (pdf-worker.ts): the globals are this thread's.
 */
import { createRequire } from "node:module";

type Canvas = typeof import("@napi-rs/canvas");

const require = createRequire(import.meta.url);
let canvas: Canvas | undefined;

function standIn(name: string): unknown {
  return function notLoaded() {
    throw new Error(`${name} is used before the canvas addon was loaded (call loadCanvas() before rendering)`);
  };
}

export async function importWithoutCanvas<T>(load: () => Promise<T>): Promise<T> {
  const g = globalThis as Record<string, unknown>;
  let resolved: string | undefined;
  try {
    resolved = require.resolve("@napi-rs/canvas");
  } catch {
    return load(); // pdf.js reports the missing addon itself
  }
  const cache = require.cache as Record<string, unknown>;
  const installed = !canvas && !(resolved in cache);
  if (installed) {
    cache[resolved] = { id: resolved, filename: resolved, loaded: true, exports: {}, children: [], paths: [] };
    g.DOMMatrix ??= standIn("DOMMatrix");
    g.Path2D ??= standIn("Path2D");
  }
  try {
    return await load();
  } finally {
    if (installed) delete cache[resolved];
  }
}

export async function loadCanvas(): Promise<Canvas> {
  if (canvas) return canvas;
  // A literal dynamic import, not require(): the compiled binary bundles it (and dlopens the addon from its companion
  // folder, scripts/build.ts); a runtime require() of the package name found nothing there and every render failed.
  canvas = (await import("@napi-rs/canvas")) as unknown as Canvas;
  const g = globalThis as Record<string, unknown>;
  g.DOMMatrix = canvas.DOMMatrix;
  g.Path2D = canvas.Path2D;
  return canvas;
}
