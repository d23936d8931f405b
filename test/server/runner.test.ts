/**
 * The transaction runner on the server, with the real core runner and a real queue: a step pauses a transaction
 * (test-only review step) and the queue resumes it from the stored state; POST /transactions/{id}/rerun re-runs a
 * finished one from Split with the stored pages, the project's new settings and the stored split policies; a
 * Notification node in mid-workflow is delivered (by a real loopback receiver) while the transaction still runs.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { BUILTIN_STAGES, AwaitInput, type Stage } from "../../src/core/runner";
import { enqueueResume } from "../../src/queue/submit";
import { getTransaction } from "../../src/storage/transactions/transactions";
import { defaultProject } from "../../src/core/project";
import { startReceiver, type Receiver } from "../core/notify/receiver";
import { buildTestApp } from "../support/app";
import { requestInit } from "../support/http";
import { waitFor } from "../support/wait";

const KEY = "runner-admin";
let t: ReturnType<typeof buildTestApp> | null = null;
let rx: Receiver | null = null;
afterEach(async () => {
  await t?.close();
  rx?.stop();
  t = null;
  rx = null;
});

function start(opts: Parameters<typeof buildTestApp>[0]) {
  t = buildTestApp(opts);
  const app = t.app;
  return async (method: string, url: string, body?: unknown) => {
    const res = await app.handle(new Request(`http://local${url}`, requestInit(method, { "x-api-key": KEY }, body)));
    return {
      status: res.status,
      json: (res.headers.get("content-type") ?? "").includes("json") ? ((await res.json()) as any) : null,
    };
  };
}

async function statusOf(call: ReturnType<typeof start>, id: string, status: string, tries = 120) {
  let view: any;
  for (let i = 0; i < tries && view?.status !== status; i++)
    view = (await call("GET", `/transactions/${id}?timeout=2`)).json;
  expect(view?.status).toBe(status);
  return view;
}

const counter = () => {
  const calls: Record<string, number> = {};
  const wrap =
    (name: "convert" | "ocr" | "split"): Stage =>
    async (state, ctx) => {
      calls[name] = (calls[name] ?? 0) + 1;
      await BUILTIN_STAGES[name](state, ctx);
    };
  return { calls, stages: { convert: wrap("convert"), ocr: wrap("ocr"), split: wrap("split") } };
};

const TEXT = "INVOICE\nInvoice number: INV-7\nTotal: 12.50 EUR\fINVOICE\nInvoice number: INV-8\nTotal: 30.00 EUR";

describe("pause and resume through the queue", () => {
  test("a step pauses in awaiting_input with review_metadata; resuming finishes from the next step with one conversion", async () => {
    const { calls, stages } = counter();
    let reviewed = 0;
    const review: Stage = async () => {
      if (++reviewed === 1)
        throw new AwaitInput({ step_name: "review", instructions: "Check the totals", timeout_hours: 48 });
    };
    const call = start({
      adminKey: KEY,
      prefix: "runner-pause",
      runner: "core",
      workers: 1,
      stages: { ...stages, review },
    });
    // The default project ships its Review node disabled (docs/review.md): this project turns it on.
    const workflow = defaultProject.workflow.map((n) => (n.type === "review" ? { ...n, enabled: true } : n));
    const pid = (await call("POST", "/tenants/default/projects", { name: "P", settings: { workflow } })).json
      .project_id;
    const id = (await call("POST", `/tenants/default/projects/${pid}/transactions/process`, { documentText: TEXT }))
      .json.transaction_id;
    const paused = await statusOf(call, id, "awaiting_input");
    expect(paused.review_metadata).toEqual({
      step_name: "review",
      instructions: "Check the totals",
      timeout_hours: 48,
      paused_at: expect.any(String),
    });
    // Documents are visible while paused; Export has not run.
    const docs = (await call("GET", `/transactions/${id}/documents`)).json;
    expect(docs.items?.length ?? docs.documents?.length).toBeGreaterThan(0);
    expect((await call("GET", `/transactions/${id}/exports`)).json.total_files).toBe(0);

    enqueueResume(t!.data.db, t!.clock, id);
    t!.runtime.pool.wake();
    await statusOf(call, id, "completed");
    expect(reviewed).toBe(1); // resumed after the review step, not at it
    expect(calls).toEqual({ convert: 1, ocr: 1, split: 1 });
    const exports = (await call("GET", `/transactions/${id}/exports`)).json;
    expect(exports.total_files).toBe(1);
  });
});

describe("POST /transactions/{id}/rerun", () => {
  test("re-runs from Split with the stored pages: new project settings and changed split policies apply, nothing is converted again", async () => {
    const { calls, stages } = counter();
    const call = start({ adminKey: KEY, prefix: "runner-rerun", runner: "core", workers: 1, stages });
    const pid = (
      await call("POST", "/tenants/default/projects", { name: "P", settings: { split: { mode: "per_page" } } })
    ).json.project_id;
    const files = [{ filename: "two.txt", base64_data: Buffer.from(TEXT).toString("base64"), split_policy: "inherit" }];
    const id = (await call("POST", `/tenants/default/projects/${pid}/transactions/process`, { source_files: files }))
      .json.transaction_id;
    const first = await statusOf(call, id, "completed");
    expect(first.metadata.progress.total_documents).toBe(2);

    // Refused while it is not finished, or from a step the workflow does not have.
    expect((await call("POST", `/transactions/${id}/rerun`, { from_step: "ocr" })).status).toBe(400);
    expect((await call("POST", `/transactions/${id}/rerun`, { from_step: "nope" })).json.detail).toContain("from_step");

    // The stored policy changes (rule 4: policies persist on the transaction and apply again on a rerun).
    t!.data.db.query("UPDATE source_files SET split_policy = 'single_document' WHERE transaction_id = ?").run(id);
    const rerun = await call("POST", `/transactions/${id}/rerun`, {});
    expect(rerun.status).toBe(202);
    expect(rerun.json).toMatchObject({ transaction_id: id, status: "queued", from_step: "split" });
    await statusOf(call, id, "completed");
    const docs = (await call("GET", `/transactions/${id}/documents`)).json;
    const list = docs.items ?? docs.documents;
    expect(list.map((d: any) => [d.split.page_numbers, d.split.policy])).toEqual([[[1, 2], "single_document"]]);

    // Changed project settings apply too (policy back to inherit: per_page governs again).
    t!.data.db.query("UPDATE source_files SET split_policy = 'inherit' WHERE transaction_id = ?").run(id);
    await call("PATCH", `/tenants/default/projects/${pid}`, { settings: { split: { mode: "per_file" } } });
    expect((await call("POST", `/transactions/${id}/rerun`, { from_step: "split" })).status).toBe(202);
    await statusOf(call, id, "completed");
    const again = (await call("GET", `/transactions/${id}/documents`)).json;
    expect((again.items ?? again.documents).map((d: any) => d.split.page_numbers)).toEqual([[1, 2]]);
    expect(calls).toEqual({ convert: 1, ocr: 1, split: 3 });

    const openapi = (await call("GET", "/api-docs/openapi.json")).json;
    const documented = openapi.paths["/transactions/{transaction_id}/rerun"].post;
    expect(Object.keys(documented.responses)).toContain("202");
    expect(JSON.stringify(documented.requestBody)).toContain("RerunTransaction");
  });

  test("a transaction that failed before OCR finished has nothing stored to re-run from", async () => {
    const call = start({ adminKey: KEY, prefix: "runner-rerun-bad", runner: "core", workers: 1 });
    const pid = (await call("POST", "/tenants/default/projects", { name: "P" })).json.project_id;
    const files = [
      {
        filename: "bad.pdf",
        base64_data: Buffer.from("%PDF-1.7\n1 0 obj <<").toString("base64"),
        split_policy: "inherit",
      },
    ];
    const id = (await call("POST", `/tenants/default/projects/${pid}/transactions/process`, { source_files: files }))
      .json.transaction_id;
    await statusOf(call, id, "failed");
    const res = await call("POST", `/transactions/${id}/rerun`, {});
    expect(res.status).toBe(400);
    expect(res.json.detail).toContain("no stored pages");
  });
});

describe("Notification nodes on the server", () => {
  test("a node in mid-workflow is delivered while the transaction still runs, with the manifest of that moment", async () => {
    rx = startReceiver();
    const receiver = rx;
    let statusWhenDelivered = null as string | null;
    // Validate (after the mid node) waits for the delivery: it can only arrive before completion if it is sent
    // when the node is reached, not when the transaction ends.
    const validate: Stage = async (state, ctx) => {
      await receiver.arrived(1, 30_000);
      statusWhenDelivered = getTransaction(t!.data.db, ctx.meta.transaction_id)?.status ?? null;
      await BUILTIN_STAGES.validate(state, ctx);
    };
    const call = start({
      adminKey: KEY,
      prefix: "runner-notify",
      runner: "core",
      workers: 2,
      stages: { validate },
      webhooks: { publicBaseUrl: () => "http://docproc.test", allowPrivate: ["127.0.0.0/8"] },
    });
    const node = (id: string, p: string) => ({
      type: "notification",
      id,
      activity: { webhook_url: receiver.url(p), retry_max_attempts: 1 },
    });
    const workflow = [
      { type: "split" },
      { type: "classify" },
      { type: "extract" },
      node("mid", "/mid"),
      { type: "validate" },
      { type: "export" },
      node("end", "/end"),
    ];
    const pid = (await call("POST", "/tenants/default/projects", { name: "P", settings: { workflow } })).json
      .project_id;
    const id = (await call("POST", `/tenants/default/projects/${pid}/transactions/process`, { documentText: TEXT }))
      .json.transaction_id;
    await statusOf(call, id, "completed");
    await receiver.arrived(2);
    expect(statusWhenDelivered).toBe("processing");
    expect(receiver.received.map((r) => r.path)).toEqual(["/mid", "/end"]);
    const [mid, end] = receiver.received.map((r) => JSON.parse(r.body));
    expect(mid).toMatchObject({ event: "transaction.step_reached", transaction_id: id, exports: { total_files: 0 } });
    expect(end.exports.total_files).toBe(1);
    // The receiver has the body before the server has its answer and marks the delivery succeeded.
    const deliveries = async () => (await call("GET", `/transactions/${id}/deliveries`)).json.deliveries as any[];
    const log = await waitFor("the deliveries marked", async () => {
      const all = await deliveries();
      return !all.some((d) => d.state === "pending" || d.state === "retrying") && all;
    });
    expect(log.map((d: any) => [d.node_id, d.event, d.state])).toEqual([
      ["mid", "reached", "succeeded"],
      ["end", "reached", "succeeded"],
    ]);
  });

  test("the default project's Notification node sends once only webhook_url is set", async () => {
    rx = startReceiver();
    const receiver = rx;
    const call = start({
      adminKey: KEY,
      prefix: "runner-default-node",
      runner: "core",
      workers: 2,
      webhooks: { publicBaseUrl: () => "http://docproc.test", allowPrivate: ["127.0.0.0/8"] },
    });
    const created = (await call("POST", "/tenants/default/projects", { name: "P" })).json;
    const workflow = created.settings.workflow.map((s: any) =>
      s.type === "notification" ? { ...s, activity: { webhook_url: receiver.url("/hook") } } : s,
    );
    expect(workflow.at(-1)).toMatchObject({ type: "notification", enabled: true });
    expect(
      (await call("PATCH", `/tenants/default/projects/${created.project_id}`, { settings: { workflow } })).status,
    ).toBe(200);
    const id = (
      await call("POST", `/tenants/default/projects/${created.project_id}/transactions/process`, { documentText: TEXT })
    ).json.transaction_id;
    await statusOf(call, id, "completed");
    await receiver.arrived(1);
    expect(receiver.received.map((r) => [r.path, JSON.parse(r.body).event])).toEqual([
      ["/hook", "transaction.step_reached"],
    ]);
    expect(defaultProject.workflow.at(-1)).toMatchObject({ type: "notification", activity: null, enabled: true });
  });
});
