/**
 * When a fuzz input that has not answered is a hang. On a shared machine wall-clock time says more about the other
 * jobs than about the input (12 "hangs" of the 10,000-input run were niced workers that got 1.7-3.6 s of CPU in
 * their 65 s), so the budget is CPU seconds, read from /proc for the whole worker process (all threads: the PDF
 * worker thread included), and wall time is only a much larger backstop.
 *
 * At the backstop the scheduler's statistics tell the two remaining cases apart: a process that wanted a CPU and
 * waited for one (run-queue delay) was starved, and is run again later; a process that neither ran nor waited was
 * blocked (a promise that never settles, a read that never returns), which is a hang whatever its CPU.
 */

export interface Usage {
  wallMs: number;
  /** User + system CPU of every thread since the input started. */
  cpuMs: number;
  /** Time the threads were runnable but waiting for a CPU (/proc/<pid>/task/<tid>/schedstat); null when unknown. */
  waitMs: number | null;
}

export interface Limits {
  /** CPU budget per input (the child aborts its pipeline when it is used up). */
  timeLimitMs: number;
  /** Extra CPU the pipeline gets to notice the abort and answer. */
  graceMs: number;
  /** Wall time after which an input that has not used its CPU budget is judged on how it spent its time. */
  backstopMs: number;
}

export type Verdict = "running" | "hang" | "blocked" | "starved";

export function judge(u: Usage, l: Limits): Verdict {
  if (u.cpuMs >= l.timeLimitMs + l.graceMs) return "hang";
  if (u.wallMs < l.backstopMs) return "running";
  // Unknown scheduler statistics: give the input another run rather than call a slow machine a hang.
  if (u.waitMs === null) return "starved";
  const idleMs = u.wallMs - u.cpuMs - u.waitMs;
  return idleMs > u.wallMs / 2 ? "blocked" : "starved";
}

export function describe(v: Verdict, u: Usage, l: Limits): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const spent = `${s(u.cpuMs)} of CPU${u.waitMs === null ? "" : `, ${s(u.waitMs)} waiting for a CPU`} in ${s(u.wallMs)}`;
  if (v === "hang") return `no answer after its CPU budget (${s(l.timeLimitMs)} + ${s(l.graceMs)}): ${spent}`;
  if (v === "blocked") return `no answer and no progress by the ${s(l.backstopMs)} backstop: ${spent}`;
  if (v === "starved") return `starved by other jobs by the ${s(l.backstopMs)} backstop: ${spent}`;
  return spent;
}

const TICK_MS = 10; // /proc/<pid>/stat counts CPU in clock ticks (USER_HZ = 100)

/** A reading of a process: its CPU so far and each live thread's run-queue wait (ns), null when unknown. */
export interface Reading {
  cpuMs: number;
  waitNs: Map<string, number> | null;
}

/** Reads a process's CPU and its threads' run-queue waits; null when the process is gone. */
export async function readUsage(pid: number | "self"): Promise<Reading | null> {
  try {
    const fields = (await Bun.file(`/proc/${pid}/stat`).text()).split(") ")[1]!.split(" ");
    const cpuMs = (Number(fields[11]) + Number(fields[12])) * TICK_MS; // utime, stime
    return { cpuMs, waitNs: await threadWaits(pid) };
  } catch {
    return null;
  }
}

async function threadWaits(pid: number | "self"): Promise<Map<string, number> | null> {
  const { readdirSync } = await import("node:fs");
  const waits = new Map<string, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      const wait = Number(
        (
          await Bun.file(`/proc/${pid}/task/${tid}/schedstat`)
            .text()
            .catch(() => "")
        ).split(" ")[1],
      );
      if (Number.isFinite(wait)) waits.set(tid, wait);
    }
  } catch {
    return null;
  }
  return waits.size ? waits : null;
}

/**
 * Usage between two readings of one process. The wait is summed over the threads alive now (a thread that ended
 * in between takes its statistics with it; one that started counts from zero), so it can only be under-counted.
 */
export function since(start: Reading, now: Reading, wallMs: number): Usage {
  let waitMs: number | null = null;
  if (start.waitNs && now.waitNs) {
    let ns = 0;
    for (const [tid, wait] of now.waitNs) ns += wait - (start.waitNs.get(tid) ?? 0);
    waitMs = ns / 1e6;
  }
  return { wallMs, cpuMs: now.cpuMs - start.cpuMs, waitMs };
}
