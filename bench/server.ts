/**
 * Server benchmark. Two processes: a target (this file run with `--target`: the docproc app with one completed
 * transaction, plus a bare Elysia route on another port) and autocannon as the load generator.
 *
 * - GET /transactions/{id} throughput (auth, DB read, JSON) as a ratio to a bare Elysia route. Target ≥ 0.5×.
 * - Extra RSS of the target while 1,000 long polls (`?timeout=N`) are held open. Target < 200 MB.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { BenchRow } from "./index";

const ROOT = path.resolve(import.meta.dir, "..");
const KEY = "bench-key";
const AUTOCANNON = path.join(ROOT, "node_modules/autocannon/autocannon.js");

interface Target {
  appPort: number;
  barePort: number;
  transactionId: string;
  waitingId: string;
  /** A client's API key (rate limited, tenant-scoped): what integrations send instead of the admin key. */
  apiKey: string;
}

/** The target process: docproc app + bare route; prints its ports as one JSON line and serves until killed. */
async function runTarget(): Promise<void> {
  const { Elysia } = await import("elysia");
  const { openDataDir, startWorkerRuntime } = await import("../src/queue/runtime");
  const { createApp } = await import("../src/server/app");
  const { DEFAULT_CONFIG } = await import("../src/server/config");
  const { systemClock } = await import("../src/core/clock");
  const { createProject } = await import("../src/storage/projects/projects");
  const tx = await import("../src/storage/transactions/transactions");
  const dir = mkdtempSync(path.join(tmpdir(), "docproc-bench-"));
  process.on("SIGTERM", () => {
    rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  });
  const data = openDataDir(dir);
  const runtime = startWorkerRuntime({
    data,
    concurrency: 0,
    runPipeline: async () => {
      throw new Error("no processing in the benchmark");
    },
  });
  const now = new Date().toISOString();
  createProject(data.db, { project_id: "p", tenant_id: "default", name: "bench", description: "", settings: {}, now });
  tx.createTransaction(data.db, {
    transaction_id: "t-done",
    tenant_id: "default",
    project_id: "p",
    now,
    metadata: { customer: "acme" },
  });
  tx.markCompleted(data.db, "t-done", now, 1.5);
  tx.createTransaction(data.db, { transaction_id: "t-wait", tenant_id: "default", project_id: "p", now });
  const { createClient, createKey } = await import("../src/auth/clients");
  const { DEFAULT_AUTH_SETTINGS } = await import("../src/auth/settings");
  createClient(data.db, systemClock, { client_id: "bench" });
  const apiKey = createKey(data.db, systemClock, "bench", {}).api_key;
  // Limits high enough that the benchmark measures counting, never refusals.
  const auth = { ...DEFAULT_AUTH_SETTINGS, ratePerMinute: 1e9, ratePerHour: 1e9 };
  const app = createApp({
    db: data.db,
    clock: systemClock,
    blobs: data.blobs,
    notifier: runtime.notifier,
    config: { ...DEFAULT_CONFIG, adminApiKey: KEY, auth },
    exportsRoot: data.exportsRoot,
    workers: 1,
    wake: () => {},
    running: () => 0,
    ocrStatus: () => runtime.ocrStatus(),
  });
  app.listen({ hostname: "127.0.0.1", port: 0, idleTimeout: 0 });
  const bare = new Elysia().get("/ping", () => ({ ok: true })).listen({ hostname: "127.0.0.1", port: 0 });
  const target: Target = {
    appPort: app.server!.port!,
    barePort: bare.server!.port!,
    transactionId: "t-done",
    waitingId: "t-wait",
    apiKey,
  };
  process.stdout.write(`${JSON.stringify(target)}\n`);
}

