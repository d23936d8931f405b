/** Temporary directories for tests: made under the OS temp dir, removed by the suite's after hook. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

/** A fresh `docproc-<prefix>-XXXXXX` directory. */
export function makeTempDir(prefix: string): string {
  return mkdtempSync(path.join(tmpdir(), `docproc-${prefix}-`));
}

/** A fresh directory, remembered in `cleanup` for removeAll. */
export function tempDir(prefix: string, cleanup: string[]): string {
  const dir = makeTempDir(prefix);
  cleanup.push(dir);
  return dir;
}

/** Removes (and forgets) every directory in `dirs`. */
export function removeAll(dirs: string[]): void {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
}

/** Runs `body` with TMPDIR pointing to a fresh folder (set only while it runs: test files share a process). */
export async function withOwnTmpdir(prefix: string, body: (tmp: string) => Promise<void>): Promise<void> {
  const saved = process.env.TMPDIR;
  const tmp = makeTempDir(prefix);
  process.env.TMPDIR = tmp;
  try {
    await body(tmp);
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    rmSync(tmp, { recursive: true, force: true });
  }
}
