/** A docproc server with the real pipeline (embedded OCR) on a loopback port, for review API and browser tests. */
import { resolve } from "node:path";
import { corePipelineRunner } from "../../src/queue/pipeline-runner";
import type { Clock } from "../../src/core/clock";
import { buildTestApp } from "../support/app";
import { jsonOrText, requestInit } from "../support/http";

export const ADMIN = "review-test-admin-key";
export const FIXTURES = resolve(import.meta.dir, "../../fixtures");

export interface Reply {
  status: number;
  json: any;
  headers: Headers;
}

export async function startReviewServer(opts: { prefix?: string; clock?: Clock } = {}) {
  const runner = corePipelineRunner({ engine: "wasm", ocrWorkers: 1 });
  let base = "";
  const t = buildTestApp({
    adminKey: ADMIN,
    prefix: opts.prefix ?? "review",
    runner: runner.run,
    workers: 1,
    clock: opts.clock,
    webhooks: { publicBaseUrl: () => base, allowPrivate: ["127.0.0.0/8"] },
  });
  base = t.listen();
  const call = async (
    method: string,
    url: string,
    headers: Record<string, string> = {},
    body?: unknown,
  ): Promise<Reply> => {
    const res = await fetch(base + url, requestInit(method, headers, body));
    return { status: res.status, json: jsonOrText(await res.text()), headers: res.headers };
  };
  const admin = (method: string, url: string, body?: unknown) => call(method, url, { "x-api-key": ADMIN }, body);
  return {
    base,
    t,
    call,
    admin,
    withKey: (key: string) => (method: string, url: string, body?: unknown) =>
      call(method, url, { "x-api-key": key }, body),
    async clientWithKey(clientId: string, fields: Record<string, unknown> = {}): Promise<string> {
      const c = await admin("POST", "/admin/clients", { client_id: clientId, name: clientId, ...fields });
      if (c.status !== 201) throw new Error(`client ${clientId}: ${c.status} ${JSON.stringify(c.json)}`);
      return (await admin("POST", `/admin/clients/${clientId}/keys`, { description: "test" })).json.api_key;
    },
    /** Waits until the transaction's status is one of `statuses`. */
    async waitFor(id: string, statuses: string[]): Promise<any> {
      for (let i = 0; i < 600; i++) {
        const r = await admin("GET", `/transactions/${id}?timeout=2`);
        if (statuses.includes(r.json.status)) return r.json;
      }
      throw new Error(`transaction ${id} never reached ${statuses.join("/")}`);
    },
    /** Submits one fixture file through the one-step call and waits until it leaves processing. */
    async submit(
      tenant: string,
      project: string,
      file: string,
      as: (m: string, u: string, b?: unknown) => Promise<Reply> = admin,
    ): Promise<string> {
      const data = Buffer.from(await Bun.file(resolve(FIXTURES, file)).arrayBuffer()).toString("base64");
      const r = await as("POST", `/tenants/${tenant}/projects/${project}/transactions/process`, {
        source_files: [{ filename: file.split("/").pop(), base64_data: data }],
      });
      if (r.status !== 202 && r.status !== 200 && r.status !== 201)
        throw new Error(`submit: ${r.status} ${JSON.stringify(r.json)}`);
      const id = r.json.transaction_id as string;
      for (let i = 0; i < 600; i++) {
        const s = await admin("GET", `/transactions/${id}?timeout=5`);
        if (!["queued", "processing", "created"].includes(s.json.status)) return id;
      }
      throw new Error(`transaction ${id} did not finish`);
    },
    async stop() {
      await t.close();
      await runner.close();
    },
  };
}
