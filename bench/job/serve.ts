/**
 * The job through a warm `docproc serve` (part of bench/job.ts): one server process (default project, 2 workers, the
 * auto OCR engine), warmed by one transaction with a PDF and a scan; then each input is submitted once untimed (the
 * steady state of that workload) and then with the one-step call (`POST …/transactions/process`, base64 files),
 * timed from the first submission to the last transaction completed, interleaved with the reference tool. The server's CPU seconds (its threads and the tesseract processes
 * it waited for) come from /proc/<pid>/stat.
 */
import { readFileSync, readdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BenchRow } from "../index";
import { measure, median, QUICK_ROUNDS, type Run } from "../job";
import { processThreads } from "../../src/settings/diagnostics";

const ROOT = path.resolve(import.meta.dir, "../..");
import { docprocCommand } from "./command";
import { collectLog, logged, phasesOf, phaseSummary, type ClientTimes, type Phases } from "./serve-phases";
const KEY = "bench-admin-key";
const ROUNDS = Number(process.env.BENCH_ROUNDS) || 2;

interface Server {
  base: string;
  pid: number;
  project: string;
  /** The server's log lines so far (serve-phases.ts). */
  log: ReturnType<typeof collectLog>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const s = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") });
  const port = s.port!;
  s.stop(true);
  return port;
}

