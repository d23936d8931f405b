/**
 * Memory over the API, with the real pipeline on a loopback server (docs/memory.md): a document confirmed through
 * the review API teaches the project; the vendor's next documents are read at the remembered places (header fields
 * ≥ 98%, the figure of a project without memory printed beside); a `memory` dataset submission with expected values
 * teaches too; the playground never teaches; memories are listed, inspected, forgotten, and travel with the settings.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { corePipelineRunner } from "../../src/queue/pipeline-runner";
import { sameValue } from "../../src/eval/score";
import { buildTestApp, type TestApp } from "../support/app";
import { requestInit } from "../support/http";
import { northwind } from "../../fixtures/vendor-series/series";

const ADMIN = "memory-admin-key";
let t: TestApp;
let base: string;
let runner: ReturnType<typeof corePipelineRunner>;
const series = northwind(424242, 9);

async function call(method: string, url: string, body?: unknown) {
  const res = await fetch(base + url, requestInit(method, { "x-api-key": ADMIN }, body));
  const text = await res.text();
  return { status: res.status, json: text ? JSON.parse(text) : null };
}

async function waitDone(id: string) {
  for (let i = 0; i < 200; i++) {
    const s = await call("GET", `/transactions/${id}?timeout=5`);
    if (s.json.status === "completed" || s.json.status === "failed") return s.json;
  }
  throw new Error(`${id} did not finish`);
}

async function processText(project: string, text: string) {
  const r = await call("POST", `/tenants/default/projects/${project}/transactions/process`, { documentText: text });
  expect(r.status).toBe(202);
  expect((await waitDone(r.json.transaction_id)).status).toBe("completed");
  return {
    id: r.json.transaction_id as string,
    doc: (await call("GET", `/transactions/${r.json.transaction_id}/documents`)).json.documents[0],
  };
}

/** Create in a dataset → upload a .txt → start (metadata carries expected values for the memory dataset). */
async function submitIn(project: string, dataset: string, text: string, metadata: Record<string, unknown> = {}) {
  const c = await call("POST", `/tenants/default/projects/${project}/transactions`, { dataset_id: dataset, metadata });
  expect(c.status).toBe(201);
  const f = new FormData();
  f.append("files", new File([text], "doc.txt", { type: "text/plain" }));
  expect(
    (
      await fetch(`${base}/transactions/${c.json.transaction_id}/source-files`, {
        method: "POST",
        headers: { "x-api-key": ADMIN },
        body: f,
      })
    ).status,
  ).toBeLessThan(300);
  expect((await call("POST", `/transactions/${c.json.transaction_id}/start`)).status).toBe(200);
  expect((await waitDone(c.json.transaction_id)).status).toBe("completed");
  return c.json.transaction_id as string;
}

/** Sets every truth value through the review API, then finishes the review. */
async function confirm(id: string, truth: Record<string, string | number>) {
  let view = (await call("GET", `/transactions/${id}/review`)).json;
  const doc = view.documents[0].document_id;
  for (const [field, value] of Object.entries(truth)) {
    const r = await call("POST", `/transactions/${id}/review`, {
      version: view.version,
      action: "set_field",
      document_id: doc,
      field_id: field,
      value: String(value),
    });
    expect(r.status).toBe(200);
    view = r.json;
  }
  expect((await call("POST", `/transactions/${id}/review`, { version: view.version, action: "finish" })).status).toBe(
    200,
  );
}

const memories = async (project: string) =>
  (await call("GET", `/tenants/default/projects/${project}/memories`)).json.items as Array<{
    memory_id: string;
    source: string;
    class_id: string;
  }>;

function score(
  docs: Array<{ truth: Record<string, string | number> }>,
  results: Array<{ fields: Record<string, { value: unknown }> }>,
) {
  let ok = 0,
    n = 0;
  docs.forEach((d, i) => {
    for (const [k, v] of Object.entries(d.truth)) {
      n++;
      if (sameValue(v, results[i]!.fields[k]?.value as never, typeof v === "number" ? "amount" : undefined)) ok++;
    }
  });
  return { ok, n };
}

let taught: string;
let plain: string;

beforeAll(async () => {
  runner = corePipelineRunner({ engine: "wasm", ocrWorkers: 1 });
  t = buildTestApp({ adminKey: ADMIN, prefix: "memory", runner: runner.run, workers: 1 });
  base = t.listen();
  taught = (await call("POST", "/tenants/default/projects", { name: "taught", description: "" })).json.project_id;
  plain = (await call("POST", "/tenants/default/projects", { name: "plain", description: "" })).json.project_id;
}, 60_000);
afterAll(async () => {
  await t?.close();
  await runner?.close();
});

