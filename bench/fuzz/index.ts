/**
 * `bun run fuzz`: seeded mutations of the sample inbox and the corpora through the real pipeline, each input under a
 * time and a memory limit, in worker processes this script watches (bench/fuzz/child.ts).
 *
 *   bun run fuzz -- --count 10000 --seed 21 --jobs 2      the bench run (figures in the README)
 *   bun run fuzz -- --seed 21 --only 4711                  reproduce one input
 *
 * Outcomes per input: success / partial / failure (the pipeline's own statuses), error:<code> (a clear
 * DocprocError), internal (an error that is a bug, caught), and the three the harness exists for: crash (the worker
 * process died), hang (no answer within the time limit + 5 s) and memory (RSS above the limit; the worker is killed).
 * Exit code 1 when any input crashed, hung or went over the memory limit.
 */
import type { Subprocess } from "bun";
import { loadavg } from "node:os";
import path from "node:path";

interface Options {
  count: number;
  start: number;
  seed: number;
  jobs: number;
  timeLimitMs: number;
  memoryMb: number;
  pageLimit: number;
  ocr: string;
  only: number[] | null;
  json: boolean;
  report: string | null;
  /** Appends one JSON line per finished input (a long run can be read while it goes, or after it was stopped). */
  log: string | null;
}

function parseArgs(argv: string[]): Options {
  const o: Options = { count: 200, start: 0, seed: 21, jobs: 1, timeLimitMs: 60_000, memoryMb: 1024, pageLimit: 3, ocr: "null", only: null, json: false, report: null, log: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = () => argv[++i] ?? "";
    if (a === "--count") o.count = Number(next());
    else if (a === "--start") o.start = Number(next());
    else if (a === "--seed") o.seed = Number(next());
    else if (a === "--jobs") o.jobs = Math.max(1, Number(next()));
    else if (a === "--time-limit-ms") o.timeLimitMs = Number(next());
    else if (a === "--memory-mb") o.memoryMb = Number(next());
    else if (a === "--page-limit") o.pageLimit = Number(next());
    else if (a === "--ocr") o.ocr = next();
    else if (a === "--only") o.only = next().split(",").map(Number);
    else if (a === "--json") o.json = true;
    else if (a === "--report") o.report = next();
    else if (a === "--log") o.log = next();
    else throw new Error(`unknown option ${a}`);
  }
  return o;
}

export interface InputResult {
  index: number;
  base?: string;
  ops?: string[];
  size?: number;
  outcome: string;
  detail: string;
  ms: number;
  peak_rss: number;
}

const HANG_GRACE_MS = 5_000;

export async function* chunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}
const CHILD = path.join(import.meta.dir, "child.ts");

