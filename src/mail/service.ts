/**
 * The mail connectors inside a long-running process (`docproc serve`): started when DOCPROC_SECRET_KEY is set,
 * stopped with the server. Several processes on one data directory may all run it: the import ledger keeps every
 * message imported once (importer.ts).
 */
import type { BlobStore } from "../storage/files/blobs";
import type { Clock } from "../core/clock";
import type { Db } from "../storage/schema/db";
import type { MailEnv } from "./env";
import { runContinuously } from "./runner";

export interface MailServiceOptions {
  db: Db;
  clock: Clock;
  blobs: BlobStore;
  env: MailEnv;
  limits: { maxQueueDepth: number; maxFileBytes: number; maxFiles: number };
  wake(): void;
  log(msg: string): void;
}

export function startMailService(o: MailServiceOptions): { stop(): Promise<void> } | null {
  if (!o.env.secretKey) return null;
  const stop = new AbortController();
  const ctx = {
    db: o.db,
    clock: o.clock,
    blobs: o.blobs,
    ...o.limits,
    leaseMs: o.env.leaseMs,
    maxAttempts: o.env.maxAttempts,
    wake: o.wake,
    log: o.log,
  };
  const done = runContinuously(ctx, { secretKey: o.env.secretKey, signal: stop.signal }).catch((err) =>
    o.log(`mail connectors stopped: ${(err as Error).message}`),
  );
  return {
    async stop() {
      stop.abort();
      await done;
    },
  };
}
