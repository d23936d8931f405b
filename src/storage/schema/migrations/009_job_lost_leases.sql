-- Lease losses (the worker died: SIGKILL, OOM, power) are counted apart from attempts that ended in an error the
-- job reported: a job is given up after max_attempts errors, or after MAX_LOST_LEASES lost workers (queue/jobs.ts).
ALTER TABLE jobs ADD COLUMN lost_leases INTEGER NOT NULL DEFAULT 0;
