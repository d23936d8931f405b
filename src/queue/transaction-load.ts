/**
 * Load, the first third of the `process_transaction` job (process-transaction.ts): a queued transaction's inputs
 * as the pipeline takes them (sources from the blob store, the stored run state to continue from) and the export
 * folder made ready for the run. Reads only, but for clearing the exports of a run that starts clean.
 */
import { rm } from "node:fs/promises";
import path from "node:path";
import { isoAt, type Clock } from "../core/clock";
import { DocprocError } from "../core/errors";
import type { SourceInput } from "../core/model";
import type { SavedRun } from "../core/runner/types";
import { readSourceFile } from "../core/engines/pdf/pdf-bytes";
import type { StageName } from "../core/stages/types";
import type { BlobStore } from "../storage/files/blobs";
import type { Db } from "../storage/schema/db";
import { getProjectById, type ProjectRecord } from "../storage/projects/projects";
import { loadRunState } from "../storage/results/run-state";
import { passwordsOf } from "../storage/files/source-file-passwords";
import { listSourceFiles } from "../storage/files/source-files";
import { exportsKeyOf } from "../storage/files/store-sink";
import * as tx from "../storage/transactions/transactions";
import { wholeBytes } from "../core/source-data";

/** Where a `process_transaction` job starts (see process-transaction.ts). */
export interface ProcessPayload {
  transaction_id: string;
  resume?: boolean;
  from_step?: StageName;
  /** Rerun number (delivery ids stay unique per run); 0 or absent for the first run. */
  run?: number;
}

/**
 * A source file's bytes as the pipeline takes them. From the data directory a PDF of 1 MB or more is read as
 * `docproc process` reads a file (readSourceFile): straight into shared memory, so it crosses to the pipeline thread
 * and its pdf.js workers without a copy (read into a buffer it was copied three more times: out of the read buffer,
 * by postMessage, and into shared memory for the workers: 26 MB each for the 500-page pdfunite file).
 */
export async function storedSourceBytes(blobs: BlobStore, hash: string): Promise<Uint8Array> {
  const file = blobs.pathOf?.(hash);
  if (!file) return blobs.get(hash);
  // Never left in its file (fileBackedMin): the pipeline thread is handed bytes; wholeBytes only narrows the type.
  const data = await readSourceFile(file, { fileBackedMin: Number.POSITIVE_INFINITY }).catch(() => blobs.get(hash));
  return wholeBytes(data);
}

/** A transaction's source files as the pipeline takes them: bytes from the blob store, passwords while kept. */
export async function readStoredSources(db: Db, blobs: BlobStore, transactionId: string): Promise<SourceInput[]> {
  const passwords = passwordsOf(db, transactionId);
  return Promise.all(
    listSourceFiles(db, transactionId).map(async (f) => ({
      index: f.file_index,
      filename: f.filename,
      content_type: f.content_type,
      data: await storedSourceBytes(blobs, f.blob_hash),
      split_policy: f.split_policy,
      ...(passwords.has(f.file_index) ? { password: passwords.get(f.file_index) } : {}),
    })),
  );
}

export function exportDirOf(exportsRoot: string, transactionId: string): string {
  return path.join(exportsRoot, transactionId);
}

/** Deletes a transaction's export files (before a run that starts clean, or a re-export). */
export async function clearExports(blobs: BlobStore, exportsRoot: string, transactionId: string): Promise<void> {
  if (blobs.config.kind === "fs") await rm(exportDirOf(exportsRoot, transactionId), { recursive: true, force: true });
  else await blobs.removeAll(exportsKeyOf(transactionId));
}

/** The client's own metadata, without the keys the service adds. */
export function clientMetadata(m: Record<string, unknown>): Record<string, unknown> {
  const { progress: _p, step_progress: _s, ...rest } = m;
  return rest;
}

/** What one attempt runs on. */
export interface LoadedRun {
  transaction: tx.TransactionRecord;
  project: ProjectRecord;
  sources: SourceInput[];
  /** The stored state to continue (a pause, a checkpoint, a rerun's pages), or null to start from the beginning. */
  saved: SavedRun | null;
  /** A rerun from this workflow step (never set when continuing a checkpoint). */
  fromStep: StageName | undefined;
  exportDir: string;
  /** Seconds processed before this attempt when the stored state counted them, else null (see `secondsOf`). */
  before: number | null;
  /** Epoch ms: when this attempt started, and when the transaction first started processing. */
  attemptStart: number;
  startedAt: number;
}

/**
 * Marks the transaction processing and loads what the run needs; null when it is already finished (a duplicate
 * job, or a crash after the commit): nothing to do.
 */
export async function loadRun(
  deps: { db: Db; clock: Clock; blobs: BlobStore; exportsRoot: string },
  payload: ProcessPayload,
  onProcessing: () => void,
): Promise<LoadedRun | null> {
  const { db, clock } = deps;
  const id = payload.transaction_id;
  const t = tx.getTransaction(db, id);
  if (!t || (t.status !== "queued" && t.status !== "processing")) return null;
  const project = getProjectById(db, t.project_id);
  if (!project) throw new DocprocError("not_found", `project ${t.project_id} no longer exists`);
  tx.markProcessing(db, id, isoAt(clock), project.project_version);
  onProcessing();

  const attemptStart = clock.now();
  const sources = await readStoredSources(db, deps.blobs, id);
  const continuing = payload.resume || payload.from_step !== undefined;
  const stored = await loadRunState(deps.blobs, id);
  // An attempt stopped at a checkpoint (graceful shutdown) is continued whatever the payload says: its state is
  // newer than the one the payload meant (a rerun's checkpoint already holds the rerun's progress).
  const checkpoint = stored?.checkpoint ? stored : null;
  const saved = checkpoint ?? (continuing ? stored : null);
  const fromStep = checkpoint ? undefined : payload.from_step;
  // A rerun needs stored pages; a resume without stored state (a run by an injected test runner) starts over.
  if (payload.from_step !== undefined && !saved)
    throw new DocprocError("conflict", `transaction ${id} has no stored run state to re-run from`);
  // A resumed run keeps what earlier steps exported (the manifest refers to it); any other run starts clean.
  if (!((payload.resume || checkpoint) && saved)) await clearExports(deps.blobs, deps.exportsRoot, id);
  // Time processed before this attempt, when it continues a stored state that counted it (a checkpoint, a review
  // pause): processing_time_seconds then adds this attempt only, never the time the transaction stood still.
  const before = fromStep === undefined ? (saved?.processing_seconds ?? null) : null;
  const startedAt = Date.parse(tx.getTransaction(db, id)!.started_at ?? isoAt(clock));
  const exportDir = exportDirOf(deps.exportsRoot, id);
  return { transaction: t, project, sources, saved, fromStep, exportDir, before, attemptStart, startedAt };
}

/** processing_time_seconds at the end of this attempt. */
export function secondsOf(loaded: LoadedRun, now: number): number {
  return loaded.before !== null
    ? loaded.before + Math.max(0, (now - loaded.attemptStart) / 1000)
    : Math.max(0, (now - loaded.startedAt) / 1000);
}
