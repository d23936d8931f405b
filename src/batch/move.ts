/**
 * Moving an original out of the hot folder once its outcome is recorded in the ledger.
 *
 * MUST never overwrite: a name already taken in the destination gets " (2)", " (3)" … before the extension;
 * MUST work across filesystems (rename, then copy + remove on EXDEV); a failed file gets `<name>.error.txt` beside it.
 */
import { copyFile, mkdir, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

async function exists(p: string): Promise<boolean> {
  return (await stat(p).catch(() => null)) !== null;
}

async function freeName(target: string): Promise<string> {
  if (!(await exists(target))) return target;
  const ext = path.extname(target);
  const stem = target.slice(0, target.length - ext.length);
  for (let i = 2; ; i++) {
    const candidate = `${stem} (${i})${ext}`;
    if (!(await exists(candidate))) return candidate;
  }
}

/** Moves `file` to `destDir/relPath` (free name chosen); returns where it went. */
export async function moveInto(file: string, destDir: string, relPath: string): Promise<string> {
  const target = await freeName(path.join(destDir, relPath));
  await mkdir(path.dirname(target), { recursive: true });
  try {
    await rename(file, target);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EXDEV") throw err;
    await copyFile(file, target);
    await unlink(file);
  }
  return target;
}

export async function writeErrorNote(movedTo: string, reason: string): Promise<string> {
  const note = `${movedTo}.error.txt`;
  await writeFile(note, reason.endsWith("\n") ? reason : reason + "\n");
  return note;
}
