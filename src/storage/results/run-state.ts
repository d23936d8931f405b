/**
 * Stored run state (`SavedRun` of the transaction runner): what a paused transaction resumes from and what a rerun
 * starts from, without converting or OCR-ing again. One JSON object per transaction in the blob store,
 * `state/<transaction_id>.json` (pages with their words are large: they stay out of the database, like export
 * files; in the data directory that is `<data>/state/<transaction_id>.json`, as before the store).
 *
 * MUST write atomically (the store's `write`): a crash leaves the old state or the new one, never half.
 * The state is written before the status commit that refers to it; a state newer than its status is harmless
 * (a later run overwrites it).
 */
import type { SavedRun } from "../../core/runner/types";
import type { BlobStore } from "../files/blobs";

const keyOf = (transactionId: string) => `state/${transactionId}.json`;

export async function saveRunState(store: BlobStore, transactionId: string, saved: SavedRun): Promise<void> {
  await saveRunStateText(store, transactionId, JSON.stringify(saved));
}

/** `saveRunState` with the state already JSON text (storage/results/run-json.ts `savedRunText`). */
export async function saveRunStateText(
  store: BlobStore,
  transactionId: string,
  text: string | Uint8Array,
): Promise<void> {
  await store.write(keyOf(transactionId), text);
}

/** Null when the transaction has no stored state (it never got past OCR, or was run before state was kept). */
export async function loadRunState(store: BlobStore, transactionId: string): Promise<SavedRun | null> {
  const data = await store.read(keyOf(transactionId));
  if (!data) return null;
  const saved = JSON.parse(new TextDecoder().decode(data)) as SavedRun;
  return saved?.version === 1 ? saved : null;
}
