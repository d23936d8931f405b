/**
 * The durable job table (graphile-worker / liteque style) on the docproc database (SQLite or PostgreSQL): every
 * statement the queue runs on `jobs`. The claim, the one statement that differs by dialect, is in job-claim.ts.
 *
 * - heartbeat / complete / fail / release: MUST match `id AND lease_token`, so a worker that lost its lease can never
 *   finish a job someone else now holds.
 * - enqueue NOTIFYs the `jobs` channel on PostgreSQL so idle workers of every process wake at once.
 * Times are epoch milliseconds from the injected clock.
 */
import type { Clock } from "../../core/clock";
import { json, type Db } from "../schema/db";

export type JobStatus = "queued" | "running" | "done" | "failed";

export interface JobRecord {
  id: number;
  kind: string;
  payload: unknown;
  job_key: string | null;
  priority: number;
  run_at: number;
  status: JobStatus;
  attempts: number;
  max_attempts: number;
  /** Attempts that ended because the worker died (its lease ran out), counted apart from reported errors. */
  lost_leases: number;
  last_error: string | null;
  lease_token: string | null;
  lease_until: number | null;
  locked_by: string | null;
  created_at: number;
  updated_at: number;
}

export type JobRow = Omit<JobRecord, "payload"> & { payload: string };
export const toJob = (r: JobRow): JobRecord => ({ ...r, payload: json(r.payload, null) });

export interface NewJob {
  kind: string;
  payload: unknown;
  priority?: number;
  /** Delay before the job may run. */
  runAt?: number;
  maxAttempts?: number;
  /** At most one live (queued or running) job per key; enqueueing a live key returns the existing job. */
  key?: string;
}

export function enqueue(db: Db, clock: Clock, job: NewJob): JobRecord {
  const now = clock.now();
  return db
    .transaction(() => {
      if (job.key) {
        const live = db.query<JobRow, [string]>("SELECT * FROM jobs WHERE job_key = ?").get(job.key);
        if (live) return toJob(live);
      }
      const row = db
        .query<JobRow, unknown[]>(
          `INSERT INTO jobs (kind, payload, job_key, priority, run_at, max_attempts, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING *`,
        )
        .get(
          job.kind,
          JSON.stringify(job.payload ?? {}),
          job.key ?? null,
          job.priority ?? 0,
          job.runAt ?? now,
          job.maxAttempts ?? 3,
          now,
          now,
        )!;
      // PostgreSQL: delivered at commit to every process LISTENing (storage/schema/pg/signals.ts).
      db.notify?.("jobs", job.kind);
      return toJob(row);
    })
    .immediate();
}

export function getJob(db: Db, id: number): JobRecord | null {
  const row = db.query<JobRow, [number]>("SELECT * FROM jobs WHERE id = ?").get(id);
  return row ? toJob(row) : null;
}

export function findLiveJob(db: Db, key: string): JobRecord | null {
  const row = db
    .query<JobRow, [string]>("SELECT * FROM jobs WHERE job_key = ? AND status IN ('queued','running')")
    .get(key);
  return row ? toJob(row) : null;
}

/** Extends the lease; false when the lease is no longer ours (the caller MUST stop working on the job). */
export function heartbeat(db: Db, clock: Clock, id: number, token: string, leaseMs: number): boolean {
  const now = clock.now();
  return (
    db
      .query("UPDATE jobs SET lease_until = ?, updated_at = ? WHERE id = ? AND lease_token = ? AND status = 'running'")
      .run(now + leaseMs, now, id, token).changes === 1
  );
}

export function leaseHeld(db: Db, id: number, token: string): boolean {
  return !!db.query("SELECT 1 FROM jobs WHERE id = ? AND lease_token = ? AND status = 'running'").get(id, token);
}

export function complete(db: Db, clock: Clock, id: number, token: string): boolean {
  return (
    db
      .query(
        "UPDATE jobs SET status = 'done', job_key = NULL, lease_token = NULL, lease_until = NULL, updated_at = ? WHERE id = ? AND lease_token = ?",
      )
      .run(clock.now(), id, token).changes === 1
  );
}

/** Exponential backoff: 1 s, 2 s, 4 s... capped at 5 minutes. */
export function backoffMs(attempts: number, baseMs = 1000, capMs = 300_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, attempts - 1));
}

