/** A docproc API on a real loopback port (127.0.0.1, port 0) over a temporary data directory, for auth tests. */
import type { AuthSettings } from "../../src/auth/settings";
import type { Clock } from "../../src/core/clock";
import { buildTestApp } from "../support/app";
import { jsonOrText, requestInit } from "../support/http";

export const ADMIN = "auth-test-admin-key";

export interface Reply {
  status: number;
  json: any;
  headers: Headers;
}

export type AuthServer = Awaited<ReturnType<typeof startAuthServer>>;

export async function startAuthServer(opts: { auth?: Partial<AuthSettings>; clock?: Clock; dir?: string } = {}) {
  const t = buildTestApp({
    adminKey: ADMIN,
    prefix: "auth",
    dir: opts.dir,
    clock: opts.clock,
    auth: opts.auth,
    wirePool: false,
  });
  const base = t.listen();

  async function call(
    method: string,
    url: string,
    headers: Record<string, string> = {},
    body?: unknown,
  ): Promise<Reply> {
    const res = await fetch(base + url, requestInit(method, headers, body));
    return { status: res.status, json: jsonOrText(await res.text()), headers: res.headers };
  }

  return {
    base,
    dir: t.dir,
    db: t.data.db,
    call,
    admin: (method: string, url: string, body?: unknown) => call(method, url, { "x-api-key": ADMIN }, body),
    withKey: (key: string) => (method: string, url: string, body?: unknown) =>
      call(method, url, { "x-api-key": key }, body),
    /** Creates a client (admin API) and one key for it; returns the key. */
    async clientWithKey(
      clientId: string,
      fields: Record<string, unknown> = {},
    ): Promise<{ key: string; keyId: string }> {
      const c = await call(
        "POST",
        "/admin/clients",
        { "x-api-key": ADMIN },
        { client_id: clientId, name: clientId, ...fields },
      );
      if (c.status !== 201) throw new Error(`client ${clientId}: ${c.status} ${JSON.stringify(c.json)}`);
      const k = await call("POST", `/admin/clients/${clientId}/keys`, { "x-api-key": ADMIN }, { description: "test" });
      return { key: k.json.api_key, keyId: k.json.key_id };
    },
    stop: (stopOpts: { keepDir?: boolean } = {}) => t.close(stopOpts),
  };
}
