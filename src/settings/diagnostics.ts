/**
 * Diagnostics variables: read by every CLI run at exit, so they live apart from the zod schema of env.ts, whose
 * import (zod, the settings slices, the mail and proxy parsers) measured ~0.5 s under load: a cost `docproc
 * --version` must not pay. They change no behaviour, only what is written for benchmarks; a stray bad serve setting
 * MUST NOT stop `docproc process` either, which is why they are not part of loadEnvSettings().
 */
import { readdirSync, readFileSync } from "node:fs";

export const DIAGNOSTICS_VARIABLES = [
  {
    name: "DOCPROC_STAGE_TIMES",
    description: "file the CLI writes per-stage wall times and per-thread CPU seconds to at exit (bench/job.ts)",
  },
] as const;

/** The file named by DOCPROC_STAGE_TIMES, if any (blank counts as unset). */
export function stageTimesFile(env: Record<string, string | undefined> = process.env): string | undefined {
  return env.DOCPROC_STAGE_TIMES?.trim() || undefined;
}

/**
 * CPU seconds this process's threads have used so far, by kind: the main thread, the pipeline thread and pdf.js
 * workers (named by src/queue/threaded-runner.ts and src/core/engines/pdf/pdf-client.ts), JavaScriptCore's JIT
 * compilers, and everything else (garbage collector helpers, allocator, I/O pool). Linux only (/proc); empty elsewhere.
 * Threads that have ended are not counted (the benchmark reads this at exit, when the batch's threads still live).
 */
export function threadCpuSeconds(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of processThreads(process.pid, "main")) out[t.kind] = (out[t.kind] ?? 0) + t.cpu;
  return out;
}

/**
 * The threads of process `pid` with their kind (its main thread is `mainKind`; then "pipeline", "pdf.js", "JIT",
 * "other" as in threadCpuSeconds) and CPU seconds so far. Linux only (/proc); empty elsewhere or when it is gone.
 */
export function processThreads(pid: number, mainKind: string): Array<{ tid: string; kind: string; cpu: number }> {
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  const out: Array<{ tid: string; kind: string; cpu: number }> = [];
  for (const tid of tids) {
    try {
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const kind =
        tid === String(pid)
          ? mainKind
          : name === "docproc-pipe"
            ? "pipeline"
            : name === "docproc-pdfjs"
              ? "pdf.js"
              : /^(JITWorker|JSCWarmUp)/.test(name)
                ? "JIT"
                : "other";
      // utime + stime, in clock ticks (USER_HZ, 100 on Linux).
      out.push({ tid, kind, cpu: (Number(fields[11]) + Number(fields[12])) / 100 });
    } catch {
      // the thread ended meanwhile
    }
  }
  return out;
}
