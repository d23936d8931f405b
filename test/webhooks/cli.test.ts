/**
 * `docproc process` fires the project's Notification steps after each file (inline retries: the CLI has no queue),
 * through the real CLI entry point, the real pipeline on a text-layer invoice, and a loopback receiver.
 */
import { afterAll, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startReceiver, statuses } from "../core/notify/receiver";
import { ROOT, runCli } from "../support/process";
import { makeTempDir } from "../support/temp";
import { verifySignatures } from "./helpers";

const PDF = path.resolve(ROOT, "fixtures/corpora/invoice2data/AmazonWebServices.pdf");
const dir = makeTempDir("webhook-cli");
const rx = startReceiver();
afterAll(() => {
  rx.stop();
  rmSync(dir, { recursive: true, force: true });
});

function projectFile(name: string, activity: Record<string, unknown>): string {
  const file = path.join(dir, `${name}.json`);
  writeFileSync(
    file,
    JSON.stringify({ workflow: [{ type: "export" }, { type: "notification", id: "hook", activity }] }),
  );
  return file;
}

async function processOne(project: string, env: Record<string, string>) {
  const run = await runCli(["process", PDF, "--project", project, "--out", path.join(dir, "out"), "--json"], { env });
  return { ...run, summary: run.stdout.trim() ? JSON.parse(run.stdout) : null };
}

test("process sends a signed step_reached webhook with the export links to an allow-listed loopback receiver", async () => {
  rx.reply(statuses(200));
  const project = projectFile("ok", {
    webhook_url: rx.url("/cli"),
    hmac_secret: "cli-secret",
    api_base_url: "https://docproc.example.com/",
  });
  const run = await processOne(project, { DOCPROC_WEBHOOK_ALLOW: "127.0.0.0/8" });
  expect(run.code).toBe(0);
  const hits = rx.received.filter((r) => r.path === "/cli");
  expect(hits).toHaveLength(1);
  const payload = verifySignatures("cli-secret", hits[0]!.headers, hits[0]!.body) as any;
  const file = run.summary.files[0];
  expect(payload).toMatchObject({
    event: "transaction.step_reached",
    tenant_id: "local",
    transaction_id: file.transaction_id,
    transaction_name: null,
  });
  expect(payload.exports.manifest_url).toBe(`https://docproc.example.com/transactions/${file.transaction_id}/exports`);
  expect(payload.exports.files.map((f: any) => f.filename)).toEqual([`${file.transaction_id}_data.json`]);
  expect(payload.exports.files[0].download_url).toBe(
    `https://docproc.example.com/transactions/${file.transaction_id}/exports/download/${file.transaction_id}_data.json`,
  );
}, 60_000);

test("process: a failed delivery is reported; with fail_workflow_on_error the file counts as failed (exit 1)", async () => {
  rx.reply(statuses(404));
  const lenient = await processOne(
    projectFile("lenient", { webhook_url: rx.url("/lenient"), api_base_url: "https://x.example" }),
    { DOCPROC_WEBHOOK_ALLOW: "127.0.0.0/8" },
  );
  expect(lenient.code).toBe(0);
  expect(lenient.summary.files[0].warnings).toContain("notification 1 (reached) failed: HTTP 404 (not retryable)");
  const strict = await processOne(
    projectFile("strict", {
      webhook_url: rx.url("/strict"),
      api_base_url: "https://x.example",
      fail_workflow_on_error: true,
    }),
    { DOCPROC_WEBHOOK_ALLOW: "127.0.0.0/8" },
  );
  expect(strict.code).toBe(1);
  expect(strict.summary.failed).toBe(1);
  expect(strict.summary.files[0].errors).toContainEqual({
    stage: "notify",
    code: "delivery_failed",
    message: expect.stringContaining("HTTP 404"),
  });
}, 60_000);

test("process without DOCPROC_WEBHOOK_ALLOW refuses the loopback receiver and sends nothing", async () => {
  rx.reply(statuses(200));
  const run = await processOne(
    projectFile("blocked", { webhook_url: rx.url("/blocked"), api_base_url: "https://x.example" }),
    { DOCPROC_WEBHOOK_ALLOW: "" },
  );
  expect(run.code).toBe(0);
  expect(rx.received.filter((r) => r.path === "/blocked")).toHaveLength(0);
  expect(run.summary.files[0].warnings.join("\n")).toMatch(/notification 1 \(reached\) failed: .*rejected.*loopback/);
}, 60_000);
