/**
 * `bun run build`: the single binary `dist/docproc` plus its companion folder `dist/docproc-lib/`.
 *
 * Why a companion folder: a standalone Bun executable cannot dlopen a native addon (or the shared libraries it links
 * to) from its embedded file system, and it does not resolve bare package names on disk at run time. So all
 * JavaScript is bundled into the binary, and only native code and data files ship in ONE folder beside it,
 * `docproc-lib/node_modules/…` (docs/binary.md): sharp's addon + libvips, @napi-rs/canvas's addon, the tesseract.js
 * wasm cores, the English traineddata, and pdf.js's worker source, CMaps, standard fonts and wasm decoders.
 *
 * How, without touching core modules: a build plugin rewrites the few places where a bundled module locates a
 * package file at run time (`require("@img/sharp-…/sharp.node")`, `__dirname` in the tesseract cores,
 * `Bun.resolveSync(x, import.meta.dir)`, `createRequire(import.meta.url)` …) to paths under the companion folder,
 * found relative to `process.execPath`. Every rewrite MUST match, otherwise the build fails: a package upgrade or
 * a refactor cannot silently break the binary. Workers (the pdf.js host, the pipeline thread, the PostgreSQL
 * connection thread, the tesseract.js worker script) are extra entrypoints, as Bun requires for workers in
 * executables.
 *
 * Start-up: code splitting + bytecode keep `docproc --version` near `bun -e 0` (commands are loaded by dynamic
 * import only). The build MUST fail when the companion folder is incomplete (checkCompanion).
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import type { BunPlugin } from "bun";

const ROOT = path.resolve(import.meta.dir, "..");
const DIST = path.join(ROOT, "dist");
export const BINARY = path.join(DIST, "docproc");
export const LIB_DIR = path.join(DIST, "docproc-lib");
const NODE_MODULES = path.join(ROOT, "node_modules");

const PLATFORM = `${process.platform}-${process.arch}`;

/** The native addon of a package: its `main` when that is a .node file, else the one .node file under it. */
function nativeAddon(pkgName: string): string {
  const dir = path.join(NODE_MODULES, pkgName);
  if (!existsSync(dir)) throw new Error(`build: ${pkgName} is not installed (needed for ${PLATFORM})`);
  const found = [...new Bun.Glob("**/*.node").scanSync({ cwd: dir })];
  if (found.length !== 1) throw new Error(`build: expected one .node file in ${pkgName}, found ${found.length}`);
  return `${pkgName}/${found[0]}`;
}

function canvasPackage(): string {
  for (const libc of ["gnu", "musl"]) {
    const name = `@napi-rs/canvas-${PLATFORM}-${libc}`;
    if (existsSync(path.join(NODE_MODULES, name))) return name;
  }
  return `@napi-rs/canvas-${PLATFORM}`;
}

const SHARP_PACKAGE = `@img/sharp-${PLATFORM}`;
const CANVAS_PACKAGE = canvasPackage();

/**
 * What the companion folder holds, as paths under node_modules (folders copied whole, minus PRUNE). Only native
 * code and data files: all JavaScript is bundled into the binary.
 */
function companionEntries(): string[] {
  const libvips = `@img/sharp-libvips-${PLATFORM}`;
  return [
    `${SHARP_PACKAGE}`,
    libvips,
    CANVAS_PACKAGE,
    ...[...new Bun.Glob("*.wasm").scanSync({ cwd: path.join(NODE_MODULES, "tesseract.js-core") })].map(
      (f) => `tesseract.js-core/${f}`,
    ),
    "@tesseract.js-data/eng/package.json",
    "@tesseract.js-data/eng/4.0.0_best_int",
    // German for the OCR stage's language choice (stages/ocr/language-choice.ts): read only when a page is German.
    "@tesseract.js-data/deu/package.json",
    "@tesseract.js-data/deu/4.0.0_best_int",
    "pdfjs-dist/package.json",
    "pdfjs-dist/legacy/build/pdf.worker.mjs",
    "pdfjs-dist/cmaps",
    "pdfjs-dist/standard_fonts",
    "pdfjs-dist/wasm",
    "pdfjs-dist/LICENSE",
  ];
}

