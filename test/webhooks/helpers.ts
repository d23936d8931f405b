/**
 * A docproc API with its worker pool on a real loopback port over a temporary data directory, for webhook tests.
 * The pipeline is the server tests' fake runner (two export files); deliveries are the real queue code, real SQLite
 * and real HTTP to a loopback receiver (allowed through the allow-list unless a test turns it off).
 */
import { createHmac } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { AllowPrivate } from "../../src/core/notify/ssrf";
import { mergeOverDefault } from "../../src/core/project";
import type { PipelineRunner } from "../../src/queue/pipeline-runner";
import type { Clock } from "../../src/core/clock";
import { buildTestApp } from "../support/app";
import { requestInit } from "../support/http";
import { waitFor } from "../support/wait";

export const ADMIN = "webhook-test-admin-key";

export interface Reply {
  status: number;
  json: any;
}

export async function startHookServer(
  opts: { allow?: AllowPrivate; runner?: PipelineRunner; workers?: number; clock?: Clock } = {},
) {
  let base = "";
  const t = buildTestApp({
    adminKey: ADMIN,
    prefix: "webhooks",
    runner: opts.runner,
    workers: opts.workers ?? 2,
    clock: opts.clock,
    slots: 2,
    webhooks: { publicBaseUrl: () => base, allowPrivate: opts.allow ?? ["127.0.0.0/8"] },
  });
  base = t.listen();

  async function call(method: string, url: string, body?: unknown, key = ADMIN): Promise<Reply> {
    const res = await fetch(base + url, requestInit(method, { "x-api-key": key }, body));
    const text = await res.text();
    return { status: res.status, json: text ? JSON.parse(text) : null };
  }

  return {
    base,
    db: t.data.db,
    call,
    /** A project in tenant `default` whose workflow ends with the given Notification activities after Export. */
    async project(...activities: Array<Record<string, unknown>>): Promise<string> {
      const workflow = [
        { type: "export" },
        ...activities.map((activity, i) => ({ type: "notification", id: `notify-${i + 1}`, activity })),
      ];
      const r = await call("POST", "/tenants/default/projects", {
        name: "hooks",
        description: "",
        settings: mergeOverDefault({ workflow }),
      });
      if (r.status !== 201) throw new Error(`project: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json.project_id;
    },
    /** Submits a one-step transaction (documentText) and returns its id. */
    async submit(projectId: string, metadata: Record<string, unknown> = {}): Promise<string> {
      const r = await call("POST", `/tenants/default/projects/${projectId}/transactions/process`, {
        documentText: "Invoice 1",
        metadata,
      });
      if (r.status !== 202) throw new Error(`process: ${r.status} ${JSON.stringify(r.json)}`);
      return r.json.transaction_id;
    },
    deliveries: async (id: string, key = ADMIN) => call("GET", `/transactions/${id}/deliveries`, undefined, key),
    async clientKey(clientId: string, fields: Record<string, unknown> = {}): Promise<string> {
      const c = await call("POST", "/admin/clients", { client_id: clientId, name: clientId, ...fields });
      if (c.status !== 201) throw new Error(`client: ${c.status} ${JSON.stringify(c.json)}`);
      return (await call("POST", `/admin/clients/${clientId}/keys`, { description: "test" })).json.api_key;
    },
    stop: () => t.close(),
  };
}

export type HookServer = Awaited<ReturnType<typeof startHookServer>>;

/** Answers with the given statuses in order, counting from now (the shared receiver's own count spans tests). */
export function inOrder(...codes: number[]): (req: Request) => Response {
  let n = 0;
  return () => {
    const status = codes[Math.min(n++, codes.length - 1)]!;
    return new Response(status === 204 ? null : `status ${status}`, { status });
  };
}

/** Polls `read` until `done` holds (or throws after `ms`: a ceiling for a loaded machine, not a measurement). */
export async function until<T>(read: () => Promise<T> | T, done: (v: T) => boolean, ms = 60_000): Promise<T> {
  let last: T | undefined;
  return waitFor(
    "a condition",
    async () => {
      last = await read();
      return done(last) && { value: last };
    },
    { timeoutMs: ms, everyMs: 25 },
  )
    .then((hit) => hit.value)
    .catch((err: Error) => {
      throw err.message.startsWith("timed out")
        ? new Error(`timed out waiting; last value: ${JSON.stringify(last)}`)
        : err;
    });
}

/** Both verifications a receiver does: X-Service-Signature with node:crypto, Standard Webhooks with its package. */
export function verifySignatures(secret: string, headers: Record<string, string>, body: string): unknown {
  const expected = "sha256=" + createHmac("sha256", secret).update(Buffer.from(body)).digest("hex");
  if (headers["x-service-signature"] !== expected)
    throw new Error(`bad X-Service-Signature ${headers["x-service-signature"]}`);
  const whsec = secret.startsWith("whsec_") ? secret : "whsec_" + Buffer.from(secret, "utf8").toString("base64");
  return new Webhook(whsec).verify(body, headers);
}
