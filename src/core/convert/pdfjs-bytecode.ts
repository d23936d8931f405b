/**
 * The patched pdf.js worker code (pdfjs-patched-worker.ts) as JavaScriptCore bytecode.
 *
 * Why: a fresh process parses the 2.4 MB worker code before its first page and compiles each function to bytecode
 * the first time it runs. Loaded from bytecode, the pdf.js thread of a fresh `process` of the bench's 500-page file
 * took 0.69-0.73 CPU-s instead of 0.76-0.77, and the run 1.25-1.37 s instead of 1.37-1.41 (5 runs each).
 *
 * Bun writes bytecode only through its bundler (`Bun.build({ bytecode: true })`, CommonJS outside a compiled
 * binary), so the first start after pdf.js, the patches or Bun changed builds it once (~0.4 s of CPU) beside the
 * patched file, in the same private dir, and every later start loads it. The names carry the patched code's digest
 * and Bun's revision. Bun itself ignores a .jsc that does not match its source or its own version (it parses the
 * source then); the .cjs is checked against the digest recorded when it was built, as the patched file is.
 * Anything that goes wrong returns null: the caller imports the patched module as before.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** The bytecode module's file name for a patched worker file with this digest, under this Bun. */
export function bytecodeName(digest: string): string {
  return `pdf.worker.${digest.slice(0, 16)}.${Bun.revision.slice(0, 12)}.cjs`;
}

const sha256 = (bytes: Uint8Array | string) => createHash("sha256").update(bytes).digest("hex");

/**
 * The module if its .cjs is exactly what was built and its bytecode is there; null otherwise. Needs only the patched
 * code's digest (from the recipe): the patched file itself is not read.
 */
export function loadBuiltBytecode(dir: string, digest: string): Record<string, unknown> | null {
  const file = join(dir, bytecodeName(digest));
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
async function build(patched: string, file: string): Promise<void> {
  const dir = dirname(file);
  const out = mkdtempSync(join(dir, "build-"));
  try {
    const result = await Bun.build({ entrypoints: [patched], target: "bun", format: "cjs", bytecode: true, outdir: out, naming: basename(file) });
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
 * Other digests' and other Bun revisions' bytecode files go once a new one is in place (upgrades), and so do build
 * folders left by a start that was killed (after ten minutes: younger ones may be in use).
 */
function removeOthers(file: string): void {
  const keep = basename(file);
  const now = Date.now();
  for (const name of readdirSync(dirname(file))) {
    const full = join(dirname(file), name);
    try {
      if (name.startsWith("build-") && now - statSync(full).mtimeMs > 600_000) rmSync(full, { recursive: true, force: true });
      if (!/^pdf\.worker\.[0-9a-f]{16}\.[0-9a-f]+\.cjs(\.jsc|\.sha256)?$/.test(name) || name.startsWith(keep)) continue;
      unlinkSync(full);
    } catch {
      // Removed by another process meanwhile.
    }
  }
}

/**
 * The worker module loaded from bytecode, built first from `patched` (whose content MUST have been checked against
 * `digest`) if needed; null when that cannot be done here.
 */
export async function loadPdfjsBytecode(patched: string, digest: string): Promise<Record<string, unknown> | null> {
  const ready = loadBuiltBytecode(dirname(patched), digest);
  if (ready) return ready;
  const file = join(dirname(patched), bytecodeName(digest));
  try {
    await build(patched, file);
    removeOthers(file);
  } catch {
    return null; // e.g. a full disk: the module is imported from source
  }
  return loadBuiltBytecode(dirname(patched), digest);
}