async function rssBytes(pid: number): Promise<number> {
  try {
    const status = await Bun.file(`/proc/${pid}/status`).text();
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** CPU seconds (user + system) a process has used so far; 0 when it is gone. */
async function cpuSeconds(pid: number): Promise<number> {
  try {
    const fields = (await Bun.file(`/proc/${pid}/stat`).text()).split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return 0;
  }
}

/** One worker process; `run` answers one input, killing and restarting the process when it breaks a limit. */
class Worker {
  private proc: Subprocess<"pipe", "pipe", "pipe"> | null = null;
  private lines: string[] = [];
  private waiters: Array<(line: string | null) => void> = [];
  private stderr = "";

  constructor(private readonly o: Options) {}

  private async start(): Promise<void> {
    const args = [`--seed=${this.o.seed}`, `--time-limit-ms=${this.o.timeLimitMs}`, `--page-limit=${this.o.pageLimit}`, `--ocr=${this.o.ocr}`];
    const proc = Bun.spawn([process.execPath, CHILD, ...args], { stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    this.proc = proc;
    this.lines = [];
    this.stderr = "";
    void (async () => {
      let buf = "";
      for await (const chunk of chunks(proc.stdout)) {
        buf += new TextDecoder().decode(chunk);
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          this.push(buf.slice(0, nl));
          buf = buf.slice(nl + 1);
        }
      }
      this.push(null);
    })();
    void (async () => {
      for await (const chunk of chunks(proc.stderr)) this.stderr = (this.stderr + new TextDecoder().decode(chunk)).slice(-2000);
    })();
    const ready = await this.next(120_000);
    if (!ready?.includes('"ready"')) throw new Error(`fuzz worker did not start: ${this.stderr}`);
  }

  private push(line: string | null): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(line);
    else if (line !== null) this.lines.push(line);
  }

  private next(timeoutMs: number): Promise<string | null | "timeout"> {
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== settle);
        resolve("timeout");
      }, timeoutMs);
      const settle = (line: string | null) => {
        clearTimeout(timer);
        resolve(line);
      };
      this.waiters.push(settle);
    });
  }

  /** Workers restarted because their resident size between inputs passed half the memory limit. */
  recycled = 0;

  async run(index: number): Promise<InputResult> {
    // A long-lived worker's heap and allocator keep what earlier inputs used (RSS crept from ~250 MB to 1 GB over
    // 350 inputs in the first long run); a fresh process per ~hundreds of inputs keeps each figure about its input.
    if (this.proc && this.proc.exitCode === null && (await rssBytes(this.proc.pid)) > (this.o.memoryMb * 1024 * 1024) / 2) {
      this.recycled++;
      this.proc.kill("SIGKILL");
      await this.proc.exited;
      this.proc = null;
    }
    if (!this.proc || this.proc.exitCode !== null) await this.start();
    const proc = this.proc!;
    const started = performance.now();
    const cpuBefore = await cpuSeconds(proc.pid);
    let observed = 0;
    let overMemory = false;
    const limit = this.o.memoryMb * 1024 * 1024;
    const monitor = setInterval(async () => {
      const rss = await rssBytes(proc.pid);
      observed = Math.max(observed, rss);
      if (rss > limit && !overMemory) {
        overMemory = true;
        proc.kill("SIGKILL");
      }
    }, 50);
    proc.stdin.write(`${index}\n`);
    proc.stdin.flush();
    const line = await this.next(this.o.timeLimitMs + HANG_GRACE_MS);
    clearInterval(monitor);
    const ms = Math.round(performance.now() - started);
    if (line && line !== "timeout") {
      const result = JSON.parse(line) as InputResult;
      return { ...result, peak_rss: Math.max(result.peak_rss, observed) };
    }
    const outcome = overMemory ? "memory" : line === "timeout" ? "hang" : "crash";
    // The CPU the input got tells a hang (a core's worth of the limit) from a worker starved on a busy machine.
    const cpu = outcome === "hang" ? ` (${((await cpuSeconds(proc.pid)) - cpuBefore).toFixed(1)} s of CPU)` : "";
    const detail = outcome === "crash" ? `worker exited (${proc.exitCode ?? proc.signalCode}): ${this.stderr.slice(-300)}` : outcome === "memory" ? `RSS above ${this.o.memoryMb} MB` : `no answer in ${this.o.timeLimitMs + HANG_GRACE_MS} ms${cpu}`;
    proc.kill("SIGKILL");
    await proc.exited;
    this.proc = null;
    const { base, ops, size } = await describeInput(this.o.seed, index);
    return { index, base, ops, size, outcome, detail, ms, peak_rss: observed };
  }

  async close(): Promise<void> {
    if (!this.proc) return;
    this.proc.stdin.end();
    const exited = await Promise.race([this.proc.exited, Bun.sleep(10_000).then(() => null)]);
    if (exited === null) this.proc.kill("SIGKILL");
  }
}

let basesForReports: Promise<Array<{ name: string; data: Uint8Array }>> | null = null;

/** Base file and operators of an input whose worker was killed (the worker could not say). */
async function describeInput(seed: number, index: number): Promise<{ base: string; ops: string[]; size: number }> {
  basesForReports ??= import("./bases").then((m) => m.loadBases());
  const bases = await basesForReports;
  const { mutate } = await import("./mutate");
  const m = mutate(bases.map((b) => b.data), seed, index);
  return { base: bases[m.base]!.name, ops: m.ops, size: m.bytes.length };
}

export interface FuzzSummary {
  seed: number;
  inputs: number;
  outcomes: Record<string, number>;
  crashes: number;
  hangs: number;
  over_memory: number;
  internal: number;
  peak_rss_max_mb: number;
  peak_rss_p99_mb: number;
  ms_p50: number;
  ms_p99: number;
  ms_max: number;
  wall_seconds: number;
  load_average: [number, number];
  failures: InputResult[];
}

