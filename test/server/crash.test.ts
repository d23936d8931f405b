/**
 * Crash safety: SIGKILL the server while 20 transactions are queued or processing, start it again on the same data
 * directory, and check every transaction completes once: no duplicate documents, no upload lost.
 */
import { afterAll, expect, test } from "bun:test";
import { openTestDatabase } from "../support/postgres";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { freePort, ROOT, spawnServe, type Served } from "../support/process";
import { makeTempDir } from "../support/temp";
import { requestInit } from "../support/http";
import { waitFor, waitForOutput } from "../support/wait";

const CORPUS = path.resolve(ROOT, "fixtures/corpora/invoice2data");
const KEY = "crash-key";
const dir = makeTempDir("crash");
const servers: Served[] = [];
afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null) s.proc.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

const files = ["AmazonWebServices.pdf", "AzureInterior.pdf", "FlipkartInvoice.pdf"];

test("all 20 transactions complete after a SIGKILL mid-processing, once each, with every upload", async () => {
  const port = await freePort();
  // Leases far longer than the test: only the restart's check for dead local worker processes can recover the jobs
  // of the killed server in time (another host's workers would wait out the lease).
  const start = () =>
    spawnServe({ dataDir: path.join(dir, "data"), port, key: KEY, workers: 2, env: { DOCPROC_LEASE_SECONDS: "600" } });
  let server = await start();
  servers.push(server);
  const api = async (method: string, url: string, body?: unknown) => {
    const res = await fetch(`${server.base}${url}`, requestInit(method, { "x-api-key": KEY }, body));
    return (await res.json()) as any;
  };

  const pid = (await api("POST", "/tenants/default/projects", { name: "Crash" })).project_id;
  const expected = new Map<string, string[]>();
  for (let i = 0; i < 20; i++) {
    const id = (await api("POST", `/tenants/default/projects/${pid}/transactions`, { correlation_id: `crash-${i}` }))
      .transaction_id;
    const names = i % 2 ? [files[i % 3]!] : [files[i % 3]!, files[(i + 1) % 3]!];
    const form = new FormData();
    for (const n of names)
      form.append("files", new File([readFileSync(path.join(CORPUS, n))], n, { type: "application/pdf" }));
    expect((await api("POST", `/transactions/${id}/source-files`, form)).uploaded_count).toBe(names.length);
    expected.set(id, names);
  }
  for (const id of expected.keys())
    expect((await api("POST", `/transactions/${id}/start`, {})).status).toBe("processing");

  // Wait until work is under way (some processing, most not done), then kill without warning.
  const underWay = await waitFor("a transaction processing", async () => {
    const list = await api("GET", "/transactions?limit=100&fields=status");
    const processing = list.items.filter((t: any) => t.status === "processing").length;
    const done = list.items.filter((t: any) => t.status === "completed").length;
    return processing > 0 && { processing, done };
  });
  expect(underWay.done).toBeLessThan(20);
  server.proc.kill("SIGKILL");
  await server.proc.exited;

  server = await start();
  servers.push(server);
  await waitForOutput(server.output, "recovered", { timeoutMs: 10_000 });
  const statuses = await waitFor(
    "all 20 transactions finished",
    async () => {
      const r = await api("POST", "/transactions/batch-status", {
        transaction_ids: [...expected.keys()],
        fields: "status,error_message",
      });
      const all = Object.values(r.statuses).map((s: any) => s.status as string);
      return all.every((s) => s === "completed" || s === "failed") && all;
    },
    { timeoutMs: 150_000, everyMs: 250 },
  );
  expect(statuses.filter((s) => s === "completed")).toHaveLength(20);

  for (const [id, names] of expected) {
    const t = await api("GET", `/transactions/${id}?include_request=true`);
    expect(t.request.source_files.map((f: any) => f.filename)).toEqual(names);
    const docs = (await api("GET", `/transactions/${id}/documents`)).documents;
    const indexes = docs.map((d: any) => d.document_index);
    expect(new Set(indexes).size).toBe(indexes.length);
    expect(indexes).toEqual([...indexes.keys()]);
    const manifest = await api("GET", `/transactions/${id}/exports`);
    const jsonFile = Object.values(manifest.profiles)
      .flatMap((p: any) => p.files)
      .find((f: any) => f.filename.endsWith("_data.json")) as any;
    const results = (await (
      await fetch(`${server.base}/transactions/${id}/exports/download/${jsonFile.filename}`, {
        headers: { "x-api-key": KEY },
      })
    ).json()) as any;
    expect(results.documents.map((d: any) => d.document_id)).toEqual(docs.map((d: any) => d.document_id));
    expect(results.transaction.source_file_names).toEqual(names);
  }
  server.proc.kill("SIGTERM");
  expect(await server.proc.exited).toBe(0);
  // The jobs that were running at the kill were recovered from their expired leases (a second attempt).
  const db = openTestDatabase(path.join(dir, "data"));
  const retried = db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM jobs WHERE attempts >= 2").get()!.n;
  db.close();
  expect(retried).toBeGreaterThan(0);
}, 300_000);
