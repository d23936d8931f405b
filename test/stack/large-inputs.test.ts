/**
 * Large inputs through `docproc serve`, whose pipeline runs on a worker thread (queue/threaded-runner.ts) with a
 * smaller stack than the main thread (issue 38): a 4.7 MB plain-text file (~860k words, within the default
 * limits) failed there with "classify: Maximum call stack size exceeded" (a spread of every word box into
 * Math.max) while the CLI processed it; and a 10,000-page PDF (the default page limit) must complete too.
 * Both inputs are generated; a real server takes them over its API and the transactions must complete.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { longPdf } from "../support/long-pdf";
import { freePort, spawnServe, type Served } from "../support/process";
import { removeAll, tempDir } from "../support/temp";

const KEY = "large-inputs-admin-key";
const dirs: string[] = [];
let s: Served;
let project = "";
const admin = { "x-api-key": KEY, "content-type": "application/json" };

beforeAll(async () => {
  s = await spawnServe({ dataDir: tempDir("docproc-large-", dirs), port: await freePort(), key: KEY, workers: 1 });
  project = (
    await (
      await fetch(`${s.base}/tenants/default/projects`, {
        method: "POST",
        headers: admin,
        body: JSON.stringify({ name: "large", description: "" }),
      })
    ).json()
  ).project_id;
});
afterAll(async () => {
  s.proc.kill("SIGTERM");
  await s.proc.exited;
  removeAll(dirs);
});

/** Lines of invoice-like words and numbers, `bytes` long. */
function longText(bytes: number): string {
  const words = [
    "invoice",
    "item",
    "widget",
    "quantity",
    "price",
    "total",
    "EUR",
    "delivery",
    "order",
    "customer",
    "service",
    "amount",
  ];
  const lines = ["INVOICE", "Invoice number: INV-2026-1", "Date: 2026-11-20"];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const w: string[] = [];
    for (let k = 0; k < 10; k++) w.push(words[(i * 7 + k * 3) % words.length]!, String((i * 31 + k) % 997));
    const line = w.join(" ");
    lines.push(line);
    size += line.length + 1;
  }
  lines.push("Total: 119.00 EUR");
  return lines.join("\n");
}

async function submit(filename: string, data: Uint8Array): Promise<string> {
  const res = await fetch(`${s.base}/tenants/default/projects/${project}/transactions/process`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({ source_files: [{ filename, base64_data: Buffer.from(data).toString("base64") }] }),
  });
  expect(res.status).toBe(202);
  return (await res.json()).transaction_id;
}

async function settled(id: string): Promise<Record<string, any>> {
  for (;;) {
    const t = await (await fetch(`${s.base}/transactions/${id}?timeout=60`, { headers: admin })).json();
    if (!["created", "queued", "processing"].includes(t.status)) return t;
  }
}

test("a 4.7 MB text completes through serve's pipeline thread", async () => {
  const text = longText(4_700_000);
  expect(text.split(/\s+/).length).toBeGreaterThan(622_000);
  const t = await settled(await submit("long.txt", new TextEncoder().encode(text)));
  expect([t.status, t.error_message ?? null]).toEqual(["completed", null]);
  const manifest = await (await fetch(`${s.base}/transactions/${t.transaction_id}/exports`, { headers: admin })).json();
  expect(manifest.total_files).toBeGreaterThan(0);
}, 900_000);

test("a 10,000-page PDF completes through serve's pipeline thread", async () => {
  const t = await settled(await submit("long.pdf", longPdf(10_000)));
  expect([t.status, t.error_message ?? null]).toEqual(["completed", null]);
  const docs = await (await fetch(`${s.base}/transactions/${t.transaction_id}/documents`, { headers: admin })).json();
  // Every page is in a document (the counter "page N of M" keeps them one document).
  const pages = (docs.documents as Array<{ split: { page_numbers: number[] } }>).reduce(
    (n, d) => n + d.split.page_numbers.length,
    0,
  );
  expect(pages).toBe(10_000);
}, 900_000);
