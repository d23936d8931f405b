import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { gunzipSync } from "node:zlib";
import { DocprocError } from "../../errors.ts";
import { LANGUAGE_CODE } from "../../project/ocr";

/** Where the English traineddata lives, and whether it is gzip-compressed. */
export interface Tessdata {
  dir: string;
  /** Full path of `eng.traineddata` or `eng.traineddata.gz`. */
  file: string;
  gzip: boolean;
}

const LANG = "eng";
/** tesseract.js's LSTM-only integer model: the same file serves the wasm and the native engine. */
const NPM_PACKAGE_SUBDIR = "4.0.0_best_int";

function findIn(dir: string): Tessdata | null {
  for (const [name, gzip] of [
    [`${LANG}.traineddata.gz`, true],
    [`${LANG}.traineddata`, false],
  ] as const) {
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return { dir, file, gzip };
  }
  return null;
}

/**
 * The ONE place that decides where traineddata comes from, in this order:
 * 1. `override` (the `tessdataDir` option; commands fill it from `--tessdata` or the env var DOCPROC_TESSDATA,
 *    core never reads the environment). MUST contain eng.traineddata(.gz), otherwise invalid_settings.
 * 2. a `tessdata` folder next to the executable (the companion folder of a compiled single binary);
 * 3. the npm package `@tesseract.js-data/eng` (4.0.0_best_int), the normal case in a checkout.
 * Never touches the network.
 */
export function resolveTessdataDir(override?: string, executablePath: string = process.execPath): Tessdata {
  if (override) {
    const found = findIn(path.resolve(override));
    if (!found) {
      throw new DocprocError("invalid_settings", `no ${LANG}.traineddata(.gz) in tessdata directory ${override}`, {
        stage: "ocr",
      });
    }
    return found;
  }
  const companion = findIn(path.join(path.dirname(executablePath), "tessdata"));
  if (companion) return companion;
  try {
    const pkg = createRequire(import.meta.url).resolve("@tesseract.js-data/eng/package.json");
    const found = findIn(path.join(path.dirname(pkg), NPM_PACKAGE_SUBDIR));
    if (found) return found;
  } catch {
    // fall through to the error below
  }
  throw new DocprocError(
    "invalid_settings",
    `${LANG} traineddata not found: install @tesseract.js-data/eng, put a tessdata folder next to the executable, or set DOCPROC_TESSDATA`,
    { stage: "ocr" },
  );
}

/**
 * The native CLI needs an uncompressed file in a directory of its own (`--tessdata-dir`). Gunzips once into a
 * cache directory keyed by the source file's size and mtime; concurrent callers race safely (write + rename).
 */
export function unpackedTessdataDir(td: Tessdata, cacheRoot: string = os.tmpdir()): string {
  if (!td.gzip) return td.dir;
  const stat = fs.statSync(td.file);
  const dir = path.join(cacheRoot, `docproc-tessdata-${stat.size}-${Math.floor(stat.mtimeMs)}`);
  const target = path.join(dir, `${LANG}.traineddata`);
  if (fs.existsSync(target)) return dir;
  fs.mkdirSync(dir, { recursive: true });
  const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
  fs.writeFileSync(tmp, gunzipSync(fs.readFileSync(td.file)));
  fs.renameSync(tmp, target);
  return dir;
}

/**
 * The traineddata of `lang` shipped as an npm package of its own (`@tesseract.js-data/<lang>`, the same
 * 4.0.0_best_int model as English; docproc depends on `deu`), or null. In a compiled binary it is looked up in the
 * companion folder, as English is.
 */
export function languagePack(lang: string): string | null {
  if (lang === LANG || !LANGUAGE_CODE.test(lang)) return null;
  try {
    const pkg = createRequire(import.meta.url).resolve(`@tesseract.js-data/${lang}/package.json`);
    const file = path.join(path.dirname(pkg), NPM_PACKAGE_SUBDIR, `${lang}.traineddata.gz`);
    return fs.existsSync(file) ? file : null;
  } catch {
    return null; // not installed
  }
}

/**
 * The embedded engine reads every model from one folder: `td`'s own when no language package adds to it, else a
 * cache folder of symbolic links to English and to each package's model (what `td.dir` holds itself wins). Models
 * keep `td`'s file name ending; tesseract.js unpacks a gzip-compressed model by its content. Null without a
 * writable cache: then the engine has only what `td.dir` holds.
 */
export function embeddedTessdataDir(td: Tessdata, langs: readonly string[], cacheRoot = os.tmpdir()): string | null {
  const ending = td.gzip ? ".traineddata.gz" : ".traineddata";
  const added = langs.filter((l) => !fs.existsSync(path.join(td.dir, l + ending)) && languagePack(l));
  if (!added.length) return td.dir;
  try {
    const dir = path.join(cacheRoot, `docproc-tessdata-js-${Bun.hash(`${td.file}|${added.join("+")}`).toString(36)}`);
    fs.mkdirSync(dir, { recursive: true });
    for (const [lang, target] of [[LANG, td.file], ...added.map((l) => [l, languagePack(l)!])] as const) {
      const at = path.join(dir, lang + ending);
      if (fs.existsSync(at)) continue;
      const tmp = `${at}.${process.pid}.${Date.now()}.tmp`;
      fs.symlinkSync(target, tmp);
      fs.renameSync(tmp, at); // concurrent callers race safely: the same target either way
    }
    return dir;
  } catch {
    return null;
  }
}
