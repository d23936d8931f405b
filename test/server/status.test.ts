import { afterEach, describe, expect, test } from "bun:test";
import { fakeClock } from "../../src/core/clock";
import * as tx from "../../src/storage/transactions/transactions";
import { form, testApp } from "./helpers";
import { waitFor } from "../support/wait";

let t: ReturnType<typeof testApp>;
afterEach(async () => t?.close());

/** Creates a project and `n` completed transactions via the one-step call and the worker. */
async function seed(files: string[][]) {
  const pid = (await t.call("POST", "/tenants/default/projects", { name: "P" })).json.project_id;
  const ids: string[] = [];
  for (const [i, names] of files.entries()) {
    const r = await t.call("POST", `/tenants/default/projects/${pid}/transactions/process`, {
      correlation_id: `corr-${i}`,
      metadata: { customer: i % 2 ? "acme" : "globex" },
      source_files: names.map((n) => ({ filename: n, base64_data: Buffer.from(n).toString("base64") })),
    });
    ids.push(r.json.transaction_id);
  }
  while (await t.runtime.pool.runOnce()) {}
  return { pid, ids };
}

describe("GET /transactions/{id}", () => {
  test("projects fields with dot notation and includes the request only for completed transactions", async () => {
    t = testApp();
    const { ids } = await seed([["a.pdf"]]);
    const r = await t.call(
      "GET",
      `/transactions/${ids[0]}?fields=status,metadata.progress.completion_percentage,metadata.customer`,
    );
    expect(r.json).toEqual({
      transaction_id: ids[0],
      status: "completed",
      metadata: { progress: { completion_percentage: 100 }, customer: "globex" },
    });
    const full = await t.call("GET", `/transactions/${ids[0]}?include_request=true`);
    expect(full.json.request.source_files.map((f: any) => f.filename)).toEqual(["a.pdf"]);
    expect(full.json.request.correlation_id).toBe("corr-0");
    expect((await t.call("GET", `/transactions/${ids[0]}?fields=bad field`)).status).toBe(400);
    expect((await t.call("GET", `/transactions/00000000-0000-0000-0000-000000000000`)).status).toBe(404);
  });

  test("a failed transaction shows error_message", async () => {
    t = testApp({
      runner: async () => {
        throw new Error("boom");
      },
    });
    const { ids } = await seed([["a.pdf"]]);
    expect((await t.call("GET", `/transactions/${ids[0]}`)).json).toMatchObject({
      status: "failed",
      error_message: "boom",
    });
  });

  test("progress without worker-written metadata follows the status (created 0 %, completed 100 %), and reads do not share state", async () => {
    t = testApp({ workers: 0 });
    const pid = (await t.call("POST", "/tenants/default/projects", { name: "P" })).json.project_id;
    const a = (await t.call("POST", `/tenants/default/projects/${pid}/transactions`, { metadata: { k: 1 } })).json
      .transaction_id;
    const b = (await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {})).json.transaction_id;
    const created = (await t.call("GET", `/transactions/${a}`)).json.metadata;
    expect(created).toMatchObject({
      k: 1,
      progress: { completion_percentage: 0 },
      step_progress: { current_step: "created" },
    });
    // A transaction finished by an older version (or imported) has no progress in its metadata.
    tx.markCompleted(t.data.db, b, new Date().toISOString(), 1);
    const done = (await t.call("GET", `/transactions/${b}`)).json.metadata;
    expect(done.progress.completion_percentage).toBe(100);
    expect(done.step_progress.current_step).toBe("completed");
    expect(Object.values(done.step_progress.steps).every((s: any) => s.status === "completed")).toBe(true);
    expect((await t.call("GET", `/transactions/${a}`)).json.metadata).toEqual(created);
  });

  // The long poll's timeout and DB re-check run on the injected clock: the clock never moves unless a test moves it,
  // so "answered without the clock moving" proves the notifier woke it, on any machine.
  const heldPoll = async (clock: ReturnType<typeof fakeClock>, recheckMs?: number) => {
    t = testApp({ workers: 0, clock, config: recheckMs ? { longPollRecheckMs: recheckMs } : {} });
    const pid = (await t.call("POST", "/tenants/default/projects", { name: "P" })).json.project_id;
    const id = (await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {})).json.transaction_id;
    await t.call("POST", `/transactions/${id}/source-files`, form([{ name: "a.pdf", body: "a" }]));
    let answered = false;
    const poll = t.call("GET", `/transactions/${id}?timeout=10`).then((r) => ((answered = true), r));
    await waitFor("the request to reach the wait", () => t.longPoll.waiting() > 0, { everyMs: 5 });
    return { id, poll, answered: () => answered };
  };

  test("a long poll returns after a status change made in this process, with no time passing", async () => {
    const clock = fakeClock();
    const { id, poll } = await heldPoll(clock, 60_000);
    const before = clock.now();
    await t.call("POST", `/transactions/${id}/start`);
    expect((await poll).json.status).toBe("queued");
    expect(clock.now()).toBe(before);
  });

  test("a long poll sees a change made by another process at the next DB re-check", async () => {
    const clock = fakeClock();
    const { id, poll, answered } = await heldPoll(clock, 100);
    tx.markQueued(t.deps.db, id, new Date(clock.now()).toISOString()); // no notifier: as if a worker process wrote it
    await clock.tick(99);
    expect(answered()).toBe(false);
    expect(t.longPoll.waiting()).toBe(1);
    await clock.tick(1);
    expect((await poll).json.status).toBe("queued");
  });

  test("a long poll holds for its timeout when nothing changes", async () => {
    const clock = fakeClock();
    const { poll, answered } = await heldPoll(clock);
    await clock.tick(9_999);
    expect(answered()).toBe(false);
    expect(t.longPoll.waiting()).toBe(1);
    await clock.tick(1);
    expect((await poll).json.status).toBe("created");
    expect(t.longPoll.waiting()).toBe(0);
  });
});

