/**
 * Every worker thread docproc starts is an entrypoint of the binary's build (scripts/build.ts): Bun embeds a worker
 * only then, and a missing one fails only when it is started (the PostgreSQL connection thread, the pipeline thread
 * of serve/worker), which the binary tests reach only for the workers they happen to exercise. This reads the
 * sources, so it also catches a worker added later.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { WORKER_ENTRYPOINTS } from "../../scripts/build";

const ROOT = path.resolve(import.meta.dir, "../..");

test("every `new Worker` script under src/ is an entrypoint of the binary, and their file names are unique", () => {
  const started: string[] = [];
  for (const file of new Bun.Glob("src/**/*.ts").scanSync({ cwd: ROOT })) {
    const text = readFileSync(path.join(ROOT, file), "utf8");
    if (!/new Worker\(/.test(text)) continue;
    for (const m of text.matchAll(/new URL\("\.\/([^"]+\.ts)", import\.meta\.url\)/g))
      started.push(path.posix.join(path.posix.dirname(file), m[1]!));
  }
  expect(started.length).toBeGreaterThan(0);
  expect(started.filter((f) => !WORKER_ENTRYPOINTS.includes(f))).toEqual([]);
  // The binary names entries by file name alone (/$bunfs/root/<name>.js).
  const names = WORKER_ENTRYPOINTS.map((f) => path.basename(f));
  expect(new Set(names).size).toBe(names.length);
});