const PRUNE = [/\.map$/, /\.d\.(m|c)?ts$/, /sbom\.cdx\.json$/];

/** The companion folder at run time, as a JS expression: `docproc-lib/node_modules` beside the executable. */
const LIB_EXPR = `process.getBuiltinModule("node:path").join(process.getBuiltinModule("node:path").dirname(process.execPath), "docproc-lib", "node_modules")`;
const libPath = (rel: string) => `process.getBuiltinModule("node:path").join(${LIB_EXPR}, ${JSON.stringify(rel)})`;
/** dlopen of a companion addon; a missing companion folder gets a message saying what to copy where. */
const dlopen = (rel: string) =>
  `((p) => { if (!process.getBuiltinModule("node:fs").existsSync(p)) throw new Error("the companion folder docproc-lib/ ` +
  `is missing or incomplete beside " + process.execPath + " (no " + p + "): copy dist/docproc-lib next to the binary, ` +
  `see docs/binary.md"); const m = { exports: {} }; process.dlopen(m, p); return m.exports; })(${libPath(rel)})`;

interface Rewrite {
  /** Path suffix of the module to rewrite (node_modules/… or src/…). */
  file: string;
  /** [search, replacement]: every search string MUST occur (else the build fails: the package changed). */
  replace: Array<[string | RegExp, string]>;
  prepend?: string;
}

/**
 * Every place a bundled module locates a file of a package at run time, redirected to the companion folder.
 * Native addons are dlopen'ed from there; data files are read from there.
 */
