import { afterEach, describe, expect, test } from "bun:test";
import path from "node:path";
import { acquireDataDirLock } from "../../src/storage/watch/data-dir-lock";
import { DocprocError, exitCodeOf } from "../../src/core/errors";
import { removeAll, tempDir } from "../support/temp";

const dirs: string[] = [];
const dataDir = () => tempDir("lock", dirs);
afterEach(() => removeAll(dirs));

const LOCK_MODULE = path.resolve(import.meta.dir, "../../src/storage/watch/data-dir-lock.ts");

/** A child process that takes the lock, reports, then waits to be killed. */
function holder(dir: string) {
  const script = `const { acquireDataDirLock } = await import(${JSON.stringify(LOCK_MODULE)});
acquireDataDirLock(${JSON.stringify(dir)}, "test-holder"); console.log("held"); setInterval(() => {}, 1000);`;
  return Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit" });
}

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  return new TextDecoder().decode(value).trim();
}

describe("data directory lock", () => {
  test("a second holder in another process is refused with code locked (exit 3) naming the owner", async () => {
    const dir = dataDir();
    const child = holder(dir);
    expect(await firstLine(child.stdout)).toBe("held");
    let err: unknown;
    try {
      acquireDataDirLock(dir, "process");
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(DocprocError);
    expect((err as DocprocError).code).toBe("locked");
    expect(exitCodeOf(err)).toBe(3);
    expect((err as DocprocError).message).toContain(`pid ${child.pid}`);
    child.kill(9);
    await child.exited;
  });

  test("a holder killed with SIGKILL leaves no stale lock", async () => {
    const dir = dataDir();
    const child = holder(dir);
    expect(await firstLine(child.stdout)).toBe("held");
    child.kill(9);
    await child.exited;
    const lock = acquireDataDirLock(dir, "process");
    lock.release();
  });

  test("release lets the next run in", () => {
    const dir = dataDir();
    acquireDataDirLock(dir, "a").release();
    acquireDataDirLock(dir, "b").release();
  });
});