describe("memory over the API", () => {
  test("one document confirmed through the review API: the vendor's next documents ≥ 98% right, beside the figure without memory", async () => {
    const [first, ...rest] = series;
    const reviewed = await processText(taught, first!.text);
    await confirm(reviewed.id, first!.truth);
    const learned = await memories(taught);
    expect(learned).toHaveLength(1);
    expect(learned[0]).toMatchObject({ source: "review", class_id: "invoice" });
    const withMemory = [],
      without = [];
    for (const d of rest) {
      withMemory.push((await processText(taught, d.text)).doc);
      without.push((await processText(plain, d.text)).doc);
    }
    const [a, b] = [score(rest, withMemory), score(rest, without)];
    console.log(
      `API, after one review confirmation: ${rest.length} documents, header fields with memory ${a.ok}/${a.n} = ${((100 * a.ok) / a.n).toFixed(1)}%, without ${b.ok}/${b.n} = ${((100 * b.ok) / b.n).toFixed(1)}%`,
    );
    expect(a.ok / a.n).toBeGreaterThanOrEqual(0.98);
    expect(b.ok / b.n).toBeLessThan(0.8);
    expect(withMemory[0].fields.invoice_number.reasoning).toMatch(
      /^as on the document confirmed on \d{4}-\d{2}-\d{2} \(issuer recognised by VAT ID BE0412345678/,
    );
  }, 600_000);

  test("a memory-dataset submission with expected values teaches; the playground never does", async () => {
    const before = (await memories(taught)).length;
    const expected = { documents: [{ class_id: "invoice", fields: series[1]!.truth }] };
    await submitIn(taught, "playground", series[1]!.text, { expected });
    const play = await processText(taught, series[2]!.text);
    expect(play.doc).toBeTruthy();
    expect(await memories(taught)).toHaveLength(before);
    await submitIn(taught, "memory", series[1]!.text, { expected });
    const after = await memories(taught);
    // A further confirmation of the same vendor refines its memory rather than adding a rival one (issue 33).
    expect(after).toHaveLength(before);
    expect(after[after.length - 1]!).toMatchObject({ source: "memory", confirmations: 2 });
  }, 300_000);

  test("a playground transaction confirmed through review teaches nothing", async () => {
    const before = (await memories(taught)).length;
    const id = await submitIn(taught, "playground", series[3]!.text);
    await confirm(id, { invoice_number: series[3]!.truth.invoice_number! });
    expect(await memories(taught)).toHaveLength(before);
  }, 300_000);

  test("inspect, travel with the settings to another project, forget", async () => {
    const list = await memories(taught);
    const one = await call("GET", `/tenants/default/projects/${taught}/memories/${list[0]!.memory_id}`);
    expect(one.status).toBe(200);
    expect(one.json.issuer.vat_ids).toEqual(["BE0412345678"]);
    expect(one.json.fields.invoice_number).toMatchObject({ label: "Ref. doc", relation: "right", shape: "A/9/A" });
    // Export the project's settings and import them as a new project: the memories come along and work there.
    const settings = (await call("GET", `/tenants/default/projects/${taught}`)).json.settings;
    const copy = (await call("POST", "/tenants/default/projects", { name: "copy", description: "", settings })).json
      .project_id;
    expect((await memories(copy)).map((m) => m.memory_id)).toEqual(list.map((m) => m.memory_id));
    expect((await processText(copy, series[4]!.text)).doc.fields.invoice_number.value).toBe(
      series[4]!.truth.invoice_number,
    );
    // Forget every memory of the copy: its documents are read by the general extractor alone again.
    for (const m of list)
      expect((await call("DELETE", `/tenants/default/projects/${copy}/memories/${m.memory_id}`)).status).toBe(204);
    expect((await call("DELETE", `/tenants/default/projects/${copy}/memories/${list[0]!.memory_id}`)).status).toBe(404);
    expect(await memories(copy)).toEqual([]);
    const after = (await processText(copy, series[4]!.text)).doc;
    expect(
      Object.values(after.fields).some((f: any) => String(f.reasoning).startsWith("as on the document confirmed")),
    ).toBe(false);
    expect((await memories(taught)).length).toBe(list.length);
  }, 300_000);

  test("eval over an evaluation dataset: completed transactions with metadata.expected, JSON and HTML report", async () => {
    const ds = (await call("POST", `/tenants/default/projects/${plain}/datasets`, { name: "northwind" })).json
      .dataset_id;
    for (const d of series.slice(5, 7))
      await submitIn(plain, ds, d.text, { expected: { documents: [{ class_id: "invoice", fields: d.truth }] } });
    await submitIn(plain, ds, series[7]!.text);
    const r = await call("GET", `/tenants/default/projects/${plain}/datasets/${ds}/evaluation`);
    expect(r.status).toBe(200);
    // The plain project (no memory) reads 7 of the 10 header fields of this vendor: not the invoice number, the
    // subtotal or the tax (the due date after "Settle by" is read as a payment deadline, extract/payment-deadline.ts).
    expect(r.json).toMatchObject({
      name: "northwind",
      files: 2,
      documents: 2,
      transactions_without_expected: 1,
      overall: { correct: 14, total: 20 },
    });
    const byField = (name: string) => r.json.fields.find((f: { field: string }) => f.field === name);
    for (const name of ["invoice_number", "subtotal_amount", "tax_amount"])
      expect(byField(name)).toMatchObject({ correct: 0, total: 2 });
    expect(byField("due_date")).toMatchObject({ correct: 2, total: 2 });
    expect(r.json.classes).toMatchObject({ labels: ["invoice"], matrix: [[2]] });
    const html = await fetch(`${base}/tenants/default/projects/${plain}/datasets/${ds}/evaluation?format=html`, {
      headers: { "x-api-key": ADMIN },
    });
    expect(html.headers.get("content-type")).toStartWith("text/html");
    expect(await html.text()).toContain('<svg data-chart="fields"');
    expect(
      (await call("GET", `/tenants/default/projects/${plain}/datasets/${crypto.randomUUID()}/evaluation`)).status,
    ).toBe(404);
    // An evaluation dataset never teaches.
    expect(await memories(plain)).toEqual([]);
  }, 300_000);
});