function rewrites(): Rewrite[] {
  const sharpAddon = nativeAddon(SHARP_PACKAGE);
  const canvasAddon = nativeAddon(CANVAS_PACKAGE);
  return [
    {
      file: "node_modules/sharp/dist/sharp.mjs",
      replace: [[`require("${SHARP_PACKAGE}/sharp.node")`, dlopen(sharpAddon)]],
    },
    {
      file: "node_modules/sharp/dist/sharp.cjs",
      replace: [[`require("${SHARP_PACKAGE}/sharp.node")`, dlopen(sharpAddon)]],
    },
    {
      file: "node_modules/@napi-rs/canvas/js-binding.js",
      replace: [[`require('${CANVAS_PACKAGE}')`, dlopen(canvasAddon)]],
    },
    // pdf.js loads @napi-rs/canvas itself (DOMMatrix, Path2D, ImageData polyfills): hand it the bundled module.
    {
      file: "node_modules/pdfjs-dist/legacy/build/pdf.mjs",
      replace: [[`require("@napi-rs/canvas")`, "__docprocCanvas"]],
      prepend: `import __docprocCanvas from "@napi-rs/canvas";\n`,
    },
    ...[
      "tesseract-core",
      "tesseract-core-lstm",
      "tesseract-core-simd",
      "tesseract-core-simd-lstm",
      "tesseract-core-relaxedsimd",
      "tesseract-core-relaxedsimd-lstm",
    ].map(
      (name): Rewrite => ({
        file: `node_modules/tesseract.js-core/${name}.js`,
        replace: [[`__dirname+"/"`, `${libPath("tesseract.js-core")}+"/"`]],
      }),
    ),
    // tesseract.js spawns its worker script by path: point it at the worker bundled as an extra entrypoint.
    {
      file: "node_modules/tesseract.js/src/worker/node/defaultOptions.js",
      replace: [[/workerPath: path\.join\([^)]*\)/, `workerPath: ${JSON.stringify(TESSERACT_WORKER_RUNTIME)}`]],
    },
    // pdf.js's asset folders (CMaps, standard fonts, decoders), resolved where the worker's open options live.
    {
      file: "src/core/engines/pdf/pdf-worker-globals.ts",
      replace: [
        [
          /Bun\.resolveSync\(("[^"]+"), import\.meta\.dir\)/,
          `process.getBuiltinModule("node:path").join(${LIB_EXPR}, $1)`,
        ],
      ],
    },
    // The drawing font (stand-in page images of supplied text) is pdf.js's Liberation Sans in the companion folder.
    {
      file: "src/core/imaging/draw-font.ts",
      replace: [
        [
          /Bun\.resolveSync\(("[^"]+"), import\.meta\.dir\)/,
          `process.getBuiltinModule("node:path").join(${LIB_EXPR}, $1)`,
        ],
      ],
    },
    {
      file: "src/core/engines/pdf/pdfjs-patched-worker.ts",
      replace: [
        [
          /Bun\.resolveSync\(("[^"]+"), import\.meta\.dir\)/,
          `process.getBuiltinModule("node:path").join(${LIB_EXPR}, $1)`,
        ],
      ],
    },
    // The native OCR host runs as a script of its own (the binary started with BUN_BE_BUN=1), shipped bundled.
    {
      file: "src/core/engines/ocr/native-hosts.ts",
      replace: [
        [
          `path.join(import.meta.dir, "native-host.ts")`,
          `path.join(path.dirname(process.execPath), "docproc-lib", ${JSON.stringify(HOST_BUNDLE)})`,
        ],
      ],
    },
    {
      file: "src/core/engines/ocr/tessdata.ts",
      replace: [
        [
          "createRequire(import.meta.url)",
          `({ resolve: (s: string) => process.getBuiltinModule("node:path").join(${LIB_EXPR}, s) })`,
        ],
      ],
    },
  ];
}

/**
 * docproc's own worker scripts, each started by `new Worker(new URL("./<name>.ts", import.meta.url))`: Bun embeds a
 * worker only when it is an entrypoint, and a missing one fails only when it is started (the PostgreSQL connection
 * thread: the first statement would wait for a thread that never runs). Their file names must stay unique.
 */
export const WORKER_ENTRYPOINTS = [
  "src/core/engines/pdf/pdf-worker.ts",
  "src/queue/pipeline-thread.ts",
  "src/storage/schema/pg/thread.ts",
  "src/storage/schema/checkpoint-thread.ts",
];

/**
 * The native OCR host (src/core/engines/ocr/native-host.ts): a child process, not a worker, so it cannot live inside
 * the binary. It is bundled into one script in the companion folder, which the binary runs as Bun with BUN_BE_BUN=1.
 * Optional at run time (the engine falls back to the `tesseract` CLI per page), but the build always ships it.
 */
const HOST_SOURCE = path.join(ROOT, "src/core/engines/ocr/native-host.ts");
const HOST_BUNDLE = "native-host.js";

async function bundleHost(): Promise<void> {
  const result = await Bun.build({
    entrypoints: [HOST_SOURCE],
    outdir: LIB_DIR,
    naming: HOST_BUNDLE,
    target: "bun",
    format: "esm",
    minify: true,
  });
  if (!result.success) throw new Error(`build: bundling the OCR host failed:\n${result.logs.map(String).join("\n")}`);
}

const TESSERACT_WORKER_SOURCE = path.join(NODE_MODULES, "tesseract.js/src/worker-script/node/index.js");
/** Where the bundled tesseract worker lives inside the binary (flat entry names, see `naming`). */
const TESSERACT_WORKER_RUNTIME = "/$bunfs/root/index.js";

export function copyCompanion(): { files: number; bytes: number } {
  rmSync(LIB_DIR, { recursive: true, force: true });
  for (const rel of companionEntries()) {
    const src = path.join(NODE_MODULES, rel);
    if (!existsSync(src)) throw new Error(`build: ${rel} is missing from node_modules`);
    cpSync(src, path.join(LIB_DIR, "node_modules", rel), {
      recursive: true,
      dereference: true,
      filter: (p) => !PRUNE.some((re) => re.test(p)),
    });
  }
  return companionSize();
}

function companionSize(): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const f of new Bun.Glob("**/*").scanSync({ cwd: LIB_DIR, onlyFiles: true, dot: true })) {
    files++;
    bytes += statSync(path.join(LIB_DIR, f)).size;
  }
  return { files, bytes };
}

