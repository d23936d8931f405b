/**
 * Authentication + rate-limit overhead per request, measured in-process (no sockets, so the figure is the auth
 * work alone): the same trivial route through Elysia's app.handle with the access hook of the real app
 * (authorizeRequest: principal lookup in SQLite, digest compare, limiter, headers) and without it. Also the guard
 * alone per credential kind. Target: < 50 µs per request.
 */
import { Elysia } from "elysia";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { createKey, createClient } from "../src/auth/clients";
import { createGuard, type Guard } from "../src/auth/guard";
import { login } from "../src/auth/sessions";
import { DEFAULT_AUTH_SETTINGS } from "../src/auth/settings";
import { createUser } from "../src/auth/users";
import { authorizeRequest } from "../src/server/auth";
import { systemClock } from "../src/core/clock";
import { openDatabase } from "../src/storage/schema/db";
import type { BenchRow } from "./index";

const ADMIN = "bench-admin-key";
const N = 20_000;

interface Cost {
  wall: number;
  /** User + system CPU time of this process: what a request costs, without the waits a loaded machine adds. */
  cpu: number;
}

async function perCall(n: number, fn: () => unknown | Promise<unknown>): Promise<Cost> {
  for (let i = 0; i < 1000; i++) await fn(); // warm-up: JIT, prepared statements
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  const c = process.cpuUsage(c0);
  return { wall: ((performance.now() - t0) * 1000) / n, cpu: (c.user + c.system) / n };
}

function apps(guard: Guard) {
  const ping = () => "ok";
  const withAuth = new Elysia()
    .onRequest(({ request, set }) => {
      authorizeRequest(request, new URL(request.url).pathname, guard, set.headers as Record<string, string>);
    })
    .get("/ping", ping);
  const bare = new Elysia().onRequest(({ request }) => void new URL(request.url).pathname).get("/ping", ping);
  return { withAuth, bare };
}

export async function benchAuth(): Promise<BenchRow[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "docproc-bench-auth-"));
  const db = openDatabase(path.join(dir, "docproc.db"));
  try {
    // Limits high enough that the benchmark measures counting, never refusals.
    const settings = {
      ...DEFAULT_AUTH_SETTINGS,
      ratePerMinute: 1e9,
      ratePerHour: 1e9,
      asyncPerHour: 1e9,
      loginAttemptsPer15Min: 1e9,
    };
    const guard = createGuard({ db, clock: systemClock, adminApiKey: ADMIN, settings });
    createClient(db, systemClock, { client_id: "bench" });
    const key = createKey(db, systemClock, "bench", {}).api_key;
    await createUser(db, systemClock, { username: "bench", password: "bench password 123" });
    const token = (
      await login(db, systemClock, settings, guard.limiter, { username: "bench", password: "bench password 123" })
    ).session_token;

    const apps_ = apps(guard);
    const req = (headers: Record<string, string>) => () =>
      apps_.withAuth.handle(new Request("http://local/ping", { headers }));
    const bare = await perCall(N, () =>
      apps_.bare.handle(new Request("http://local/ping", { headers: { "x-api-key": key } })),
    );
    const withKey = await perCall(N, req({ "x-api-key": key }));
    const check = (headers: Record<string, string>) => () =>
      guard.check({ method: "GET", pathname: "/transactions/x", header: (n) => headers[n] ?? null });
    const guardKey = await perCall(N, check({ "x-api-key": key }));
    const guardSession = await perCall(N, check({ "x-session-token": token }));
    const guardAdmin = await perCall(N, check({ "x-api-key": ADMIN }));
    guard.close();
    const load = loadavg()[0]!.toFixed(1);
    const rows: BenchRow[] = [];
    const add = (metric: string, cost: Cost, target = "< 50 µs") => {
      rows.push({ metric: `${metric}, CPU time`, docproc: cost.cpu, reference: null, ratio: null, target, unit: "µs" });
      rows.push({
        metric: `${metric}, wall time (load avg ${load})`,
        docproc: cost.wall,
        reference: null,
        ratio: null,
        target,
        unit: "µs",
      });
    };
    add("auth + rate limit per request (API key; app.handle with − without)", {
      wall: withKey.wall - bare.wall,
      cpu: withKey.cpu - bare.cpu,
    });
    add("trivial route through app.handle without auth (baseline)", bare, "-");
    add("access guard alone: API key (lookup, digest, limiter, tenant scope)", guardKey);
    add("access guard alone: session token", guardSession);
    add("access guard alone: admin key", guardAdmin);
    return rows;
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const { renderBenchTable } = await import("./index");
  process.stdout.write(renderBenchTable(await benchAuth()));
}
