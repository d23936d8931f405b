/**
 * Loads pdf.js's worker code with a small instrumentation: every text item also carries the start and end offset
 * of each of its glyphs (`glyphs: [unicode, start, end, ...]`, in the same units as the item's `width`).
 *
 * Why: `getTextContent()` reports one advance width per text run (often a whole line). Per-word boxes need the
 * glyph positions pdf.js computes anyway but throws away; re-deriving them (operator list + font programs) would
 * double the cost of born-digital conversion. Three anchors in pdf.worker.mjs are patched; if any is missing (a
 * pdf.js upgrade), the stock worker is used and words are placed by estimated character widths instead.
 *
 * A few hot paths of text extraction are also replaced by equivalent, cheaper code (pdfjs-speed-patches.ts); a
 * missing anchor there costs speed, never correctness.
 */
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { applyPatches, SPEED_PATCHES, type Patch } from "./pdfjs-speed-patches.ts";
import { MEMORY_PATCHES } from "./pdfjs-memory-patches.ts";
import { FILE_STREAM } from "./pdfjs-file-stream.ts";
import { loadBuiltBytecode, loadPdfjsBytecode, loadSourceBytecode } from "./pdfjs-bytecode.ts";

/**
 * Safety: an object stream's `/N` (its object count) sized two arrays before a single entry was read, and JSC
 * allocates `new Array(n)` eagerly (8 bytes an element): a 600-byte PDF declaring `/N 99999999` took 1.6 GB per
 * fetch, several fetches per file. The arrays now grow with the entries actually parsed, which the stream's own
 * length bounds; the loops stop at the first non-integer as before, so every valid file reads the same.
 * Tested by test/core/hardening.test.ts (peak RSS of a CLI run on such a file).
 */
const OBJECT_STREAM: Patch[] = [
  [
    "    const nums = new Array(n);\n    const offsets = new Array(n);\n",
    "    const nums = [];\n    const offsets = [];\n",
  ],
  ["    const entries = new Array(n);\n", "    const entries = [];\n"],
];

/**
 * Safety: a CID font's `/W` (and `/W2`) range `first last width` set one entry per CID of the range, so a range
 * ending at 4294967295 (a fuzzed number) took 5 GB and a pdf.js timeout. CIDs stop at 65,535 (PDF 32000-1 annex
 * C), so a range is cut there: every valid font reads the same. Tested in test/core/convert/hostile-inputs.test.ts.
 */
const CID_WIDTH_RANGES: Patch[] = [
  [
    "for (let j = start; j <= code; j++) {\n              glyphsWidths[j] = width;",
    "for (let j = start, last = Math.min(code, 0xffff); j <= last; j++) {\n              glyphsWidths[j] = width;",
  ],
  [
    "for (let j = start; j <= code; j++) {\n                glyphsVMetrics[j] = vmetric;",
    "for (let j = start, last = Math.min(code, 0xffff); j <= last; j++) {\n                glyphsVMetrics[j] = vmetric;",
  ],
];

/**
 * Safety: an image's `/BitsPerComponent` was used as given, and unpacking reads bpc/8 bytes per component, so a
 * 16 × 16 image declaring 99999999 bits (fuzz input 1279 of seed 21) took 15-45 s of CPU to render a 22-byte
 * stream. The spec allows 1-16 (JPX data may say more); above 32 the image is refused like any undecodable one
 * (pdf.js leaves it out of the rendering with a warning).
 */
const IMAGE_BITS: Patch[] = [
  [
    "    this.bpc = bitsPerComponent;\n    if (!this.imageMask) {",
    "    this.bpc = bitsPerComponent;\n" +
      "    if (!Number.isInteger(bitsPerComponent) || bitsPerComponent < 1 || bitsPerComponent > 32) throw new FormatError(`Invalid bits per component: ${bitsPerComponent}`);\n" +
      "    if (!this.imageMask) {",
  ],
];