/** Throws when a file the binary needs at run time is missing from the companion folder. */
export function checkCompanion(libDir: string = LIB_DIR): void {
  const required = [
    nativeAddon(SHARP_PACKAGE),
    nativeAddon(CANVAS_PACKAGE),
    "tesseract.js-core/tesseract-core-lstm.wasm",
    "tesseract.js-core/tesseract-core-simd-lstm.wasm",
    "@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz",
    "pdfjs-dist/legacy/build/pdf.worker.mjs",
    "pdfjs-dist/cmaps/Adobe-Japan1-UCS2.bcmap",
    "pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf",
  ];
  const missing = required.filter((f) => !existsSync(path.join(libDir, "node_modules", f)));
  if (!existsSync(path.join(libDir, HOST_BUNDLE))) missing.push(HOST_BUNDLE);
  const libvips = path.join(libDir, "node_modules", `@img/sharp-libvips-${PLATFORM}/lib`);
  if (!existsSync(libvips) || ![...new Bun.Glob("libvips-cpp.so*").scanSync({ cwd: libvips })].length)
    missing.push(`@img/sharp-libvips-${PLATFORM}/lib/libvips-cpp.so*`);
  if (missing.length > 0)
    throw new Error(`build: companion folder ${libDir} is incomplete, missing: ${missing.join(", ")}`);
}

function companionPlugin(): BunPlugin {
  const list = rewrites();
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const filter = new RegExp(`(${list.map((r) => escape(r.file)).join("|")})$`);
  return {
    name: "docproc-companion",
    setup(build) {
      build.onLoad({ filter }, (args) => {
        const posix = args.path.replaceAll(path.sep, "/");
        const rule = list.find((r) => posix.endsWith(r.file))!;
        let code = readFileSync(args.path, "utf8");
        for (const [search, replacement] of rule.replace) {
          const hit = typeof search === "string" ? code.includes(search) : search.test(code);
          if (!hit)
            throw new Error(`build: ${rule.file} no longer contains ${String(search)}; update scripts/build.ts`);
          code =
            typeof search === "string"
              ? code.replaceAll(search, replacement)
              : code.replace(new RegExp(search, "g"), replacement);
        }
        const loader = posix.endsWith(".ts") ? "ts" : "js";
        return { contents: (rule.prepend ?? "") + code, loader };
      });
    },
  };
}

/** The checkout's commit, `+changes` when tracked files differ from it; `unknown` outside a git checkout. */
function commitOfCheckout(): string {
  const head = Bun.spawnSync(["git", "rev-parse", "HEAD"], { cwd: ROOT, stdout: "pipe", stderr: "ignore" });
  const sha = head.success ? head.stdout.toString().trim() : "";
  if (!sha) return "unknown";
  const status = Bun.spawnSync(["git", "status", "--porcelain", "--untracked-files=no"], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "ignore",
  });
  return status.stdout.toString().trim() ? `${sha}+changes` : sha;
}

export async function buildBinary(): Promise<{ binary: string; binaryBytes: number; libBytes: number; files: number }> {
  mkdirSync(DIST, { recursive: true });
  const result = await Bun.build({
    entrypoints: [
      path.join(ROOT, "src/cli.ts"),
      ...WORKER_ENTRYPOINTS.map((f) => path.join(ROOT, f)),
      TESSERACT_WORKER_SOURCE,
    ],
    // Flat entry names: `new Worker(new URL("./pdf-worker.ts", import.meta.url))` looks for /$bunfs/root/pdf-worker.
    naming: { entry: "[name].[ext]", chunk: "[name]-[hash].[ext]" },
    compile: { outfile: BINARY, autoloadBunfig: false, autoloadDotenv: false },
    target: "bun",
    format: "esm",
    splitting: true,
    bytecode: true,
    minify: true,
    plugins: [companionPlugin()],
    // `docproc --version` names the commit built (src/cli/version.ts); a binary has no git to ask.
    define: { DOCPROC_BUILD_COMMIT: JSON.stringify(commitOfCheckout()) },
  });
  if (!result.success) throw new Error(`build failed:\n${result.logs.map(String).join("\n")}`);
  copyCompanion();
  await bundleHost();
  checkCompanion();
  const { files, bytes } = companionSize();
  return { binary: BINARY, binaryBytes: statSync(BINARY).size, libBytes: bytes, files };
}

if (import.meta.main) {
  const started = performance.now();
  const r = await buildBinary();
  const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
  process.stdout.write(
    `built ${path.relative(ROOT, r.binary)} (${mb(r.binaryBytes)}) and ${path.relative(ROOT, LIB_DIR)}/ ` +
      `(${r.files} files, ${mb(r.libBytes)}) in ${((performance.now() - started) / 1000).toFixed(1)} s\n`,
  );
}
