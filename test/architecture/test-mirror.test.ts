/**
 * test/ mirrors src/ (issue 36): a test sits in the folder that mirrors the src/ folder it tests (`test/core/split/`
 * for `src/core/split/`, `test/storage/schema/` for `src/storage/schema/`), so a newcomer finds a module's tests by
 * its path. The only other homes are the cross-cutting suites at the top of test/, listed here with what they cover:
 * they exercise the product across folders (through the CLI, the HTTP API, a browser or the whole pipeline).
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const ROOT = path.resolve(import.meta.dir, "../..");

/** Top-level test/ folders that mirror no src/ folder on purpose, and why. */
export const CROSS_CUTTING: Record<string, string> = {
  accuracy: "golden results and accuracy floors over the corpora, the whole pipeline",
  architecture: "rules about the tree itself: imports, sizes, names, SQL home, this mirror",
  binary: "the compiled single-file binary and its entry points",
  docs: "docs/ and README: links resolve, examples run",
  einvoice: "e-invoices end to end: pipeline, exports, API, CLI and review page (units in test/core/einvoice/)",
  fuzz: "random and hostile inputs through the pipeline",
  ops: "operating docproc: deployment, logs, metrics, jobs, shutdown, proxies, the quickstart",
  review: "review end to end: API, CLI and browser (the corrections themselves in test/core/stages/review/)",
  scale: "PostgreSQL scale-out: several servers and workers, signals, migration",
  stack: "large inputs through the whole stack",
  support: "helpers shared by the suites (servers, processes, temp dirs, S3 and PostgreSQL stand-ins)",
  upgrade: "data directories of older releases opened by this one",
  webhooks: "webhooks end to end: notification stage, delivery jobs, serve and CLI",
};

/** Every file under `dir`, relative to it ('/'-separated), hidden entries left out. */
function filesUnder(dir: string, rel = ""): string[] {
  return readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith(".")) return [];
    const child = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? filesUnder(dir, child) : [child];
  });
}

/**
 * Test files (paths under test/) whose folder mirrors no src/ folder and is no cross-cutting suite, and files named
 * after a sub-folder of the src/ folder their own folder mirrors (`core/split-modes.test.ts` belongs in `core/split/`)
 * unless that folder has a source file of the test's own name.
 */
export function misplaced(
  testFiles: string[],
  isSrcDir: (rel: string) => boolean,
  isSrcFile: (rel: string) => boolean = () => false,
): string[] {
  return testFiles.filter((file) => {
    const folder = path.posix.dirname(file);
    if (folder === ".") return true; // nothing sits loose at the top of test/
    if (folder.split("/")[0]! in CROSS_CUTTING) return false;
    if (!isSrcDir(folder)) return true;
    // stages/ocr-specks.test.ts beside src/core/stages/ocr-specks.ts is home, even with a stages/ocr/ folder there.
    const name = path.posix.basename(file).replace(/(\.test)?\.tsx?$/, "");
    if (isSrcFile(`${folder}/${name}.ts`)) return false;
    return isSrcDir(`${folder}/${name.split(/[-.]/)[0]!}`);
  });
}

const isSrcDir = (rel: string) => {
  const dir = path.join(ROOT, "src", rel);
  return existsSync(dir) && statSync(dir).isDirectory();
};
const isSrcFile = (rel: string) => {
  const file = path.join(ROOT, "src", rel);
  return existsSync(file) && statSync(file).isFile();
};

describe("test/ mirrors src/", () => {
  test("the check finds a planted misplaced file and passes mirrored and cross-cutting ones", () => {
    const srcDirs = new Set(["core", "core/split", "storage"]);
    const has = (rel: string) => srcDirs.has(rel);
    expect(misplaced(["core/split/a.test.ts", "storage/b.test.ts", "accuracy/deep/c.test.ts"], has)).toEqual([]);
    expect(
      misplaced(["core/splitting/a.test.ts", "loose.test.ts", "queue/x.ts", "core/split-modes.test.ts"], has),
    ).toEqual(["core/splitting/a.test.ts", "loose.test.ts", "queue/x.ts", "core/split-modes.test.ts"]);
    expect(misplaced(["core/splitter.test.ts", "core/split/split.test.ts"], has)).toEqual([]);
    // A file of the folder itself named like a sub-folder (core/split-signals.ts beside core/split/) is tested here.
    const file = (rel: string) => rel === "core/split-signals.ts";
    expect(misplaced(["core/split-signals.test.ts", "core/split-modes.test.ts"], has, file)).toEqual([
      "core/split-modes.test.ts",
    ]);
  });

  test("every file under test/ sits in a folder that mirrors src/ or in a stated cross-cutting suite", () => {
    const files = filesUnder(path.join(ROOT, "test"));
    expect(files.length).toBeGreaterThan(200); // the walk really reads test/
    expect(files).toContain("core/split/modes.test.ts");
    expect(misplaced(files, isSrcDir, isSrcFile)).toEqual([]);
  });

  test("each cross-cutting suite exists and shadows no src/ folder (that one would be a mirror)", () => {
    for (const name of Object.keys(CROSS_CUTTING)) {
      expect(existsSync(path.join(ROOT, "test", name)), name).toBe(true);
      expect(isSrcDir(name), name).toBe(false);
    }
  });
});