/**
 * Records a failed attempt. A retryable error with attempts left goes back to `queued` after a backoff; anything
 * else ends `failed`. Returns what happened, or null when the lease was no longer ours.
 */
export function fail(
  db: Db,
  clock: Clock,
  job: Pick<JobRecord, "id" | "attempts" | "max_attempts"> & Partial<Pick<JobRecord, "lost_leases">>,
  token: string,
  message: string,
  retryable: boolean,
  baseBackoffMs = 1000,
): "retry" | "failed" | null {
  const now = clock.now();
  const retry = retryable && job.attempts - (job.lost_leases ?? 0) < job.max_attempts;
  const res = retry
    ? db
        .query(
          `UPDATE jobs SET status = 'queued', run_at = ?, last_error = ?, lease_token = NULL, lease_until = NULL, updated_at = ?
           WHERE id = ? AND lease_token = ?`,
        )
        .run(now + backoffMs(job.attempts, baseBackoffMs), message, now, job.id, token)
    : db
        .query(
          `UPDATE jobs SET status = 'failed', job_key = NULL, last_error = ?, lease_token = NULL, lease_until = NULL, updated_at = ?
           WHERE id = ? AND lease_token = ?`,
        )
        .run(message, now, job.id, token);
  if (res.changes !== 1) return null;
  return retry ? "retry" : "failed";
}

/** Gives a job back without counting the attempt (graceful shutdown). */
export function release(db: Db, clock: Clock, id: number, token: string): boolean {
  return (
    db
      .query(
        `UPDATE jobs SET status = 'queued', attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END, lease_token = NULL, lease_until = NULL,
           locked_by = NULL, updated_at = ? WHERE id = ? AND lease_token = ?`,
      )
      .run(clock.now(), id, token).changes === 1
  );
}

/** Jobs waiting or running, optionally of one kind: the queue depth limit counts these. */
export function queueDepth(db: Db, kind?: string): number {
  const sql = `SELECT COUNT(*) AS n FROM jobs WHERE status IN ('queued','running')${kind ? " AND kind = ?" : ""}`;
  const q = db.query<{ n: number }, string[]>(sql);
  return (kind ? q.get(kind) : q.get())!.n;
}

/** Ready jobs ahead of a given priority (for completion estimates). */
export function jobsAhead(db: Db, kind: string, priority: number): number {
  return db
    .query<{ n: number }, [string, number]>(
      "SELECT COUNT(*) AS n FROM jobs WHERE kind = ? AND status IN ('queued','running') AND priority >= ?",
    )
    .get(kind, priority)!.n;
}

/**
 * Expires at once the leases of workers on this host whose process is gone (a crash or SIGKILL), so a restarted
 * server does not wait out their leases. `locked_by` is `<host>:<pid>:<suffix>`; a worker id of another host, or of
 * a pid that is alive (or reused), is left to its lease. Returns how many jobs were freed.
 */
export function expireDeadLocalLeases(db: Db, clock: Clock, host: string, isAlive: (pid: number) => boolean): number {
  const holders = db
    .query<{ locked_by: string }, []>(
      "SELECT DISTINCT locked_by FROM jobs WHERE status = 'running' AND locked_by IS NOT NULL",
    )
    .all();
  let freed = 0;
  for (const { locked_by } of holders) {
    const [h, pid] = locked_by.split(":");
    if (h !== host || !/^\d+$/.test(pid ?? "") || isAlive(Number(pid))) continue;
    freed += db
      .query("UPDATE jobs SET lease_until = ? WHERE status = 'running' AND locked_by = ?")
      .run(clock.now() - 1, locked_by).changes;
  }
  return freed;
}

/** Deletes finished jobs (done or failed) last touched before `before` (epoch ms). Returns how many. */
export function pruneFinishedJobs(db: Db, before: number): number {
  return db.query("DELETE FROM jobs WHERE status IN ('done', 'failed') AND updated_at < ?").run(before).changes;
}

/** Live jobs by kind and status (queued, running), for the queue-depth metric. */
export function queueCounts(db: Db): Array<{ kind: string; status: string; n: number }> {
  return db
    .query<{ kind: string; status: string; n: number }, []>(
      "SELECT kind, status, COUNT(*) AS n FROM jobs WHERE status IN ('queued','running') GROUP BY kind, status",
    )
    .all();
}