async function api(server: { base: string }, method: string, url: string, body?: unknown): Promise<any> {
  const res = await fetch(`${server.base}${url}`, {
    method,
    headers: { "x-api-key": KEY, ...(body ? { "content-type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await res.json().catch(() => null)) as any;
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${JSON.stringify(json)?.slice(0, 200)}`);
  return json;
}

async function startServer(): Promise<Server> {
  const dir = mkdtempSync(path.join(tmpdir(), "docproc-job-serve-"));
  const port = await freePort();
  // Debug JSON logs: each job's start, step times and end (serve-phases.ts); a few lines per transaction.
  const args = ["serve", "--data", dir, "--port", String(port), "--workers", "2", "--log-level", "debug"];
  const proc = Bun.spawn([...docprocCommand(), ...args, "--log-format", "json"], {
    stdout: "ignore",
    stderr: "pipe",
    env: {
      ...process.env,
      ADMIN_API_KEY: KEY,
      DOCPROC_MAX_BODY_MB: "1000",
      DOCPROC_MAX_FILE_MB: "1000",
      NO_COLOR: "1",
    },
  });
  const log = collectLog(proc.stderr);
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`docproc serve exited with ${proc.exitCode}`);
    if (
      await fetch(`${base}/health`)
        .then((r) => r.ok)
        .catch(() => false)
    )
      break;
    if (Date.now() > deadline) throw new Error("docproc serve did not come up in 60 s");
    await Bun.sleep(100);
  }
  const project = (await api({ base }, "POST", "/tenants/default/projects", { name: "bench" })).project_id as string;
  return {
    base,
    pid: proc.pid,
    project,
    log,
    stop: async () => {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** user + sys seconds of a process, its threads and its waited-for children. */
function cpuOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields.slice(11, 15).reduce((s, f) => s + Number(f), 0) / 100;
}

/**
 * CPU seconds of each thread of a process by the group it belongs to: the HTTP thread (the main one), the pipeline
 * thread and the pdf.js workers (named by src/queue/threaded-runner.ts and src/core/engines/pdf/pdf-client.ts), the JIT
 * compiler threads; everything else (GC helpers, the allocator, I/O pool, OCR) is "other".
 */
function cpuByThread(pid: number): Map<string, { group: string; cpu: number }> {
  return new Map(processThreads(pid, "HTTP").map((t) => [t.tid, { group: t.kind, cpu: t.cpu }]));
}

const THREAD_GROUPS = ["pipeline", "pdf.js", "JIT", "HTTP", "other"] as const;

/** Per-group CPU seconds between two cpuByThread readings (threads that ended meanwhile are not counted). */
function threadDelta(
  before: ReturnType<typeof cpuByThread>,
  after: ReturnType<typeof cpuByThread>,
): Record<string, number> {
  const out: Record<string, number> = Object.fromEntries(THREAD_GROUPS.map((g) => [g, 0]));
  for (const [tid, t] of after) out[t.group] = (out[t.group] ?? 0) + t.cpu - (before.get(tid)?.cpu ?? 0);
  return out;
}

type ServeRun = Run & { threads: Record<string, number>; phases: Phases | null };

/** Submits each group of files as one transaction, all at once; resolves when every one is completed. */
async function submitAll(server: Server, transactions: string[][]): Promise<ServeRun> {
  const bodies = transactions.map((files) => ({
    source_files: files.map((f) => ({ filename: path.basename(f), base64_data: readFileSync(f).toString("base64") })),
  }));
  const cpu0 = cpuOf(server.pid);
  const threads0 = cpuByThread(server.pid);
  const started = performance.now();
  const times = await Promise.all(
    bodies.map(async (body): Promise<ClientTimes> => {
      const sent = Date.now();
      const t = await api(server, "POST", `/tenants/default/projects/${server.project}/transactions/process`, body);
      const accepted = Date.now();
      for (;;) {
        const s = await api(server, "GET", t.poll_url as string);
        if (s.status === "completed") return { id: t.transaction_id, sent, accepted, done: Date.now() };
        if (s.status === "failed") throw new Error(`transaction failed: ${s.error_message}`);
      }
    }),
  );
  const wall = (performance.now() - started) / 1000;
  const threads = threadDelta(threads0, cpuByThread(server.pid));
  await logged(
    server.log,
    times.map((t) => t.id),
  );
  const phases = times.length === 1 ? phasesOf(server.log, times[0]!) : null;
  return { wall, cpu: cpuOf(server.pid) - cpu0, rssMB: NaN, threads, phases };
}

/**
 * `scans` null leaves the scanned case out (`bun bench/job.ts serve-pdf`: the born-digital rows only); `real500` and
 * `onePage` null leave theirs out. `shapes`: one warm row per real PDF shape (bench/shapes.ts, 500 pages each) next
 * to pdftotext (`bun bench/job.ts serve-shapes`).
 */
export async function serveRows(inputs: {
  real500: string | null;
  onePage: string | null;
  scans: string | null;
  pdftotext: string | null;
  shapes?: Array<{ name: string; pdf: string }>;
}): Promise<BenchRow[]> {
  const server = await startServer();
  try {
    const corpus = path.resolve(ROOT, "fixtures/corpora");
    // Warm-up: pdf.js workers, the pipeline modules, the OCR engine.
    await submitAll(server, [
      [path.join(corpus, "invoice2data/AmazonWebServices.pdf"), path.join(corpus, "invoice2data/oyo.png")],
    ]);
    const onePage = inputs.onePage
      ? readdirSync(inputs.onePage)
          .sort()
          .map((f) => path.join(inputs.onePage!, f))
      : [];
    const pdftotextOf = (pdf: string) =>
      inputs.pdftotext ? () => measure([inputs.pdftotext!, pdf, path.join(tmpdir(), "docproc-job-s.txt")]) : null;
    const cases: Array<{
      metric: string;
      units: number;
      unit: string;
      groups: string[][];
      ref: (() => Promise<Run>) | null;
      refName: string;
      target: string;
      quick: boolean;
    }> = [
      {
        metric: "warm serve: 500 real born-digital invoice pages, one PDF",
        units: 500,
        unit: "pages/s",
        groups: inputs.real500 ? [[inputs.real500]] : [],
        ref: inputs.real500 ? pdftotextOf(inputs.real500) : null,
        refName: "pdftotext",
        target: "≥ 1.0×",
        quick: true,
      },
      {
        metric: "warm serve: 100 one-page invoice PDFs, one transaction each",
        units: 100,
        unit: "docs/s",
        groups: onePage.map((f) => [f]),
        ref: inputs.pdftotext
          ? async () => {
              const total: Run = { wall: 0, cpu: 0, rssMB: 0 };
              for (const f of onePage) {
                const r = await measure([inputs.pdftotext!, f, path.join(tmpdir(), "docproc-job-s.txt")]);
                total.wall += r.wall;
                total.cpu += r.cpu;
              }
              return total;
            }
          : null,
        refName: "a pdftotext loop",
        target: "informative",
        quick: true,
      },
      {
        metric: "warm serve: 20 scanned pages as one PDF",
        units: 20,
        unit: "pages/s",
        groups: inputs.scans ? [[inputs.scans]] : [],
        ref: null,
        refName: "see the process row's OCRmyPDF figure",
        target: "informative",
        quick: false,
      },
      ...(inputs.shapes ?? []).map((shape) => ({
        metric: `warm serve: ${shape.name}, 500 pages`,
        units: 500,
        unit: "pages/s",
        groups: [[shape.pdf]],
        ref: pdftotextOf(shape.pdf),
        refName: "pdftotext",
        target: "≥ 0.75×",
        quick: true,
      })),
    ];
    const rows: BenchRow[] = [];
    for (const c of cases) {
      if (c.groups.length === 0) continue;
      const a: ServeRun[] = [];
      const b: Run[] = [];
      // One untimed round first: the server's steady state for this workload (its code paths compiled by the JIT),
      // as a long-running server is; the first run of a kind after start is the cold case, not the warm one.
      await submitAll(server, c.groups);
      // The born-digital cases take a second or two a round: as many rounds as the process rows (bench/job.ts).
      for (let i = 0; i < (c.quick ? QUICK_ROUNDS : ROUNDS); i++) {
        a.push(await submitAll(server, c.groups));
        if (c.ref) b.push(await c.ref());
      }
      const wall = median(a.map((r) => r.wall));
      const refWall = b.length ? median(b.map((r) => r.wall)) : null;
      rows.push({
        metric: `${c.metric} (vs ${c.refName})`,
        docproc: c.units / wall,
        reference: refWall ? c.units / refWall : null,
        unit: c.unit,
        target: c.target,
      });
      rows.push({
        metric: `  same, per CPU-second of the server`,
        docproc: c.units / median(a.map((r) => r.cpu)),
        reference: b.length ? c.units / median(b.map((r) => r.cpu)) : null,
        unit: `${c.unit.split("/")[0]}/CPU-s`,
        target: "informative",
      });
      // Where the server's CPU went, per run (medians over the rounds), next to the reference's CPU seconds.
      const perThread = THREAD_GROUPS.map((g) => `${g} ${median(a.map((r) => r.threads[g] ?? 0)).toFixed(2)}`).join(
        " · ",
      );
      const phased = a.flatMap((r) => (r.phases ? [r.phases] : []));
      if (phased.length)
        rows.push({
          metric: `  same, wall time by phase (medians; bench/job/serve-phases.ts)`,
          docproc: phaseSummary(phased),
          reference: null,
          ratio: null,
          unit: "",
          target: "informative",
        });
      rows.push({
        metric: `  same, server CPU-s per run by thread`,
        docproc: perThread,
        reference: b.length ? median(b.map((r) => r.cpu)).toFixed(2) : null,
        ratio: null,
        unit: "",
        target: "informative",
      });
    }
    return rows;
  } finally {
    await server.stop();
  }
}
