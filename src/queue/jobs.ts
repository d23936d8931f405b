/**
 * The durable job table (graphile-worker / liteque style) on the docproc database (SQLite or PostgreSQL).
 *
 * - claim: picks the most urgent ready job (priority DESC, run_at, id) or a running job whose lease expired (its
 *   worker died), and hands it out under a fresh lease token. SQLite: under `BEGIN IMMEDIATE` (one writer decides).
 *   PostgreSQL: one `UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED)`, so claimers never wait for each other
 *   nor take the same job; enqueue NOTIFYs the `jobs` channel so idle workers of every process wake at once.
 * - heartbeat / complete / fail / release: MUST match `id AND lease_token`, so a worker that lost its lease can never
 *   finish a job someone else now holds.
 * - give up: after `max_attempts` attempts that ended in a retryable error the job reported, or after
 *   MAX_LOST_LEASES attempts whose worker died (SIGKILL, OOM, a lost host: a poison job that kills every worker
 *   that takes it ends there). Workers are killed for reasons that are not the job's (deploys, autoscaling), so
 *   that budget is larger than the error budget, as in graphile-worker and Sidekiq (25).
 * Times are epoch milliseconds from the injected clock.
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../storage/clock";
import { isPostgres, json, type Db } from "../storage/db";

/** Attempts whose worker died before a job is given up (see the header). */
export const MAX_LOST_LEASES = 10;

/**
 * Why a job was given up for its dead workers: how many workers were lost (the stored count plus the lease that
 * just ran out), not how many attempts were made: attempts also count the ones that ended in an error the job
 * reported, so "after N attempt(s)" named more deaths than there were.
 */
export function lostWorkersMessage(job: Pick<JobRecord, "attempts" | "lost_leases">): string {
  const lost = job.lost_leases + 1;
  return `worker lost ${lost} time${lost === 1 ? "" : "s"} (lease expired: killed, crashed or stalled); given up after ${job.attempts} attempt(s)`;
}

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

type Row = Omit<JobRecord, "payload"> & { payload: string };
const toJob = (r: Row): JobRecord => ({ ...r, payload: json(r.payload, null) });

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
        const live = db.query<Row, [string]>("SELECT * FROM jobs WHERE job_key = ?").get(job.key);
        if (live) return toJob(live);
      }
      const row = db
        .query<Row, unknown[]>(
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
      // PostgreSQL: delivered at commit to every process LISTENing (storage/pg/signals.ts).
      db.notify?.("jobs", job.kind);
      return toJob(row);
    })
    .immediate();
}

export function getJob(db: Db, id: number): JobRecord | null {
  const row = db.query<Row, [number]>("SELECT * FROM jobs WHERE id = ?").get(id);
  return row ? toJob(row) : null;
}

export function findLiveJob(db: Db, key: string): JobRecord | null {
  const row = db
    .query<Row, [string]>("SELECT * FROM jobs WHERE job_key = ? AND status IN ('queued','running')")
    .get(key);
  return row ? toJob(row) : null;
}

/**
 * Claims one job. `exhausted` lists jobs whose lease expired after their last allowed attempt: they are marked
 * failed here, and the caller runs their kind's failure hook.
 */
export function claim(
  db: Db,
  clock: Clock,
  opts: { workerId: string; leaseMs: number; kinds: string[] },
): { job: JobRecord | null; exhausted: JobRecord[] } {
  if (opts.kinds.length === 0) return { job: null, exhausted: [] };
  if (isPostgres(db)) return claimSkipLocked(db, clock, opts);
  const now = clock.now();
  const kindMarks = opts.kinds.map(() => "?").join(",");
  return db
    .transaction(() => {
      const exhausted = db
        .query<Row, [number, number, ...string[]]>(
          `SELECT * FROM jobs WHERE status = 'running' AND lease_until < ? AND lost_leases + 1 >= ? AND kind IN (${kindMarks})`,
        )
        // stack-safe: the job kinds this worker handles (a handful).
        .all(now, MAX_LOST_LEASES, ...opts.kinds)
        .map(toJob);
      for (const j of exhausted) {
        db.query(
          `UPDATE jobs SET status = 'failed', job_key = NULL, lease_token = NULL, lease_until = NULL, updated_at = ?,
             last_error = ? WHERE id = ?`,
        ).run(now, lostWorkersMessage(j), j.id);
      }
      const row = db
        .query<Row, [number, number, ...string[]]>(
          `SELECT * FROM jobs
           WHERE ((status = 'queued' AND run_at <= ?) OR (status = 'running' AND lease_until < ?)) AND kind IN (${kindMarks})
           ORDER BY priority DESC, run_at, id LIMIT 1`,
        )
        // stack-safe: the job kinds (a handful).
        .get(now, now, ...opts.kinds);
      if (!row) return { job: null, exhausted };
      const token = randomUUID();
      db.query(
        `UPDATE jobs SET lost_leases = lost_leases + CASE WHEN status = 'running' THEN 1 ELSE 0 END, status = 'running',
           attempts = attempts + 1, lease_token = ?, lease_until = ?, locked_by = ?, updated_at = ? WHERE id = ?`,
      ).run(token, now + opts.leaseMs, opts.workerId, now, row.id);
      return { job: getJob(db, row.id)!, exhausted };
    })
    .immediate();
}

/** claim() on PostgreSQL: row locks instead of one writer, so claims of many workers run side by side. */
function claimSkipLocked(
  db: Db,
  clock: Clock,
  opts: { workerId: string; leaseMs: number; kinds: string[] },
): { job: JobRecord | null; exhausted: JobRecord[] } {
  const now = clock.now();
  const kindMarks = opts.kinds.map(() => "?").join(",");
  const exhausted = db
    .query<Row, unknown[]>(
      `UPDATE jobs SET status = 'failed', job_key = NULL, lease_token = NULL, lease_until = NULL, updated_at = ?
       WHERE id IN (SELECT id FROM jobs WHERE status = 'running' AND lease_until < ? AND lost_leases + 1 >= ? AND kind IN (${kindMarks})
                    FOR UPDATE SKIP LOCKED)
       RETURNING *`,
    )
    // stack-safe: the job kinds (a handful).
    .all(now, now, MAX_LOST_LEASES, ...opts.kinds)
    .map(toJob);
  for (const j of exhausted) db.query("UPDATE jobs SET last_error = ? WHERE id = ?").run(lostWorkersMessage(j), j.id);
  const row = db
    .query<Row, unknown[]>(
      `UPDATE jobs SET lost_leases = lost_leases + CASE WHEN status = 'running' THEN 1 ELSE 0 END, status = 'running',
         attempts = attempts + 1, lease_token = ?, lease_until = ?, locked_by = ?, updated_at = ?
       WHERE id = (SELECT id FROM jobs
                   WHERE ((status = 'queued' AND run_at <= ?) OR (status = 'running' AND lease_until < ?)) AND kind IN (${kindMarks})
                   ORDER BY priority DESC, run_at, id LIMIT 1 FOR UPDATE SKIP LOCKED)
       RETURNING *`,
    )
    // stack-safe: the job kinds (a handful).
    .get(randomUUID(), now + opts.leaseMs, opts.workerId, now, now, now, ...opts.kinds);
  return { job: row ? toJob(row) : null, exhausted };
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

/** True when a process with this pid exists on this host. */
export function pidAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM"; // exists, owned by someone else
  }
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