async function startTarget(): Promise<{ proc: ReturnType<typeof Bun.spawn>; target: Target }> {
  const proc = Bun.spawn([process.execPath, import.meta.path, "--target"], {
    cwd: ROOT,
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  let buf = "";
  while (!buf.includes("\n")) {
    const { done, value } = await reader.read();
    if (done) throw new Error("benchmark target exited before starting");
    buf += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return { proc, target: JSON.parse(buf.split("\n")[0]!) as Target };
}

/** Runs autocannon in its own process; returns mean requests per second. */
async function autocannon(url: string, opts: { connections: number; seconds: number; key?: string }): Promise<number> {
  const args = ["node", AUTOCANNON, "-j", "-c", String(opts.connections), "-d", String(opts.seconds)];
  if (opts.key) args.push("-H", `x-api-key=${opts.key}`);
  const out = Bun.spawnSync([...args, url], { cwd: ROOT, stdout: "pipe", stderr: "pipe" });
  const result = JSON.parse(out.stdout.toString()) as { requests: { average: number }; non2xx: number; errors: number };
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`autocannon: ${result.non2xx} non-2xx answers, ${result.errors} errors for ${url}`);
  return result.requests.average;
}

function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? "0");
  return kb / 1024;
}

/** Holds `n` long polls open from a separate autocannon process; returns the target's peak extra RSS (MB). */
async function longPollMemory(pid: number, url: string, n: number): Promise<number> {
  await Bun.sleep(300);
  const before = rssMb(pid);
  const seconds = 8;
  const load = Bun.spawn(
    ["node", AUTOCANNON, "-j", "-c", String(n), "-d", String(seconds), "-t", "30", "-H", `x-api-key=${KEY}`, url],
    { cwd: ROOT, stdout: "pipe", stderr: "pipe" },
  );
  let peak = before;
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until) {
    await Bun.sleep(250);
    peak = Math.max(peak, rssMb(pid));
  }
  load.kill();
  await load.exited;
  return peak - before;
}

async function withTarget<T>(fn: (t: Target, pid: number) => Promise<T>): Promise<T> {
  const { proc, target } = await startTarget();
  try {
    return await fn(target, proc.pid);
  } finally {
    proc.kill("SIGTERM");
    await proc.exited;
  }
}

export async function benchServer(): Promise<BenchRow[]> {
  // Throughput: bare and docproc alternate three times (the machine is shared; the best run of each counts).
  const [get, bare, getWithKey] = await withTarget(async (target) => {
    const getUrl = `http://127.0.0.1:${target.appPort}/transactions/${target.transactionId}`;
    const bareUrl = `http://127.0.0.1:${target.barePort}/ping`;
    await autocannon(getUrl, { connections: 10, seconds: 1, key: KEY }); // warm-up (JIT, statement cache)
    await autocannon(getUrl, { connections: 10, seconds: 1, key: target.apiKey });
    await autocannon(bareUrl, { connections: 10, seconds: 1 });
    let best = [0, 0, 0];
    for (let i = 0; i < 3; i++) {
      best = [
        Math.max(best[0]!, await autocannon(getUrl, { connections: 50, seconds: 3, key: KEY })),
        Math.max(best[1]!, await autocannon(bareUrl, { connections: 50, seconds: 3 })),
        Math.max(best[2]!, await autocannon(getUrl, { connections: 50, seconds: 3, key: target.apiKey })),
      ];
    }
    return best as [number, number, number];
  });
  // Memory: a fresh target, so earlier load does not hide the long polls' cost in an already-grown heap.
  const extra = await withTarget((target, pid) =>
    longPollMemory(pid, `http://127.0.0.1:${target.appPort}/transactions/${target.waitingId}?timeout=20`, 1000),
  );
  return [
    {
      metric: "server: GET /transactions/{id} vs bare Elysia route (admin key)",
      docproc: get,
      reference: bare,
      ratio: get / bare,
      target: "≥ 0.5×",
      unit: "req/s",
    },
    {
      metric: "  same with a client's API key (key lookup, rate counting, tenant scope)",
      docproc: getWithKey,
      reference: bare,
      ratio: getWithKey / bare,
      target: "informative",
      unit: "req/s",
    },
    {
      metric: "server: extra RSS, 1,000 concurrent long polls",
      docproc: extra,
      reference: null,
      ratio: null,
      target: "< 200 MB",
      unit: "MB",
    },
  ];
}

if (import.meta.main) {
  if (process.argv.includes("--target")) await runTarget();
  else console.table(await benchServer());
}
