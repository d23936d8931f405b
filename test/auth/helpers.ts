/** A docproc API on a real loopback port (127.0.0.1, port 0) over a temporary data directory, for auth tests. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { DEFAULT_AUTH_SETTINGS, type AuthSettings } from "../../src/auth/settings";
import { openDataDir, startWorkerRuntime } from "../../src/queue/runtime";
import { createApp } from "../../src/server/app";
import { DEFAULT_CONFIG, type ServerConfig } from "../../src/server/config";
import type { ServerDeps } from "../../src/server/deps";
import { createLongPoll } from "../../src/server/long-poll";
import { systemClock, type Clock } from "../../src/storage/clock";
import { fakeRunner } from "../server/helpers";

export const ADMIN = "auth-test-admin-key";

export interface Reply {
  status: number;
  json: any;
  headers: Headers;
}

export type AuthServer = Awaited<ReturnType<typeof startAuthServer>>;

export async function startAuthServer(opts: { auth?: Partial<AuthSettings>; clock?: Clock; dir?: string } = {}) {
  const dir = opts.dir ?? mkdtempSync(path.join(tmpdir(), "docproc-auth-"));
  const data = openDataDir(dir);
  const clock = opts.clock ?? systemClock;
  const runtime = startWorkerRuntime({ data, concurrency: 0, clock, runPipeline: fakeRunner });
  const config: ServerConfig = { ...DEFAULT_CONFIG, adminApiKey: ADMIN, longPollRecheckMs: 100, auth: { ...DEFAULT_AUTH_SETTINGS, ...opts.auth } };
  const deps: ServerDeps = {
    db: data.db,
    clock,
    blobs: data.blobs,
    notifier: runtime.notifier,
    config,
    exportsRoot: data.exportsRoot,
    workers: 1,
    wake: () => {},
    running: () => 0,
    ocrStatus: () => ({ status: "idle" }),
  };
  const longPoll = createLongPoll(data.db, runtime.notifier, config.longPollRecheckMs);
  const app = createApp(deps, longPoll);
  app.listen({ hostname: "127.0.0.1", port: 0 });
  const base = `http://127.0.0.1:${app.server!.port}`;

  async function call(method: string, url: string, headers: Record<string, string> = {}, body?: unknown): Promise<Reply> {
    const init: RequestInit = { method, headers: { ...headers } };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] = "application/json";
    }
    const res = await fetch(base + url, init);
    const text = await res.text();
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = text;
    }
    return { status: res.status, json, headers: res.headers };
  }

  return {
    base,
    dir,
    db: data.db,
    call,
    admin: (method: string, url: string, body?: unknown) => call(method, url, { "x-api-key": ADMIN }, body),
    withKey: (key: string) => (method: string, url: string, body?: unknown) => call(method, url, { "x-api-key": key }, body),
    /** Creates a client (admin API) and one key for it; returns the key. */
    async clientWithKey(clientId: string, fields: Record<string, unknown> = {}): Promise<{ key: string; keyId: string }> {
      const c = await call("POST", "/admin/clients", { "x-api-key": ADMIN }, { client_id: clientId, name: clientId, ...fields });
      if (c.status !== 201) throw new Error(`client ${clientId}: ${c.status} ${JSON.stringify(c.json)}`);
      const k = await call("POST", `/admin/clients/${clientId}/keys`, { "x-api-key": ADMIN }, { description: "test" });
      return { key: k.json.api_key, keyId: k.json.key_id };
    },
    async stop(opts: { keepDir?: boolean } = {}) {
      await app.stop();
      longPoll.close();
      await runtime.stop(false, 1000);
      data.db.close();
      if (!opts.keepDir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
