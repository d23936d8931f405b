/**
 * Scale-out figures (issue 20, docs/scaling.md): documents per second through `serve` (API only) and 1 or 2
 * `docproc worker` processes, on SQLite and on PostgreSQL, born-digital and scanned; database round trips and
 * bytes stored per transaction. The reference column is the same workload on SQLite with one worker.
 * PostgreSQL is a private server (scripts/postgres-server.ts) that logs every statement, so round trips are
 * counted by the server, not estimated.
 */
import type { Subprocess } from "bun";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { startPostgres } from "../scripts/postgres-server";
import { openPostgres } from "../src/storage/schema/pg/open";
import type { BenchRow } from "./index";

const ROOT = path.resolve(import.meta.dir, "..");
const CORPUS = path.resolve(ROOT, "fixtures/corpora/invoice2data");
const KEY = "bench-scale-key";

interface Run {
  seconds: number;
  docs: number;
  dataDir: string;
}

function inputs(kind: "born-digital" | "scanned", n: number): File[] {
  const ext = kind === "born-digital" ? ".pdf" : ".png";
  const files = existsSync(CORPUS)
    ? readdirSync(CORPUS)
        .filter((f) => f.endsWith(ext))
        .sort()
    : [];
  if (files.length === 0) return [];
  return Array.from({ length: n }, (_, i) => {
    const name = files[i % files.length]!;
    return new File([readFileSync(path.join(CORPUS, name))], `${i}-${name}`, {
      type: kind === "born-digital" ? "application/pdf" : "image/png",
    });
  });
}

function spawn(args: string[], env: Record<string, string>): Subprocess {
  return Bun.spawn([process.execPath, path.join(ROOT, "src/cli.ts"), ...args], {
    cwd: ROOT,
    env: { ...process.env, ADMIN_API_KEY: KEY, ...env },
    stdout: "ignore",
    stderr: "ignore",
  });
}

async function cluster(workers: number, files: File[], databaseUrl: string | null): Promise<Run> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "docproc-bench-scale-"));
  const env: Record<string, string> = databaseUrl ? { DOCPROC_DATABASE_URL: databaseUrl } : {};
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const procs = [spawn(["serve", "--data", dataDir, "--port", String(port), "--workers", "0"], env)];
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    if (
      await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await Bun.sleep(100);
  }
  for (let i = 0; i < workers; i++) procs.push(spawn(["worker", "--data", dataDir, "--concurrency", "1"], env));
  await Bun.sleep(1500); // workers up and warm before the clock starts
  const api = async (method: string, url: string, body?: BodyInit, json = true) => {
    const res = await fetch(base + url, {
      method,
      body,
      headers: { "x-api-key": KEY, ...(json && body ? { "content-type": "application/json" } : {}) },
    });
    return (await res.json()) as any;
  };
  try {
    const project = await api("POST", "/tenants/default/projects", JSON.stringify({ name: "bench", description: "" }));
    const started = performance.now();
    const ids: string[] = [];
    for (const file of files) {
      const t = await api("POST", `/tenants/default/projects/${project.project_id}/transactions`, "{}");
      const form = new FormData();
      form.append("files", file);
      await api("POST", `/transactions/${t.transaction_id}/source-files`, form, false);
      await api("POST", `/transactions/${t.transaction_id}/start`, "{}");
      ids.push(t.transaction_id);
    }
    for (;;) {
      const statuses = Object.values(
        (await api("POST", "/transactions/batch-status", JSON.stringify({ transaction_ids: ids }))).statuses,
      ) as Array<{ status: string }>;
      if (statuses.every((s) => s.status === "completed" || s.status === "failed")) break;
      await Bun.sleep(100);
    }
    return { seconds: (performance.now() - started) / 1000, docs: files.length, dataDir };
  } finally {
    for (const p of procs) p.kill("SIGKILL");
    await Promise.all(procs.map((p) => p.exited));
  }
}

function folderBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (e.isFile()) n += statSync(path.join(e.parentPath, e.name)).size;
  return n;
}

export async function benchScale(): Promise<BenchRow[]> {
  const born = inputs("born-digital", 40);
  const scanned = inputs("scanned", 8);
  if (born.length === 0) return [{ metric: "scale-out", docproc: "corpus missing", reference: null, target: "-" }];
  let pg;
  try {
    pg = startPostgres({ logStatements: true });
  } catch (e) {
    return [{ metric: "scale-out on PostgreSQL", docproc: (e as Error).message, reference: null, target: "-" }];
  }
  const rows: BenchRow[] = [];
  const dirs: string[] = [];
  try {
    let schema = 0;
    const fresh = () => `${pg.url}?schema=bench${++schema}`;
    for (const [kind, files] of [
      ["born-digital", born],
      ["scanned", scanned],
    ] as const) {
      const baseline = await cluster(1, files, null);
      dirs.push(baseline.dataDir);
      const ref = baseline.docs / baseline.seconds;
      for (const [backend, workers] of [
        ["SQLite", 1],
        ["SQLite", 2],
        ["PostgreSQL", 1],
        ["PostgreSQL", 2],
      ] as const) {
        const url = backend === "PostgreSQL" ? fresh() : null;
        const before = pg.statementCount();
        const r = backend === "SQLite" && workers === 1 ? baseline : await cluster(workers, files, url);
        if (r !== baseline) dirs.push(r.dataDir);
        rows.push({
          metric: `${kind} documents/s, ${backend}, ${workers} worker${workers > 1 ? "s" : ""}`,
          docproc: r.docs / r.seconds,
          reference: ref,
          target: "-",
          unit: "docs/s",
        });
        if (backend === "PostgreSQL" && workers === 1) {
          rows.push({
            metric: `${kind}: PostgreSQL statements per transaction`,
            docproc: (pg.statementCount() - before) / r.docs,
            reference: null,
            target: "-",
            note: "counted in the server's statement log over the whole run (create, upload, start, processing by the worker, and the bench's own batch-status polls every 100 ms, one statement each) divided by the transactions",
          });
          const db = openPostgres(url!);
          const bytes = db
            .query<{ n: number }, []>(
              "SELECT SUM(pg_total_relation_size(c.oid))::bigint AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace WHERE s.nspname = current_schema() AND c.relkind = 'r'",
            )
            .get()!.n;
          db.close();
          rows.push({
            metric: `${kind}: PostgreSQL bytes per transaction (tables + indexes)`,
            docproc: bytes / r.docs / 1024,
            reference: null,
            target: "-",
            unit: "KiB",
          });
          rows.push({
            metric: `${kind}: blob store bytes per transaction (originals, exports, state)`,
            docproc: folderBytes(r.dataDir) / r.docs / 1024,
            reference: null,
            target: "-",
            unit: "KiB",
          });
        }
      }
      const sqliteFile = path.join(baseline.dataDir, "docproc.db");
      const sqliteBytes = ["", "-wal"]
        .map((s) => (existsSync(sqliteFile + s) ? statSync(sqliteFile + s).size : 0))
        .reduce((a, b) => a + b, 0);
      rows.push({
        metric: `${kind}: SQLite file bytes per transaction`,
        docproc: sqliteBytes / baseline.docs / 1024,
        reference: null,
        target: "-",
        unit: "KiB",
      });
    }
  } finally {
    pg.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
  return rows;
}

if (import.meta.main) {
  const { renderTable } = await import("../src/cli/table");
  const rows = await benchScale();
  process.stdout.write(
    `${renderTable(
      ["metric", "docproc", "reference", "unit"],
      rows.map((r) => [
        r.metric,
        typeof r.docproc === "number" ? r.docproc.toFixed(2) : String(r.docproc),
        typeof r.reference === "number" ? r.reference.toFixed(2) : "-",
        r.unit ?? "",
      ]),
    )}\n`,
  );
}
