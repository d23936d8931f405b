/**
 * Where a warm transaction's wall time goes (part of bench/job/serve.ts), from the server's own log: `serve` runs
 * with `--log-level debug --log-format json`, whose `job_started`, `step_finished` (duration_ms per workflow step)
 * and `job_completed` lines are matched with what the client saw (its POST answered, the status it polled for).
 * One transaction at a time only: concurrent ones share the threads and their phases overlap.
 *
 * Phases: `post` the one-step call until its answer (upload, JSON, base64, hashing and storing the file, the
 * transaction rows); `start` until the job started (negative when it started before the answer arrived); each step,
 * timed on the HTTP thread from its first progress report to the next step's (src/telemetry/steps.ts): convert
 * includes classification and extraction read ahead of it, and the last step (export) ends when the run's outcome
 * has reached the HTTP thread (its results and run state texts made and moved); `rest` the job's time outside its
 * steps (loading the sources and handing them to the pipeline thread; the run state and results stored); `answer`
 * from the job's end until the client had the completed status (the long poll).
 */

interface LogLine {
  /** Epoch milliseconds (pino's ISO time). */
  t: number;
  event?: string;
  transaction_id?: string;
  step?: string;
  duration_ms?: number;
}

/** Reads the server's log lines as they come (a pipe left unread would block the server's synchronous log writes). */
export function collectLog(stream: ReadableStream<Uint8Array>): LogLine[] {
  const lines: LogLine[] = [];
  void (async () => {
    const decoder = new TextDecoder();
    let buf = "";
    const reader = stream.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buf += decoder.decode(value, { stream: true });
      let at = buf.indexOf("\n");
      for (; at >= 0; at = buf.indexOf("\n")) {
        const line = buf.slice(0, at);
        buf = buf.slice(at + 1);
        try {
          const j = JSON.parse(line) as LogLine & { time?: string };
          if (j.event && j.time) lines.push({ ...j, t: Date.parse(j.time) });
        } catch {
          // not a log line
        }
      }
    }
  })();
  return lines;
}

/** Until the log holds every one of these transactions' end (it is written as their status is answered). */
export async function logged(lines: LogLine[], ids: string[]): Promise<void> {
  const ended = (id: string) => lines.some((l) => l.transaction_id === id && l.event === "job_completed");
  for (const deadline = Date.now() + 2_000; Date.now() < deadline && !ids.every(ended); ) await Bun.sleep(5);
}

/** Client-side times of one transaction (epoch ms): submitted, POST answered, completed status received. */
export interface ClientTimes {
  id: string;
  sent: number;
  accepted: number;
  done: number;
}

export type Phases = Record<string, number>;

/** The phases of one transaction in ms, or null when its log lines are missing. */
export function phasesOf(lines: LogLine[], c: ClientTimes): Phases | null {
  const own = lines.filter((l) => l.transaction_id === c.id);
  const started = own.find((l) => l.event === "job_started");
  const ended = own.find((l) => l.event === "job_completed");
  if (!started || !ended) return null;
  const steps = own.filter((l) => l.event === "step_finished" && l.step);
  const stepped = steps.reduce((s, l) => s + (l.duration_ms ?? 0), 0);
  return {
    post: c.accepted - c.sent,
    start: started.t - c.accepted,
    ...Object.fromEntries(steps.map((l) => [l.step!, l.duration_ms ?? 0])),
    rest: ended.t - started.t - stepped,
    answer: c.done - ended.t,
  };
}

/** Medians per phase over runs, in the order of the first run: "post 12 · start 3 · convert 950 · … ms". */
export function phaseSummary(runs: Phases[]): string {
  const names = runs.length ? Object.keys(runs[0]!) : [];
  const median = (xs: number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
  };
  return `${names.map((n) => `${n} ${Math.round(median(runs.map((r) => r[n] ?? 0)))}`).join(" · ")} ms`;
}
