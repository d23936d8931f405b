/**
 * Stored run state (`SavedRun` of the transaction runner): what a paused transaction resumes from and what a rerun
 * starts from, without converting or OCR-ing again. One JSON file per transaction, `<root>/<transaction_id>.json`
 * (pages with their words are large: they stay out of SQLite, like export files).
 *
 * MUST write atomically (temporary file, then rename): a crash leaves the old state or the new one, never half.
 * The state is written before the status commit that refers to it; a state newer than its status is harmless
 * (a later run overwrites it).
 */
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { SavedRun } from "../core/runner/types";

const fileOf = (root: string, transactionId: string) => path.join(root, `${transactionId}.json`);

export async function saveRunState(root: string, transactionId: string, saved: SavedRun): Promise<void> {
  await mkdir(root, { recursive: true });
  const tmp = `${fileOf(root, transactionId)}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(tmp, JSON.stringify(saved));
  await rename(tmp, fileOf(root, transactionId));
}

/** Null when the transaction has no stored state (it never got past OCR, or was run before state was kept). */
export async function loadRunState(root: string, transactionId: string): Promise<SavedRun | null> {
  try {
    const saved = JSON.parse(await readFile(fileOf(root, transactionId), "utf8")) as SavedRun;
    return saved?.version === 1 ? saved : null;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
}

export async function deleteRunState(root: string, transactionId: string): Promise<void> {
  await rm(fileOf(root, transactionId), { force: true });
}
