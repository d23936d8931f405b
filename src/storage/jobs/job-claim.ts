/**
 * Claiming a job from the durable job table (jobs.ts):
 *
 * - claim: picks the most urgent ready job (priority DESC, run_at, id) or a running job whose lease expired (its
 *   worker died), and hands it out under a fresh lease token. SQLite: under `BEGIN IMMEDIATE` (one writer decides).
 *   PostgreSQL: one `UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED)`, so claimers never wait for each other
 *   nor take the same job.
 * - give up: after `max_attempts` attempts that ended in a retryable error the job reported (jobs.ts `fail`), or
 *   after MAX_LOST_LEASES attempts whose worker died (SIGKILL, OOM, a lost host: a poison job that kills every
 *   worker that takes it ends there). Workers are killed for reasons that are not the job's (deploys, autoscaling),
 *   so that budget is larger than the error budget, as in graphile-worker and Sidekiq (25).
 */
import { randomUUID } from "node:crypto";
import type { Clock } from "../../core/clock";
import { isPostgres, type Db } from "../schema/db";
import { getJob, toJob, type JobRecord, type JobRow } from "./jobs";

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
        .query<JobRow, [number, number, ...string[]]>(
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
        .query<JobRow, [number, number, ...string[]]>(
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
    .query<JobRow, unknown[]>(
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
    .query<JobRow, unknown[]>(
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