describe("batch status", () => {
  test("answers statuses keyed by id, marks unknown ids, and refuses more than 100", async () => {
    t = testApp();
    const { ids } = await seed([["a.pdf"], ["b.pdf"]]);
    const r = await t.call("POST", "/transactions/batch-status", {
      transaction_ids: [...ids, "nope"],
      fields: "status",
    });
    expect(r.json.statuses).toEqual({
      [ids[0]!]: { transaction_id: ids[0], status: "completed" },
      [ids[1]!]: { transaction_id: ids[1], status: "completed" },
      nope: { transaction_id: "nope", error: "not_found" },
    });
    const many = await t.call("POST", "/transactions/batch-status", {
      transaction_ids: Array.from({ length: 101 }, (_, i) => `id-${i}`),
    });
    expect(many.status).toBe(400);
    expect(many.json.detail).toContain("transaction_ids");
  });
});

describe("GET /transactions", () => {
  test("lists with the documented shape, status/search/sort/paging filters", async () => {
    t = testApp();
    const { ids } = await seed([["alpha.pdf"], ["beta.pdf"], ["gamma.pdf"]]);
    const all = await t.call("GET", "/transactions?sort_by=created_at&sort_order=asc&limit=2");
    expect(all.json).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(all.json.items.map((i: any) => i.transaction_id)).toEqual(ids.slice(0, 2));
    expect((await t.call("GET", "/transactions?search=beta")).json.items.map((i: any) => i.transaction_id)).toEqual([
      ids[1],
    ]);
    expect((await t.call("GET", "/transactions?search=corr-2")).json.total).toBe(1);
    expect((await t.call("GET", "/transactions?search=INV-gamma")).json.total).toBe(1);
    expect((await t.call("GET", "/transactions?status=completed,failed")).json.total).toBe(3);
    expect((await t.call("GET", "/transactions?status=queued")).json.total).toBe(0);
    expect((await t.call("GET", "/transactions?dataset_id=playground")).json.total).toBe(0);
    const byIdx = await t.call("GET", "/transactions?sort_by=idx_invoice_number&sort_order=desc");
    expect(byIdx.json.items.map((i: any) => i.transaction_id)).toEqual([ids[2], ids[1], ids[0]]);
    expect((await t.call("GET", "/transactions?offset=2")).json.items).toHaveLength(1);
  });

  test("filters by inclusive dates, index_filter and filter_expression", async () => {
    t = testApp();
    const { ids } = await seed([["alpha.pdf"], ["beta.pdf"]]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await t.call("GET", `/transactions?date_from=${today}&date_to=${today}`)).json.total).toBe(2);
    expect((await t.call("GET", `/transactions?date_to=2000-01-01`)).json.total).toBe(0);
    const idx = encodeURIComponent(JSON.stringify({ invoice_number: ["INV-beta.pdf"] }));
    expect(
      (await t.call("GET", `/transactions?index_filter=${idx}`)).json.items.map((i: any) => i.transaction_id),
    ).toEqual([ids[1]]);
    const expr = {
      or: [
        { field: "metadata.customer", op: "eq", value: "acme" },
        {
          and: [
            { field: "file_name", op: "starts_with", value: "alp" },
            { not: { field: "status", op: "eq", value: "failed" } },
          ],
        },
      ],
    };
    const r = await t.call(
      "GET",
      `/transactions?sort_order=asc&filter_expression=${encodeURIComponent(JSON.stringify(expr))}`,
    );
    expect(r.json.total).toBe(2);
    const onlyAcme = { field: "metadata.customer", op: "in", value: ["acme"] };
    expect(
      (
        await t.call(
          "GET",
          `/transactions?status=failed&filter_expression=${encodeURIComponent(JSON.stringify(onlyAcme))}`,
        )
      ).json.items.map((i: any) => i.transaction_id),
    ).toEqual([ids[1]]);
  });

  test("rejects bad list parameters naming them", async () => {
    t = testApp();
    const bad = async (q: string) => (await t.call("GET", `/transactions?${q}`)).json.detail as string;
    expect(await bad("status=done")).toContain("status");
    expect(await bad("sort_by=color")).toContain("sort_by");
    expect(await bad("limit=0")).toContain("limit");
    expect(await bad("date_from=yesterday")).toContain("date_from");
    expect(await bad("index_filter=[1]")).toContain("index_filter");
    const expr = encodeURIComponent(
      JSON.stringify({
        and: [
          { field: "status", op: "eq", value: "x" },
          { field: "status", op: "like", value: "x" },
        ],
      }),
    );
    expect(await bad(`filter_expression=${expr}`)).toContain("filter_expression.and[1].op");
    const field = encodeURIComponent(JSON.stringify({ field: "password", op: "eq", value: "x" }));
    expect(await bad(`filter_expression=${field}`)).toContain("unknown field");
  });
});