const quantile = (sorted: number[], q: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0);

export async function runFuzz(o: Options, onResult?: (r: InputResult, done: number) => void): Promise<FuzzSummary> {
  const indexes = o.only ?? Array.from({ length: o.count }, (_, i) => o.start + i);
  const loadBefore = loadavg()[0]!;
  const started = performance.now();
  const workers = Array.from({ length: Math.min(o.jobs, indexes.length) }, () => new Worker(o));
  const results: InputResult[] = [];
  let next = 0;
  await Promise.all(
    workers.map(async (w) => {
      while (next < indexes.length) {
        const index = indexes[next++]!;
        const r = await w.run(index);
        results.push(r);
        onResult?.(r, results.length);
      }
      await w.close();
    }),
  );
  return summarize(results, o.seed, (performance.now() - started) / 1000, [loadBefore, loadavg()[0]!]);
}

/** Figures over finished inputs (also for a log of a run that was stopped: `--summarize LOG`). */
export function summarize(list: InputResult[], seed: number, wallSeconds: number, load: [number, number]): FuzzSummary {
  const results = [...list].sort((a, b) => a.index - b.index);
  const outcomes: Record<string, number> = {};
  for (const r of results) outcomes[r.outcome] = (outcomes[r.outcome] ?? 0) + 1;
  const rss = results.map((r) => r.peak_rss).sort((a, b) => a - b);
  const ms = results.map((r) => r.ms).sort((a, b) => a - b);
  const MB = 1024 * 1024;
  return {
    seed,
    inputs: results.length,
    outcomes,
    crashes: outcomes.crash ?? 0,
    hangs: outcomes.hang ?? 0,
    over_memory: outcomes.memory ?? 0,
    internal: outcomes.internal ?? 0,
    peak_rss_max_mb: Math.round(quantile(rss, 1) / MB),
    peak_rss_p99_mb: Math.round(quantile(rss, 0.99) / MB),
    ms_p50: quantile(ms, 0.5),
    ms_p99: quantile(ms, 0.99),
    ms_max: quantile(ms, 1),
    wall_seconds: Math.round(wallSeconds * 10) / 10,
    load_average: [Math.round(load[0] * 10) / 10, Math.round(load[1] * 10) / 10],
    failures: results.filter((r) => ["crash", "hang", "memory", "internal"].includes(r.outcome)),
  };
}

if (import.meta.main && process.argv[2] === "--summarize") {
  const lines = (await Bun.file(process.argv[3]!).text()).split("\n").filter(Boolean).map((l) => JSON.parse(l) as InputResult);
  process.stdout.write(JSON.stringify(summarize(lines, Number(process.argv[4] ?? 0), 0, [loadavg()[0]!, loadavg()[0]!]), null, 2) + "\n");
  process.exit(0);
}

if (import.meta.main) {
  const o = parseArgs(process.argv.slice(2));
  const { appendFileSync } = await import("node:fs");
  const summary = await runFuzz(o, (r, done) => {
    if (o.log) appendFileSync(o.log, JSON.stringify(r) + "\n");
    if (!o.json && (done % 100 === 0 || ["crash", "hang", "memory", "internal"].includes(r.outcome))) {
      process.stderr.write(`${done} inputs; #${r.index} ${r.outcome} ${r.ms} ms ${Math.round(r.peak_rss / 1048576)} MB ${r.outcome === "internal" || r.outcome === "crash" ? r.detail.slice(0, 120) : ""}\n`);
    }
  });
  if (o.report) await Bun.write(o.report, JSON.stringify(summary, null, 2));
  if (o.json) process.stdout.write(JSON.stringify(summary) + "\n");
  else {
    const { failures, ...figures } = summary;
    process.stdout.write(JSON.stringify(figures, null, 2) + "\n");
    for (const f of failures) process.stdout.write(`#${f.index} ${f.outcome} (${f.base} ${f.ops?.join("; ") ?? ""}): ${f.detail}\n  reproduce: bun run fuzz -- --seed ${o.seed} --only ${f.index}\n`);
  }
  process.exit(summary.crashes + summary.hangs + summary.over_memory > 0 ? 1 : 0);
}
