/**
 * One fuzz worker process: reads input indexes (one per line) on stdin, rebuilds each input from the seed, runs it
 * through the real pipeline and answers one JSON line per input. The parent watches this process's memory and
 * and CPU and kills it when an input goes over a limit, so nothing here needs to protect itself.
 *
 * The pipeline's own limit is CPU time, not wall time (bench/fuzz/verdict.ts): the signal aborts when the process
 * has used `--time-limit-ms` of CPU on the input, or at the wall-clock backstop; an input aborted at the backstop
 * because other jobs starved it answers `starved` (the parent runs it again), not `error:timeout`.
 *
 * OCR: by default a null engine (pages are still rendered and handed to it; it reads no words), so 10,000 inputs
 * take minutes, not days; `--ocr native|wasm` runs real tesseract on every page the pipeline OCRs.
 */
import { writeFileSync } from "node:fs";
import { createOcrEngine } from "../../src/core/engines/ocr";
import type { OcrEngine } from "../../src/core/engines/ocr/types";
import { DocprocError } from "../../src/core/errors";
import { memorySink } from "../../src/core/exporters";
import { processTransaction } from "../../src/core/pipeline";
import { defaultProject } from "../../src/core/project";
import { loadBases } from "./bases";
import { mutate } from "./mutate";
import { judge, readUsage, since, type Reading } from "./verdict";

const args = new Map(process.argv.slice(2).map((a) => a.split("=") as [string, string]));
const seed = Number(args.get("--seed") ?? 1);
const timeLimitMs = Number(args.get("--time-limit-ms") ?? 60_000);
const backstopMs = Number(args.get("--backstop-ms") ?? 600_000);
const pageLimit = Number(args.get("--page-limit") ?? 3);
const ocrMode = args.get("--ocr") ?? "null";

const nullOcr: OcrEngine = {
  name: "null",
  workers: 1,
  recognize: async () => ({ words: [], text: "", confidence: null }),
  close: async () => {},
};
const ocr = ocrMode === "null" ? nullOcr : await createOcrEngine({ engine: ocrMode as "native" | "wasm", workers: 1 });
const bases = await loadBases();

async function peakRssBytes(): Promise<number> {
  const status = await Bun.file("/proc/self/status").text();
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
}

function resetPeak(): void {
  try {
    writeFileSync("/proc/self/clear_refs", "5"); // Linux: resets VmHWM to the current RSS
  } catch {
    // Not Linux, or not allowed: the peak is then the process's lifetime peak (an over-estimate).
  }
}

const NO_READING: Reading = { cpuMs: 0, waitNs: null };

/** A signal that aborts once the input has used its CPU budget, or at the wall-clock backstop. */
function budgetSignal(start: Reading, started: number) {
  const controller = new AbortController();
  let abortedBy: "cpu" | "starved" | "blocked" | null = null;
  const timer = setInterval(async () => {
    const usage = since(start, (await readUsage("self")) ?? start, performance.now() - started);
    const verdict = judge(usage, { timeLimitMs, graceMs: 0, backstopMs });
    if (verdict === "running" || abortedBy) return;
    abortedBy = verdict === "hang" ? "cpu" : verdict;
    const reason =
      verdict === "hang"
        ? `used its ${timeLimitMs / 1000} s of CPU`
        : `not done at the ${backstopMs / 1000} s backstop (${verdict})`;
    controller.abort(new DOMException(`fuzz input ${reason}`, "TimeoutError"));
  }, 250);
  return { signal: controller.signal, stop: () => clearInterval(timer), abortedBy: () => abortedBy };
}

async function runOne(index: number) {
  const input = mutate(
    bases.map((b) => b.data),
    seed,
    index,
  );
  const base = bases[input.base]!;
  resetPeak();
  const start = (await readUsage("self")) ?? NO_READING;
  const started = performance.now();
  const budget = budgetSignal(start, started);
  let outcome: string;
  let detail = "";
  try {
    const result = await processTransaction(
      { sources: [{ index: 0, filename: base.name, data: input.bytes, split_policy: "inherit" }], pageLimit },
      {
        meta: {
          transaction_id: crypto.randomUUID(),
          tenant_id: "default",
          project_id: "default",
          project_version: 1,
          correlation_id: null,
          metadata: {},
          created_at: new Date(0).toISOString(),
          source: "fuzz",
        },
        project: defaultProject,
        ocr,
        sink: memorySink(),
        signal: budget.signal,
      },
    );
    const internal = result.errors.find((e) => e.code === "internal");
    outcome = internal ? "internal" : result.errors.length ? `error:${result.errors[0]!.code}` : result.status;
    detail = internal?.message ?? result.errors[0]?.message ?? "";
  } catch (err) {
    if (err instanceof DocprocError && err.code !== "internal") outcome = `error:${err.code}`;
    else outcome = "internal";
    detail = (err as Error)?.message ?? String(err);
  }
  budget.stop();
  if (budget.abortedBy() === "starved" && outcome === "error:timeout") outcome = "starved";
  const cpu = since(start, (await readUsage("self")) ?? start, 0).cpuMs;
  return {
    index,
    base: base.name,
    ops: input.ops,
    size: input.bytes.length,
    outcome,
    detail: detail.slice(0, 300),
    ms: Math.round(performance.now() - started),
    cpu_ms: cpu,
    peak_rss: await peakRssBytes(),
  };
}

process.stdout.write(JSON.stringify({ ready: true, bases: bases.length }) + "\n");
let buffered = "";
const stdin = Bun.stdin.stream().getReader();
for (;;) {
  const { done, value: chunk } = await stdin.read();
  if (done) break;
  buffered += new TextDecoder().decode(chunk);
  let nl: number;
  while ((nl = buffered.indexOf("\n")) >= 0) {
    const line = buffered.slice(0, nl).trim();
    buffered = buffered.slice(nl + 1);
    if (!line) continue;
    process.stdout.write(JSON.stringify(await runOne(Number(line))) + "\n");
  }
}
await ocr.close();
process.exit(0);
