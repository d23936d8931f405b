/**
 * `docproc serve` as a real process: limits read from the environment, counters that survive a graceful restart
 * and a SIGKILL (each count is committed before its request is answered), and a key created over HTTP working
 * across restarts.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import path from "node:path";
import { freePort, spawnServe, type Served } from "../support/process";
import { makeTempDir } from "../support/temp";
import { requestInit } from "../support/http";

const KEY = "serve-test-admin-key";
const dir = makeTempDir("auth-serve");
const running: Served[] = [];
afterAll(() => {
  for (const s of running) s.proc.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

async function serve(): Promise<Served> {
  const s = await spawnServe({
    dataDir: dir,
    port: await freePort(),
    key: KEY,
    workers: 0,
    env: { DOCPROC_RATE_LIMIT_PER_MINUTE: "5" },
  });
  running.push(s);
  return s;
}

const me = (s: Served, key: string) => fetch(`${s.base}/auth/me`, { headers: { "x-api-key": key } });

describe("docproc serve", () => {
  test("applies DOCPROC_RATE_LIMIT_PER_MINUTE and keeps counts across a graceful restart and a crash", async () => {
    let s = await serve();
    const admin = (url: string, body: unknown) => fetch(s.base + url, requestInit("POST", { "x-api-key": KEY }, body));
    expect((await admin("/admin/clients", { client_id: "app" })).status).toBe(201);
    const key = (await (await admin("/admin/clients/app/keys", {})).json()).api_key as string;
    const first = await me(s, key);
    expect(first.headers.get("x-ratelimit-limit")).toBe("5");
    expect(first.headers.get("x-ratelimit-remaining")).toBe("4");

    s.proc.kill("SIGTERM");
    await s.proc.exited;
    s = await serve();
    expect((await me(s, key)).headers.get("x-ratelimit-remaining")).toBe("3");

    // No wait: each counted request writes its count in its own transaction before it is answered.
    s.proc.kill("SIGKILL");
    await s.proc.exited;
    s = await serve();
    const afterCrash = await me(s, key);
    expect(afterCrash.headers.get("x-ratelimit-remaining")).toBe("2");
    await me(s, key);
    await me(s, key);
    const refused = await me(s, key);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    s.proc.kill("SIGTERM");
    await s.proc.exited;
  }, 90_000);
});
