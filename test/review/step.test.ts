/**
 * The Review workflow step on the server, with the real runner and pipeline: a run pauses in awaiting_input at an
 * enabled Review node (steps after it wait: export, a Notification node); finishing the review resumes it from the
 * next step with the corrected documents; the timeout acts (continue or fail) on the injected clock; the default
 * project's node is disabled and never pauses.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mergeOverDefault } from "../../src/core/project";
import { startReceiver, type Receiver } from "../core/notify/receiver";
import { startReviewServer } from "./helpers";
import { waitFor } from "../support/wait";

let now = Date.parse("2026-11-24T08:00:00Z");
const clock = { now: () => now };
let s: Awaited<ReturnType<typeof startReviewServer>>;
let receiver: Receiver;

beforeAll(async () => {
  s = await startReviewServer({ prefix: "review-step", clock });
  receiver = startReceiver();
}, 120_000);
afterAll(async () => {
  receiver?.stop();
  await s?.stop();
});

const BASE_STEPS = [{ type: "split" }, { type: "classify" }, { type: "extract" }, { type: "validate" }];

async function projectWith(
  review: Record<string, unknown>,
  notify = false,
  settings: Record<string, unknown> = {},
): Promise<string> {
  const workflow = [
    ...BASE_STEPS,
    { type: "review", ...review },
    { type: "export" },
    ...(notify ? [{ type: "notification", id: "after-review", activity: { webhook_url: receiver.url("/hook") } }] : []),
  ];
  const r = await s.admin("POST", "/tenants/default/projects", {
    name: "reviewed",
    description: "",
    settings: mergeOverDefault({ ...settings, workflow }),
  });
  if (r.status !== 201) throw new Error(`project: ${r.status} ${JSON.stringify(r.json)}`);
  return r.json.project_id;
}

async function submitPdf(project: string): Promise<string> {
  const data = Buffer.from(
    await Bun.file(`${import.meta.dir}/../../fixtures/inbox/born-digital-invoice.pdf`).arrayBuffer(),
  ).toString("base64");
  const r = await s.admin("POST", `/tenants/default/projects/${project}/transactions/process`, {
    source_files: [{ filename: "invoice.pdf", base64_data: data }],
  });
  expect(r.status).toBe(202);
  return r.json.transaction_id;
}

describe("the Review step", () => {
  test("pauses in awaiting_input before Export and the notification; finishing resumes with the corrected values; reached fires only then", async () => {
    const project = await projectWith(
      { enabled: true, when: "always", instructions: "Check the invoice number" },
      true,
    );
    const id = await submitPdf(project);
    const paused = await s.waitFor(id, ["awaiting_input", "completed", "failed"]);
    expect(paused).toMatchObject({
      status: "awaiting_input",
      review_metadata: { step_name: "review", instructions: "Check the invoice number", timeout_hours: 24 },
    });
    expect((await s.admin("GET", `/transactions/${id}/exports`)).json.total_files).toBe(0); // Export waits
    // So does the notification: one reached before the pause would already be in the delivery log (deliveries are
    // logged when their node is reached), so an empty log proves it without waiting for a request that never comes.
    expect((await s.admin("GET", `/transactions/${id}/deliveries`)).json.deliveries).toEqual([]);
    expect(receiver.received.filter((r) => r.body.includes(id))).toHaveLength(0);

    let view = (await s.admin("GET", `/transactions/${id}/review`)).json;
    const doc = view.documents[0];
    view = (
      await s.admin("POST", `/transactions/${id}/review`, {
        version: view.version,
        action: "set_field",
        document_id: doc.document_id,
        field_id: "invoice_number",
        value: "INV-REVIEWED",
      })
    ).json;
    const done = await s.admin("POST", `/transactions/${id}/review`, { version: view.version, action: "finish" });
    expect(done.json).toEqual(expect.objectContaining({ finished: true }));
    expect(done.status).toBe(200);
    const finished = await s.waitFor(id, ["completed", "failed"]);
    expect(finished.status).toBe("completed");
    const manifest = (await s.admin("GET", `/transactions/${id}/exports`)).json;
    const exported = (
      await s.admin("GET", `/transactions/${id}/exports/download/${manifest.profiles.json.files[0].filename}`)
    ).json;
    expect(exported.documents[0].fields.invoice_number).toMatchObject({ value: "INV-REVIEWED", is_confirmed: true });
    expect(exported.transaction.last_human_review).toMatchObject({
      reviewed: true,
      finished: true,
      reviewer: { id: "admin" },
    });
    const hooks = await waitForHook(id);
    expect(hooks).toHaveLength(1);
    expect(JSON.parse(hooks[0]!.body)).toMatchObject({
      event: "transaction.step_reached",
      transaction_id: id,
      exports: { total_files: 1 },
    });
  }, 120_000);

  test("the default project keeps the node present but disabled: nothing pauses", async () => {
    const r = await s.admin("POST", "/tenants/default/projects", { name: "plain", description: "" });
    const review = r.json.settings.workflow.find((n: any) => n.type === "review");
    expect(review).toMatchObject({ type: "review", enabled: false });
    const id = await submitPdf(r.json.project_id);
    expect((await s.waitFor(id, ["awaiting_input", "completed", "failed"])).status).toBe("completed");
  }, 120_000);

  test("when review_required passes a document nobody needs to check; classes limits the check", async () => {
    // The sample invoice's one uncertain field is its bank account (no IBAN: no checksum to confirm it, read at
    // ~0.57); below that threshold nothing on it needs a person.
    const project = await projectWith({ enabled: true, when: "review_required" }, false, {
      review_thresholds: { field: 0.5 },
    });
    expect((await s.waitFor(await submitPdf(project), ["awaiting_input", "completed", "failed"])).status).toBe(
      "completed",
    );
    const other = await projectWith({ enabled: true, when: "always", classes: ["letter"] });
    expect((await s.waitFor(await submitPdf(other), ["awaiting_input", "completed", "failed"])).status).toBe(
      "completed",
    );
  }, 120_000);

  test("timeout_action fail: after timeout_hours the transaction fails with a clear error_message", async () => {
    const project = await projectWith({ enabled: true, when: "always", timeout_hours: 2, timeout_action: "fail" });
    const id = await submitPdf(project);
    expect((await s.waitFor(id, ["awaiting_input"])).review_metadata).toMatchObject({
      timeout_hours: 2,
      timeout_action: "fail",
    });
    now += 60 * 60_000; // one hour: nothing yet
    s.t.runtime.pool.wake();
    await Bun.sleep(500);
    expect((await s.admin("GET", `/transactions/${id}`)).json.status).toBe("awaiting_input");
    now += 61 * 60_000;
    s.t.runtime.pool.wake();
    const failed = await s.waitFor(id, ["failed", "completed"]);
    expect(failed.status).toBe("failed");
    expect(failed.error_message).toBe("Review not finished within 2 hours (review step, timeout_action: fail)");
  }, 120_000);

  test("timeout_action continue (the default): the workflow goes on with what the review has so far", async () => {
    const project = await projectWith({ enabled: true, when: "always", timeout_hours: 1 });
    const id = await submitPdf(project);
    await s.waitFor(id, ["awaiting_input"]);
    const view = (await s.admin("GET", `/transactions/${id}/review`)).json;
    await s.admin("POST", `/transactions/${id}/review`, {
      version: view.version,
      action: "confirm_field",
      document_id: view.documents[0].document_id,
      field_id: "total_amount",
    });
    now += 61 * 60_000;
    s.t.runtime.pool.wake();
    expect((await s.waitFor(id, ["completed", "failed"])).status).toBe("completed");
    const manifest = (await s.admin("GET", `/transactions/${id}/exports`)).json;
    const exported = (
      await s.admin("GET", `/transactions/${id}/exports/download/${manifest.profiles.json.files[0].filename}`)
    ).json;
    expect(exported.documents[0].fields.total_amount.is_confirmed).toBe(true);
  }, 120_000);
});

async function waitForHook(id: string) {
  const hits = () => receiver.received.filter((r) => r.body.includes(id));
  return waitFor(`the webhook of ${id}`, () => hits().length > 0 && hits(), { timeoutMs: 10_000 }).catch(() => []);
}
