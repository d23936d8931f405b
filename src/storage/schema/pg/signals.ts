/**
 * Cross-process wake-ups on PostgreSQL (LISTEN/NOTIFY): a new job wakes idle workers in every process at once, and
 * a transaction's status change wakes long polls on every server, instead of each waiting for its next poll.
 * NOTIFY is sent inside the writing transaction (delivered at commit) by `PgDb.notify`; this module (`PgDb.listen`)
 * listens on a dedicated Bun.SQL connection of the main thread. Polling stays as the safety net if the listener drops.
 */
import { SQL } from "bun";
import type { SignalHandlers } from "../db";

/** What the listener needs of the database (PgDb has it): its connection target and its channel names. */
export interface SignalSource {
  location: { url: string; schema?: string | null };
  channel(name: "jobs" | "status"): string;
}

export async function listenSignals(db: SignalSource, handlers: SignalHandlers): Promise<{ close(): Promise<void> }> {
  const sql = new SQL(db.location.url, { max: 1, idleTimeout: 0 });
  if (db.location.schema) await sql.unsafe(`SET search_path TO "${db.location.schema}"`);
  const listen = (
    sql as unknown as { listen(channel: string, fn: (payload: string) => void): Promise<unknown> }
  ).listen.bind(sql);
  await listen(db.channel("jobs"), (payload) => handlers.jobs(payload));
  await listen(db.channel("status"), (payload) => handlers.status(payload));
  return {
    async close() {
      await sql.close({ timeout: 1 }).catch(() => {});
    },
  };
}