/**
 * Safety: a CMap may map 2^24 - 1 codes (pdf.js's own budget, per CMap), and each mapped code costs ~320 bytes in
 * the worker: a ToUnicode stream damaged into garbage ranges (fuzz input 5438 of seed 21, a mutated
 * NetpresseInvoice.pdf) took it to 2.4 GB, one range of 2^24 - 1 codes to 3.3 GB. Real CMaps map far fewer codes
 * (two-byte codes: at most 65,536; Adobe's UTF-32 CMaps tens of thousands), so the budget is 2^20 - 1 (~340 MB at
 * most); past it the rest of the CMap is ignored, as pdf.js does past its own. Tested in hostile-inputs.test.ts.
 */
const CMAP_BUDGET: Patch[] = [["const MAX_MAP_RANGE = 2 ** 24 - 1;", "const MAX_MAP_RANGE = 2 ** 20 - 1;"]];

const PATCHES: Patch[] = [
  [
    "textChunk.str.push(glyphUnicode);",
    "textChunk.str.push(glyphUnicode);" +
      " if (!textChunk.vertical) (textChunk.glyphs ||= []).push(glyphUnicode," +
      " textChunk.totalWidth + (textChunk.width - scaledDim) * textChunk.textAdvanceScale," +
      " textChunk.totalWidth + textChunk.width * textChunk.textAdvanceScale);",
  ],
  ["hasEOL: textChunk.hasEOL\n", "hasEOL: textChunk.hasEOL,\n        glyphs: textChunk.glyphs || null\n"],
  ["textContentItem.str.length = 0;", "textContentItem.str.length = 0; textContentItem.glyphs = null;"],
];

export interface WorkerModule {
  WorkerMessageHandler: unknown;
  /** True when text items carry glyph offsets. */
  glyphOffsets: boolean;
}

const OPTIONAL: Patch[][] = [
  OBJECT_STREAM,
  CID_WIDTH_RANGES,
  IMAGE_BITS,
  CMAP_BUDGET,
  ...SPEED_PATCHES,
  ...MEMORY_PATCHES,
  FILE_STREAM,
];

/** File names of the patched worker code's bytecode copies (pdfjs-bytecode.ts). */
const STEM = "pdf.worker";

/**
 * pdf.js's display layer (pdf.mjs), from a bytecode copy when one can be made (pdfjs-bytecode.ts), else imported.
 * Hashing its 1.1 MB to name the copy costs ~1 ms. A compiled binary bundles pdf.mjs (with bytecode): there is no
 * file to copy, and the literal import below is that bundled module.
 */
export async function loadPdfjsDisplayModule(): Promise<Record<string, unknown>> {
  try {
    const path = Bun.resolveSync("pdfjs-dist/legacy/build/pdf.mjs", import.meta.dir);
    const fromBytecode = existsSync(path) ? await loadSourceBytecode(path, "pdf", privateDir()) : null;
    if (fromBytecode) return fromBytecode;
  } catch {
    // Not readable or no private dir: imported as it is.
  }
  return import("pdfjs-dist/legacy/build/pdf.mjs");
}

export async function loadPdfjsWorkerModule(): Promise<WorkerModule> {
  const path = Bun.resolveSync("pdfjs-dist/legacy/build/pdf.worker.mjs", import.meta.dir);
  if (!existsSync(path)) throw new Error(missingPdfjs(path));
  const recorded = recordedDigest(path);
  const fromBytecode = recorded ? loadBuiltBytecode(privateDir(), STEM, recorded) : null;
  if (fromBytecode) return { ...(fromBytecode as Pick<WorkerModule, "WorkerMessageHandler">), glyphOffsets: true };
  const known = recorded ? knownPatchedFile(recorded) : null;
  if (known) {
    try {
      return {
        ...((await loadPdfjsBytecode(known, recorded!, STEM, privateDir())) ?? (await import(known))),
        glyphOffsets: true,
      };
    } catch {
      // Removed by another version's worker meanwhile: patch again.
    }
  }
  const source = readFileSync(path, "utf8");
  const patched = applyPatches(source, PATCHES, OPTIONAL);
  if (patched === null) return { ...(await import(path)), glyphOffsets: false };
  const digest = createHash("sha256").update(patched).digest("hex");
  try {
    const file = join(privateDir(), `pdf.worker.${digest.slice(0, 16)}.mjs`);
    // Re-check the content before importing: code we run must be exactly the code we patched.
    const current = existsSync(file) ? sha256Of(file) : "";
    if (current !== digest) {
      writeAtomically(file, patched);
      removeStale(dirname(file), basename(file));
    }
    rememberPatchedFile(path, digest);
    return {
      ...((await loadPdfjsBytecode(file, digest, STEM, privateDir())) ?? (await import(file))),
      glyphOffsets: true,
    };
  } catch {
    return { ...(await import(path)), glyphOffsets: false }; // e.g. a read-only or foreign temp dir
  }
}

