/**
 * One fuzz worker process (bench/fuzz/child.ts) as the harness sees it: `run` sends it one input index and waits
 * for its answer while watching its memory (RSS above the limit: killed, `memory`) and its time (bench/fuzz/
 * verdict.ts: CPU budget used without an answer or no progress by the backstop: killed, `hang`; starved by other
 * jobs: killed, `starved`, for the caller to run again). A worker that dies is a `crash`. A killed worker is
 * restarted for the next input.
 */
import type { Subprocess } from "bun";
import path from "node:path";
import { describe as describeVerdict, judge, readUsage, since, type Limits, type Reading } from "./verdict";

export interface WorkerOptions {
  seed: number;
  timeLimitMs: number;
  backstopMs: number;
  memoryMb: number;
  pageLimit: number;
  ocr: string;
}

export interface InputResult {
  index: number;
  base?: string;
  ops?: string[];
  size?: number;
  outcome: string;
  detail: string;
  /** Wall time. */
  ms: number;
  /** CPU time of the worker process on this input (all threads). */
  cpu_ms?: number;
  peak_rss: number;
  /** Runs it took: an input starved by other jobs is run again at the end. */
  attempts?: number;
}

/** CPU the pipeline gets, past its own abort, to notice it and answer. */
export const GRACE_MS = 5_000;
const CHILD = path.join(import.meta.dir, "child.ts");

export async function* chunks(stream: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

async function rssBytes(pid: number): Promise<number> {
  try {
    const status = await Bun.file(`/proc/${pid}/status`).text();
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}

export class Worker {
  private proc: Subprocess<"pipe", "pipe", "pipe"> | null = null;
  private lines: string[] = [];
  private waiters: Array<(line: string | null) => void> = [];
  private stderr = "";
  /** Workers restarted because their resident size between inputs passed half the memory limit. */
  recycled = 0;

  constructor(private readonly o: WorkerOptions) {}

  /**
   * A worker that cannot start says nothing about an input; on a shared checkout it can be a dependency folder being
   * reinstalled under the run (that stopped a long run once), so starting is tried three times, 10 s apart.
   */
  private async start(): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.startOnce();
      } catch (err) {
        this.proc?.kill("SIGKILL");
        if (attempt === 3) throw err;
        await Bun.sleep(10_000);
      }
    }
  }

  private async startOnce(): Promise<void> {
    const o = this.o;
    const args = [
      `--seed=${o.seed}`,
      `--time-limit-ms=${o.timeLimitMs}`,
      `--backstop-ms=${o.backstopMs}`,
      `--page-limit=${o.pageLimit}`,
      `--ocr=${o.ocr}`,
    ];
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
      for await (const chunk of chunks(proc.stderr))
        this.stderr = (this.stderr + new TextDecoder().decode(chunk)).slice(-2000);
    })();
    // Start-up is not an input's time; on a starved machine it may take long, so only a dead worker fails here.
    const ready = await this.next();
    if (!ready?.includes('"ready"')) throw new Error(`fuzz worker did not start: ${this.stderr}`);
  }

  private push(line: string | null): void {
    const waiter = this.waiters.shift();
    if (waiter) waiter(line);
    else if (line !== null) this.lines.push(line);
  }

  /** The worker's next line; null when it exited. */
  private next(): Promise<string | null> {
    const queued = this.lines.shift();
    if (queued !== undefined) return Promise.resolve(queued);
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private async restartIfBloated(): Promise<void> {
    // A long-lived worker's heap and allocator keep what earlier inputs used (RSS crept from ~250 MB to 1 GB over
    // 350 inputs in the first long run); a fresh process per ~hundreds of inputs keeps each figure about its input.
    if (
      this.proc &&
      this.proc.exitCode === null &&
      (await rssBytes(this.proc.pid)) > (this.o.memoryMb * 1024 * 1024) / 2
    ) {
      this.recycled++;
      this.proc.kill("SIGKILL");
      await this.proc.exited;
      this.proc = null;
    }
    if (!this.proc || this.proc.exitCode !== null) await this.start();
  }

  async run(index: number): Promise<InputResult> {
    await this.restartIfBloated();
    const proc = this.proc!;
    const limits: Limits = {
      timeLimitMs: this.o.timeLimitMs,
      graceMs: GRACE_MS,
      backstopMs: this.o.backstopMs + GRACE_MS,
    };
    const startReading: Reading = (await readUsage(proc.pid)) ?? { cpuMs: 0, waitNs: null };
    const started = performance.now();
    let observed = 0;
    let killedFor: { outcome: string; detail: string; cpuMs?: number } | null = null;
    const kill = (outcome: string, detail: string, cpuMs?: number) => {
      if (killedFor) return;
      killedFor = { outcome, detail, cpuMs };
      proc.kill("SIGKILL");
    };
    const limit = this.o.memoryMb * 1024 * 1024;
    let ticks = 0;
    const monitor = setInterval(async () => {
      const rss = await rssBytes(proc.pid);
      observed = Math.max(observed, rss);
      if (rss > limit) kill("memory", `RSS above ${this.o.memoryMb} MB`);
      if (++ticks % 10 !== 0) return; // time every 0.5 s, memory every 50 ms
      const now = await readUsage(proc.pid);
      if (!now) return;
      const usage = since(startReading, now, performance.now() - started);
      const verdict = judge(usage, limits);
      if (verdict !== "running")
        kill(verdict === "starved" ? "starved" : "hang", describeVerdict(verdict, usage, limits), usage.cpuMs);
    }, 50);
    proc.stdin.write(`${index}\n`);
    proc.stdin.flush();
    const line = await this.next();
    clearInterval(monitor);
    const ms = Math.round(performance.now() - started);
    if (line !== null && !killedFor) {
      const result = JSON.parse(line) as InputResult;
      return { ...result, peak_rss: Math.max(result.peak_rss, observed) };
    }
    const killed = killedFor as { outcome: string; detail: string; cpuMs?: number } | null;
    const outcome = killed?.outcome ?? "crash";
    const detail = killed?.detail ?? `worker exited (${proc.exitCode ?? proc.signalCode}): ${this.stderr.slice(-300)}`;
    proc.kill("SIGKILL");
    await proc.exited;
    this.proc = null;
    const { base, ops, size } = await describeInput(this.o.seed, index);
    return { index, base, ops, size, outcome, detail, ms, cpu_ms: killed?.cpuMs, peak_rss: observed };
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
  const m = mutate(
    bases.map((b) => b.data),
    seed,
    index,
  );
  return { base: bases[m.base]!.name, ops: m.ops, size: m.bytes.length };
}
