/**
 * The patched pdf.js worker code and the display layer are loaded from JavaScriptCore bytecode
 * (src/core/engines/pdf/pdfjs-bytecode.ts): built once in the private dir, loaded by later starts (the worker code without
 * reading the patched file), and only while the code is exactly what was built; otherwise it is built again.
 * Runs in its own temp dir (TMPDIR), away from the private dir other docproc processes use.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { withOwnTmpdir } from "../../../support/temp";
import { createHash } from "node:crypto";
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";

// Each test patches pdf.js and builds its bytecode several times (~2 s idle): 5 s ran out at load 20.
setDefaultTimeout(60_000);

const { loadPdfjsDisplayModule, loadPdfjsWorkerModule, privateDir } = await import(
  "../../../../src/core/engines/pdf/pdfjs-patched-worker.ts"
);
const { bytecodeName, loadSourceBytecode } = await import("../../../../src/core/engines/pdf/pdfjs-bytecode.ts");

const inOwnTmp = (body: (tmp: string) => Promise<void>) => withOwnTmpdir("bytecode", body);

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");
/** What names the copy of a source that may sit anywhere: its content and its path. */
const located = (file: string) =>
  createHash("sha256")
    .update(`${sha(file)}\0${file}`)
    .digest("hex");

function built() {
  const dir = privateDir();
  const digest = readFileSync(path.join(dir, readdirSync(dir).find((n) => n.startsWith("recipe."))!), "utf8");
  const file = path.join(dir, bytecodeName("pdf.worker", digest));
  return { dir, digest, file, mjs: path.join(dir, `pdf.worker.${digest.slice(0, 16)}.mjs`) };
}

test("the worker code is built to bytecode once, then loaded from it while it is exactly what was built", () =>
  inOwnTmp(async () => {
    const first = await loadPdfjsWorkerModule();
    expect(first.glyphOffsets).toBe(true);
    expect(typeof first.WorkerMessageHandler).toBe("function");
    const { dir, file, mjs } = built();
    expect(readFileSync(file, "utf8").startsWith("// @bun @bytecode @bun-cjs")).toBe(true);
    expect(readFileSync(`${file}.jsc`).length).toBeGreaterThan(1_000_000);
    expect(readFileSync(`${file}.sha256`, "utf8")).toBe(sha(file));
    expect(readdirSync(dir).filter((n) => n.startsWith("build-"))).toEqual([]);

    // A later start loads the bytecode module without the patched file (a stand-in with its digest recorded shows it).
    const code = readFileSync(file);
    const standIn =
      "// @bun @bytecode @bun-cjs\n(function(exports, require, module, __filename, __dirname) {exports.WorkerMessageHandler = 'stand-in';})\n";
    writeFileSync(file, standIn);
    writeFileSync(`${file}.sha256`, createHash("sha256").update(standIn).digest("hex"));
    unlinkSync(mjs);
    delete require.cache[file]; // a worker thread loads it once; this test loads it again in the same thread
    expect((await loadPdfjsWorkerModule()).WorkerMessageHandler).toBe("stand-in");
    delete require.cache[file];

    // A changed .cjs is not run: it is built again from the patched code, which is written again first.
    appendFileSync(file, "\n// planted\n");
    await loadPdfjsWorkerModule();
    expect(existsSync(mjs)).toBe(true);
    expect(readFileSync(file)).toEqual(code);
    expect(readFileSync(`${file}.sha256`, "utf8")).toBe(sha(file));

    // A missing bytecode file is built again too.
    unlinkSync(`${file}.jsc`);
    await loadPdfjsWorkerModule();
    expect(existsSync(`${file}.jsc`)).toBe(true);
  }));

test("the display layer comes from a bytecode copy of pdf.mjs that still finds the canvas addon next to pdf.js", () =>
  inOwnTmp(async () => {
    const display = (await loadPdfjsDisplayModule()) as { getDocument?: unknown; version?: string };
    expect(typeof display.getDocument).toBe("function");
    const source = Bun.resolveSync("pdfjs-dist/legacy/build/pdf.mjs", import.meta.dir);
    const file = path.join(privateDir(), bytecodeName("pdf", located(source)));
    expect(existsSync(`${file}.jsc`)).toBe(true);
    expect(readFileSync(`${file}.sha256`, "utf8")).toBe(sha(file));
    // import.meta.url is pdf.mjs's own: the addon is required from node_modules, not from the private dir.
    expect(readFileSync(file, "utf8")).toContain(`createRequire(${JSON.stringify(Bun.pathToFileURL(source).href)})`);
    const { version } = (await import("pdfjs-dist/legacy/build/pdf.mjs")) as { version: string };
    expect(display.version).toBe(version);
  }));

test("bytecode of another pdf.js or Bun goes when a new one is built, unless it was built within the last day", () =>
  inOwnTmp(async () => {
    await loadPdfjsWorkerModule();
    const { dir, file } = built();
    const old = path.join(dir, `pdf.worker.${"0".repeat(16)}.${"1".repeat(12)}.cjs`);
    const recent = path.join(dir, `pdf.worker.${"2".repeat(16)}.${"3".repeat(12)}.cjs`);
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    for (const suffix of ["", ".jsc", ".sha256"]) {
      writeFileSync(old + suffix, "old");
      utimesSync(old + suffix, twoDaysAgo, twoDaysAgo);
      writeFileSync(recent + suffix, "in use by another install");
    }
    unlinkSync(`${file}.jsc`);
    await loadPdfjsWorkerModule();
    expect(
      readdirSync(dir)
        .filter((n) => n.endsWith(".cjs"))
        .sort(),
    ).toEqual([path.basename(recent), path.basename(file)].sort());
    expect(existsSync(`${old}.jsc`)).toBe(false);
    expect(existsSync(`${recent}.jsc`)).toBe(true);
  }));

test("the same module in two places (two installs) gets a copy each, and each copy resolves from its own place", () =>
  inOwnTmp(async (tmp) => {
    // As pdf.mjs finds the canvas addon: a require made from import.meta.url when the module runs, not bundled.
    const code = `import { createRequire } from "node:module";\nexport const here = import.meta.url;\nexport const helper = createRequire(import.meta.url)("./" + "helper.cjs").name;\n`;
    const places = ["install-a", "install-b"].map((name) => {
      const dir = path.join(tmp, name);
      mkdirSync(dir);
      writeFileSync(path.join(dir, "mod.mjs"), code);
      writeFileSync(path.join(dir, "helper.cjs"), `module.exports = { name: ${JSON.stringify(name)} };`);
      return path.join(dir, "mod.mjs");
    });
    const out = path.join(tmp, "private");
    mkdirSync(out, { mode: 0o700 });
    const loaded = [];
    for (const source of places)
      loaded.push((await loadSourceBytecode(source, "mod", out)) as { here: string; helper: string });
    expect(loaded.map((m) => m.helper)).toEqual(["install-a", "install-b"]);
    expect(loaded.map((m) => m.here)).toEqual(places.map((p) => Bun.pathToFileURL(p).href));
    expect(readdirSync(out).filter((n) => n.endsWith(".cjs.jsc"))).toHaveLength(2);
    // The first install was removed: the second one still loads its own copy.
    rmSync(path.dirname(places[0]!), { recursive: true });
    const again = (await loadSourceBytecode(places[1]!, "mod", out)) as { helper: string };
    expect(again.helper).toBe("install-b");
  }));