/**
 * Patching cost every worker start ~15 ms of CPU (reading the 2 MB source, finding each anchor twice, hashing the
 * result). The patched file's digest is kept in a recipe file named after the pdf.js file's identity (device,
 * inode, size, mtime and ctime: a replaced or rewritten file has a new ctime) and the patches themselves; a start
 * that finds it only hashes the patched file to check it is still exactly that code.
 */
function recipeFile(path: string): string {
  const stat = statSync(path);
  const recipe = JSON.stringify([path, stat.dev, stat.ino, stat.size, stat.mtimeMs, stat.ctimeMs, PATCHES, OPTIONAL]);
  return join(privateDir(), `recipe.${createHash("sha256").update(recipe).digest("hex").slice(0, 16)}`);
}

/** The patched code's digest the recipe names, if any. */
function recordedDigest(path: string): string | null {
  try {
    const digest = readFileSync(recipeFile(path), "utf8");
    return /^[0-9a-f]{64}$/.test(digest) ? digest : null;
  } catch {
    return null; // no recipe yet: patch
  }
}

function knownPatchedFile(digest: string): string | null {
  try {
    const file = join(privateDir(), `pdf.worker.${digest.slice(0, 16)}.mjs`);
    return sha256Of(file) === digest ? file : null;
  } catch {
    return null; // its file is gone: patch again
  }
}

function rememberPatchedFile(path: string, digest: string): void {
  try {
    const recipe = recipeFile(path);
    writeAtomically(recipe, digest);
    for (const name of readdirSync(dirname(recipe))) {
      if (name.startsWith("recipe.") && !name.endsWith(".tmp") && name !== basename(recipe))
        unlinkSync(join(dirname(recipe), name));
    }
  } catch {
    // Best effort: without a recipe the next start patches again.
  }
}

function sha256Of(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** Write-then-rename: several workers may start at once and must never read a half-written file. */
function writeAtomically(file: string, text: string): void {
  const partial = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  writeFileSync(partial, text, { mode: 0o600 });
  renameSync(partial, file);
}

/** Says what to install or copy where: in a compiled binary the path is under its companion folder. */
function missingPdfjs(path: string): string {
  return path.includes("docproc-lib")
    ? `the companion folder docproc-lib/ is missing or incomplete beside ${process.execPath} (no ${path}): copy dist/docproc-lib next to the binary, see docs/binary.md`
    : `pdf.js is not installed (no ${path}): run npm ci`;
}

/**
 * A new patched file means pdf.js or the patches changed (an upgrade): the other versions' files go. A process still
 * running an old version rewrites its own file when its next worker starts, so nothing breaks; half-written files
 * of crashed writers go once they are ten minutes old (younger ones may be in flight).
 */
function removeStale(dir: string, keep: string): void {
  const now = Date.now();
  for (const name of readdirSync(dir)) {
    if (name === keep || !(name.startsWith("pdf.worker.") || name.startsWith("recipe."))) continue;
    const full = join(dir, name);
    try {
      if (name.endsWith(".tmp") && now - statSync(full).mtimeMs < 600_000) continue;
      if (name.endsWith(".mjs") || name.endsWith(".tmp")) unlinkSync(full);
    } catch {
      // Removed by another process meanwhile.
    }
  }
}

/** A temp folder only this user can write to (the patched module is executed, so no one else may plant it). */
export function privateDir(): string {
  const uid = process.getuid?.() ?? 0;
  const dir = join(tmpdir(), `docproc-pdfjs-${uid}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = statSync(dir);
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o022) !== 0) throw new Error(`${dir} is not private`);
  return dir;
}
