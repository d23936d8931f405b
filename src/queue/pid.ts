/**
 * The queue's view of the host: a worker id is `<host>:<pid>:<suffix>` (worker.ts), and a restarted server frees at
 * once the leases of this host's workers whose process is gone (storage/jobs/jobs.ts `expireDeadLocalLeases`).
 */

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
