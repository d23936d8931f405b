/**
 * pdf.js as JavaScriptCore bytecode: the patched worker code (pdfjs-patched-worker.ts, stem "pdf.worker") and the
 * display layer pdf.mjs (stem "pdf"), both loaded by the pdf.js host thread (pdf-worker.ts).
 *
 * Why: a fresh process parses the 2.4 MB worker code and the 1.1 MB display layer before its first page and compiles
 * each function to bytecode the first time it runs. Loaded from bytecode, the pdf.js thread of a fresh `process` of
 * the bench's 500-page file took 0.69-0.73 CPU-s instead of 0.76-0.77, and the run 1.25-1.37 s instead of
 * 1.37-1.41 (worker code only, 5 runs each); the display layer from bytecode took one tiny PDF's pdf.js thread from
 * 0.07 to 0.05-0.06 CPU-s (6 runs each).
 *
 * Bun writes bytecode only through its bundler (`Bun.build({ bytecode: true })`, CommonJS outside a compiled binary),
 * so the first start after pdf.js, the patches or Bun changed builds it once (~0.4 s of CPU for the worker code) in
 * the private dir of the patched file, and every later start loads it. The names carry the source's digest and Bun's
 * revision. The build inlines `import.meta.url` as the source's own URL, so what pdf.js resolves from it (the canvas
 * addon, through createRequire) is found where it was; that is also why a source named by its content alone MUST
 * live in one place (the patched worker code: in the private dir), and one that may be anywhere (pdf.mjs, in each
 * install's node_modules) is named by its content and its location (`loadSourceBytecode`): two checkouts on one
 * machine with the same pdf.js shared one copy, and the second one's pdf.js looked for the canvas addon in the
 * first one's node_modules (gone with a removed checkout: no rendering, so no OCR of scanned PDFs). Bun itself ignores a .jsc that does not match its source or
 * its own version (it parses the source then); the .cjs is checked against the digest recorded when it was built, as
 * the patched file is. Anything that goes wrong returns null: the caller imports the patched module as before.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { basename, dirname, join } from "node:path";

/** The bytecode module's file name for a source with this stem and digest, under this Bun. */
export function bytecodeName(stem: string, digest: string): string {
  return `${stem}.${digest.slice(0, 16)}.${Bun.revision.slice(0, 12)}.cjs`;
}

/** The sha256 of a file's bytes, hex. */
export const sha256Of = (file: string) => sha256(readFileSync(file));

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/**
 * The module if its .cjs is exactly what was built and its bytecode is there; null otherwise. Needs only the
 * source's digest (the worker code's comes from its recipe): the source itself is not read.
 */
export function loadBuiltBytecode(dir: string, stem: string, digest: string): Record<string, unknown> | null {
  const file = join(dir, bytecodeName(stem, digest));
  try {
    if (!existsSync(`${file}.jsc`)) return null;
    const recorded = readFileSync(`${file}.sha256`, "utf8");
    if (sha256(readFileSync(file)) !== recorded) return null;
    return require(file) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/**
 * Builds into a fresh folder and moves the results in: the bytecode first, then the code, then its digest, so that
 * a concurrent start (another worker, another process) either finds all three or builds its own copy.
 */
async function build(source: string, file: string): Promise<void> {
  const dir = dirname(file);
  const out = mkdtempSync(join(dir, "build-"));
  try {
    const result = await Bun.build({
      entrypoints: [source],
      target: "bun",
      format: "cjs",
      bytecode: true,
      outdir: out,
      naming: basename(file),
    });
    if (!result.success) throw new Error(result.logs.map(String).join("; "));
    const built = join(out, basename(file));
    renameSync(`${built}.jsc`, `${file}.jsc`);
    const code = readFileSync(built);
    renameSync(built, file);
    const partial = join(out, "sha256");
    writeFileSync(partial, sha256(code), { mode: 0o600 });
    renameSync(partial, `${file}.sha256`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/**
 * Other digests' and other Bun revisions' bytecode files of the same stem go once a new one is in place (upgrades),
 * when they were built more than a day ago: two installs in use side by side (a compiled binary and a checkout on
 * another Bun or pdf.js) would otherwise remove each other's copy at every start and rebuild it (~0.4 s). Build
 * folders left by a start that was killed go after ten minutes (younger ones may be in use).
 */
const OTHERS_KEPT_MS = 24 * 3600_000;

function removeOthers(file: string, stem: string): void {
  const keep = basename(file);
  const mine = new RegExp(`^${stem.replace(/\./g, "\\.")}\\.[0-9a-f]{16}\\.[0-9a-f]+\\.cjs(\\.jsc|\\.sha256)?$`);
  const now = Date.now();
  for (const name of readdirSync(dirname(file))) {
    const full = join(dirname(file), name);
    try {
      if (name.startsWith("build-") && now - statSync(full).mtimeMs > 600_000)
        rmSync(full, { recursive: true, force: true });
      if (!mine.test(name) || name.startsWith(keep) || now - statSync(full).mtimeMs <= OTHERS_KEPT_MS) continue;
      unlinkSync(full);
    } catch {
      // Removed by another process meanwhile.
    }
  }
}

/**
 * The module of `source` loaded from bytecode in `dir` (a private dir: its code is run), built first if needed;
 * `digest` MUST be the sha256 of the source's content, and `source` always the same file for that digest (see the
 * module comment; `loadSourceBytecode` otherwise). Null when that cannot be done here.
 */
export async function loadPdfjsBytecode(
  source: string,
  digest: string,
  stem: string,
  dir: string,
): Promise<Record<string, unknown> | null> {
  const ready = loadBuiltBytecode(dir, stem, digest);
  if (ready) return ready;
  const file = join(dir, bytecodeName(stem, digest));
  try {
    await build(source, file);
    removeOthers(file, stem);
  } catch {
    return null; // e.g. a full disk: the module is imported from source
  }
  return loadBuiltBytecode(dir, stem, digest);
}

/**
 * `loadPdfjsBytecode` for a source that may sit anywhere (a module in an install's node_modules): the copy is named by
 * the source's content and its path, so each install gets its own, whose `import.meta.url` is its own source's.
 */
export function loadSourceBytecode(source: string, stem: string, dir: string): Promise<Record<string, unknown> | null> {
  return loadPdfjsBytecode(source, sha256(`${sha256Of(source)}\0${source}`), stem, dir);
}
