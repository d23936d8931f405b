/**
 * `bun run fuzz`: seeded mutations of the sample inbox and the corpora through the real pipeline, each input under a
 * time and a memory limit, in worker processes this script watches (bench/fuzz/child.ts).
 *
 *   bun run fuzz -- --count 10000 --seed 21 --jobs 2      the bench run (figures in the README)
 *   bun run fuzz -- --seed 21 --only 4711                  reproduce one input
 *
 * Outcomes per input: success / partial / failure (the pipeline's own statuses), error:<code> (a clear
 * DocprocError; `error:timeout` is the input using its CPU budget, `--time-limit-ms`), internal (an error that is a
 * bug, caught), and the three the harness exists for: crash (the worker process died), hang (no answer after the CPU
 * budget + 5 s of CPU, or no progress at all by the wall-clock backstop, `--backstop-ms`; bench/fuzz/verdict.ts) and
 * memory (RSS above the limit; the worker is killed). An input starved of CPU by other jobs until the backstop is
 * run again after the others; `starved` only when that happens twice (no verdict: not a pass, not a hang).
 * Exit code 1 when any input crashed, hung, went over the memory limit or stayed starved.
 */
import { loadavg } from "node:os";
import { type InputResult, Worker } from "./worker";

export type { InputResult } from "./worker";

interface Options {
  count: number;
  start: number;
  seed: number;
  jobs: number;
  timeLimitMs: number;
  /** Wall-clock backstop per input (bench/fuzz/verdict.ts). */
  backstopMs: number;
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
  const o: Options = {
    count: 200,
    start: 0,
    seed: 21,
    jobs: 1,
    timeLimitMs: 60_000,
    backstopMs: 600_000,
    memoryMb: 1024,
    pageLimit: 3,
    ocr: "null",
    only: null,
    json: false,
    report: null,
    log: null,
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const next = () => argv[++i] ?? "";
    if (a === "--count") o.count = Number(next());
    else if (a === "--start") o.start = Number(next());
    else if (a === "--seed") o.seed = Number(next());
    else if (a === "--jobs") o.jobs = Math.max(1, Number(next()));
    else if (a === "--time-limit-ms") o.timeLimitMs = Number(next());
    else if (a === "--backstop-ms") o.backstopMs = Number(next());
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

export interface FuzzSummary {
  seed: number;
  inputs: number;
  outcomes: Record<string, number>;
  crashes: number;
  hangs: number;
  over_memory: number;
  internal: number;
  /** Inputs still starved of CPU by other jobs on their second run: no verdict. */
  starved: number;
  /** Inputs that were starved once and ran again after the others. */
  rerun: number;
  peak_rss_max_mb: number;
  peak_rss_p99_mb: number;
  peak_rss_p50_mb: number;
  ms_p50: number;
  ms_p99: number;
  ms_max: number;
  /** CPU per input (inputs whose worker reported it). */
  cpu_ms_p50: number;
  cpu_ms_p99: number;
  cpu_ms_max: number;
  wall_seconds: number;
  load_average: [number, number];
  failures: InputResult[];
}

const FAILURES = ["crash", "hang", "memory", "internal", "starved"];
const quantile = (sorted: number[], q: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]! : 0;

export async function runFuzz(o: Options, onResult?: (r: InputResult, done: number) => void): Promise<FuzzSummary> {
  const queue = o.only ?? Array.from({ length: o.count }, (_, i) => o.start + i);
  const loadBefore = loadavg()[0]!;
  const started = performance.now();
  const workers = Array.from({ length: Math.min(o.jobs, queue.length) }, () => new Worker(o));
  const results: InputResult[] = [];
  // An input starved by other jobs goes to the back of the queue once (it ran with no verdict); the second time
  // it is reported as `starved`.
  const attempts = new Map<number, number>();
  let next = 0;
  await Promise.all(
    workers.map(async (w) => {
      while (next < queue.length) {
        const index = queue[next++]!;
        const attempt = (attempts.get(index) ?? 0) + 1;
        attempts.set(index, attempt);
        const r = await w.run(index);
        if (r.outcome === "starved" && attempt === 1) {
          queue.push(index);
          continue;
        }
        results.push(attempt > 1 ? { ...r, attempts: attempt } : r);
        onResult?.(results.at(-1)!, results.length);
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
  const sorted = (values: number[]) => values.sort((a, b) => a - b);
  const rss = sorted(results.map((r) => r.peak_rss));
  const ms = sorted(results.map((r) => r.ms));
  const cpu = sorted(results.flatMap((r) => (r.cpu_ms === undefined ? [] : [r.cpu_ms])));
  const MB = 1024 * 1024;
  return {
    seed,
    inputs: results.length,
    outcomes,
    crashes: outcomes.crash ?? 0,
    hangs: outcomes.hang ?? 0,
    over_memory: outcomes.memory ?? 0,
    internal: outcomes.internal ?? 0,
    starved: outcomes.starved ?? 0,
    rerun: results.filter((r) => (r.attempts ?? 1) > 1).length,
    peak_rss_max_mb: Math.round(quantile(rss, 1) / MB),
    peak_rss_p99_mb: Math.round(quantile(rss, 0.99) / MB),
    peak_rss_p50_mb: Math.round(quantile(rss, 0.5) / MB),
    ms_p50: quantile(ms, 0.5),
    ms_p99: quantile(ms, 0.99),
    ms_max: quantile(ms, 1),
    cpu_ms_p50: quantile(cpu, 0.5),
    cpu_ms_p99: quantile(cpu, 0.99),
    cpu_ms_max: quantile(cpu, 1),
    wall_seconds: Math.round(wallSeconds * 10) / 10,
    load_average: [Math.round(load[0] * 10) / 10, Math.round(load[1] * 10) / 10],
    failures: results.filter((r) => FAILURES.includes(r.outcome)),
  };
}

if (import.meta.main && process.argv[2] === "--summarize") {
  const lines = (await Bun.file(process.argv[3]!).text())
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l) as InputResult);
  process.stdout.write(
    JSON.stringify(summarize(lines, Number(process.argv[4] ?? 0), 0, [loadavg()[0]!, loadavg()[0]!]), null, 2) + "\n",
  );
  process.exit(0);
}

if (import.meta.main) {
  const o = parseArgs(process.argv.slice(2));
  const { appendFileSync } = await import("node:fs");
  const summary = await runFuzz(o, (r, done) => {
    if (o.log) appendFileSync(o.log, JSON.stringify(r) + "\n");
    if (!o.json && (done % 100 === 0 || FAILURES.includes(r.outcome))) {
      process.stderr.write(
        `${done} inputs; #${r.index} ${r.outcome} ${r.ms} ms ${Math.round(r.peak_rss / 1048576)} MB ${FAILURES.includes(r.outcome) ? r.detail.slice(0, 160) : ""}\n`,
      );
    }
  });
  if (o.report) await Bun.write(o.report, JSON.stringify(summary, null, 2));
  if (o.json) process.stdout.write(JSON.stringify(summary) + "\n");
  else {
    const { failures, ...figures } = summary;
    process.stdout.write(JSON.stringify(figures, null, 2) + "\n");
    for (const f of failures)
      process.stdout.write(
        `#${f.index} ${f.outcome} (${f.base} ${f.ops?.join("; ") ?? ""}): ${f.detail}\n  reproduce: bun run fuzz -- --seed ${o.seed} --only ${f.index}\n`,
      );
  }
  process.exit(summary.crashes + summary.hangs + summary.over_memory + summary.starved > 0 ? 1 : 0);
}
