/** Unit tests: key format and digests, route rules, the rate limiter's windows and persistence, settings. */
import { afterEach, describe, expect, test } from "bun:test";
import { DEFAULT_AUTH_SETTINGS } from "../../src/auth/settings";
import {
  accessRuleOf,
  parsePermissions,
  DEFAULT_CLIENT_PERMISSIONS,
  DEFAULT_USER_PERMISSIONS,
} from "../../src/auth/permissions";
import { base62, newApiKey, newSessionToken, sameDigest, sha256Hex } from "../../src/auth/keys";
import { createRateLimiter } from "../../src/auth/rate-limit";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fakeClock } from "../../src/core/clock";
import { openDatabase, type Db } from "../../src/storage/schema/db";

describe("keys", () => {
  test("keys carry a recognisable prefix, 43 base62 characters, and distinct digests", () => {
    const keys = Array.from({ length: 200 }, newApiKey);
    for (const k of keys) {
      expect(k.value).toMatch(/^dp_live_[0-9A-Za-z]{43}$/);
      expect(k.hash).toBe(sha256Hex(k.value));
      expect(k.suffix).toBe(k.value.slice(-4));
    }
    expect(new Set(keys.map((k) => k.hash)).size).toBe(200);
    expect(newSessionToken().value).toStartWith("dp_sess_");
    expect(base62(new Uint8Array(32))).toBe("0".repeat(43));
    expect(base62(new Uint8Array(32).fill(255))).toHaveLength(43);
  });

  test("digest comparison is exact and refuses empty or malformed digests", () => {
    const h = sha256Hex("a");
    expect(sameDigest(h, sha256Hex("a"))).toBe(true);
    expect(sameDigest(h, sha256Hex("b"))).toBe(false);
    expect(sameDigest(h, h.slice(0, 10))).toBe(false);
    expect(sameDigest("", "")).toBe(false);
  });
});

describe("permissions and route rules", () => {
  test("every route names its permission, submission flag and scope", () => {
    expect(accessRuleOf("POST", "/tenants/t1/projects/p1/transactions/process")).toEqual({
      kind: "authenticated",
      permission: "transaction.create",
      submitsWork: true,
      tenantId: "t1",
      projectId: "p1",
    });
    expect(accessRuleOf("POST", "/tenants/t1/projects/p1/capture-tokens")).toMatchObject({
      permission: "transaction.create",
      submitsWork: true,
    });
    expect(accessRuleOf("POST", "/tenants/t1/projects/p1/transactions")).toMatchObject({
      permission: "transaction.create",
      submitsWork: undefined,
    });
    expect(accessRuleOf("POST", "/transactions/abc/start")).toMatchObject({
      permission: "transaction.create",
      submitsWork: true,
      transactionId: "abc",
    });
    expect(accessRuleOf("POST", "/transactions/abc/source-files")).toMatchObject({
      permission: "transaction.create",
      transactionId: "abc",
    });
    expect(accessRuleOf("GET", "/transactions/abc/source-files")).toMatchObject({
      permission: "transaction.read",
      transactionId: "abc",
    });
    expect(accessRuleOf("GET", "/transactions/abc")).toMatchObject({
      permission: "transaction.read",
      transactionId: "abc",
    });
    expect(accessRuleOf("GET", "/transactions/abc/exports/download/csv/a%20b.csv")).toMatchObject({
      permission: "transaction.download_results",
      transactionId: "abc",
    });
    expect(accessRuleOf("GET", "/transactions/abc/pages/1/image")).toMatchObject({
      permission: "transaction.download_results",
    });
    expect(accessRuleOf("POST", "/transactions/batch-status")).toEqual({
      kind: "authenticated",
      permission: "transaction.read",
      submitsWork: undefined,
    });
    expect(accessRuleOf("GET", "/transactions")).toMatchObject({ permission: "transaction.read" });
    expect(accessRuleOf("PUT", "/tenants/t%201/projects/p/settings")).toMatchObject({
      permission: "project.manage",
      tenantId: "t 1",
    });
    expect(accessRuleOf("GET", "/tenants/t1/projects")).toEqual({
      kind: "authenticated",
      permission: undefined,
      submitsWork: undefined,
      tenantId: "t1",
    });
    expect(accessRuleOf("DELETE", "/admin/clients/x/keys/y")).toEqual({ kind: "admin" });
    expect(accessRuleOf("GET", "/auth/me")).toEqual({
      kind: "authenticated",
      permission: undefined,
      submitsWork: undefined,
    });
  });

  test("permission lists are validated and put in canonical order; the default leaves out project.manage", () => {
    expect(parsePermissions(["extract", "transaction.create", "extract"])).toEqual(["transaction.create", "extract"]);
    expect(() => parsePermissions(["transaction.delete"])).toThrow(
      /unknown "transaction.delete"; allowed: transaction.create/,
    );
    expect(DEFAULT_USER_PERMISSIONS).not.toContain("project.manage");
    expect(DEFAULT_USER_PERMISSIONS).toContain("transaction.download_results");
  });

  test("defaults never widen: a client made without a list gets the wave-1 list; later permissions are opt-in", () => {
    // What a client created without a list held in wave 1 (fixtures/upgrade/wave-1/expected.json): no more, ever.
    expect(DEFAULT_CLIENT_PERMISSIONS).toEqual([
      "transaction.create",
      "transaction.read",
      "transaction.download_results",
      "split",
      "classify",
      "extract",
    ]);
    expect(DEFAULT_USER_PERMISSIONS).toEqual([
      ...DEFAULT_CLIENT_PERMISSIONS.slice(0, 3),
      "transaction.review",
      ...DEFAULT_CLIENT_PERMISSIONS.slice(3),
    ]);
  });
});

describe("rate limiter", () => {
  let db: Db;
  afterEach(() => db?.close());
  const minute = [{ name: "minute", limit: 3, lengthMs: 60_000 }];

  test("a window opens at the first request and resets after its length; refusals report the wait", () => {
    db = openDatabase(":memory:");
    const clock = fakeClock();
    const rl = createRateLimiter({ db, clock });
    expect([1, 2, 3].map(() => rl.hit("k", minute).window.remaining)).toEqual([2, 1, 0]);
    clock.advance(20_000);
    const refused = rl.hit("k", minute);
    expect(refused).toMatchObject({ allowed: false, retryAfterSeconds: 40 });
    expect(refused.window.resetAt).toBe(clock.now() + 40_000);
    clock.advance(40_000);
    expect(rl.hit("k", minute)).toMatchObject({ allowed: true, window: { remaining: 2 } });
    rl.close();
  });

  test("reports the tightest window and refuses on any full one without counting in the others", () => {
    db = openDatabase(":memory:");
    const clock = fakeClock();
    const rl = createRateLimiter({ db, clock });
    const both = [
      { name: "minute", limit: 10, lengthMs: 60_000 },
      { name: "async", limit: 2, lengthMs: 3600_000 },
    ];
    expect(rl.hit("k", both).window).toMatchObject({ name: "async", remaining: 1 });
    expect(rl.hit("k", both).window).toMatchObject({ name: "async", remaining: 0 });
    expect(rl.hit("k", both)).toMatchObject({ allowed: false, window: { name: "async" } });
    expect(rl.hit("k", [both[0]!]).window).toMatchObject({ name: "minute", remaining: 7 });
    rl.close();
  });

  test("every counted request is stored at once: a crash right after it loses nothing", () => {
    db = openDatabase(":memory:");
    const clock = fakeClock();
    const first = createRateLimiter({ db, clock });
    first.hit("k", minute);
    first.hit("k", minute); // the "crash" happens right after this one, with no close()
    const afterCrash = createRateLimiter({ db, clock });
    expect(afterCrash.hit("k", minute).window.remaining).toBe(0);
    expect(afterCrash.hit("k", minute).allowed).toBe(false);
    const stored = db.query<{ count: number }, []>("SELECT count FROM rate_limit_counters WHERE subject = 'k'").get();
    expect(stored!.count).toBe(3); // the refused request counted in no window
  });

  test("two processes on one data directory share one exact budget, request by request", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "docproc-rl-"));
    const file = path.join(dir, "docproc.db");
    db = openDatabase(file);
    const other = openDatabase(file); // a second `docproc serve` on the same data directory
    try {
      const clock = fakeClock();
      const ten = [{ name: "minute", limit: 10, lengthMs: 60_000 }];
      const a = createRateLimiter({ db, clock });
      const b = createRateLimiter({ db: other, clock });
      // Interleaved, as concurrent requests spread over two servers arrive: exactly 10 of 16 admitted.
      const admitted = Array.from({ length: 16 }, (_, i) => (i % 2 ? b : a).hit("k", ten)).filter(
        (d) => d.allowed,
      ).length;
      expect(admitted).toBe(10);
      expect(a.hit("k", ten).allowed).toBe(false);
      expect(b.hit("k", ten).allowed).toBe(false);
      const stored = db.query<{ count: number }, []>("SELECT count FROM rate_limit_counters WHERE subject = 'k'").get();
      expect(stored!.count).toBe(10);
      // After the window the budget is whole again for both.
      clock.advance(60_000);
      expect(b.hit("k", ten).window.remaining).toBe(9);
      expect(a.hit("k", ten).window.remaining).toBe(8);
    } finally {
      other.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("work submitted on behalf of a key", () => {
  test("chargeSubmission counts against the key's task budget; principalOfKeyId follows revocation", async () => {
    const { createGuard, guardOf } = await import("../../src/auth/guard");
    const { createClient, createKey, revokeKey } = await import("../../src/auth/clients");
    const db = openDatabase(":memory:");
    const clock = fakeClock();
    const guard = createGuard({
      db,
      clock,
      adminApiKey: "admin",
      settings: { ...DEFAULT_AUTH_SETTINGS, asyncPerHour: 2 },
    });
    expect(guardOf(db)).toBe(guard);
    createClient(db, clock, { client_id: "phone-minter" });
    const key = createKey(db, clock, "phone-minter", {});
    const p = guard.principalOfKeyId(key.key_id)!;
    expect(p).toMatchObject({ kind: "api_key", tenantId: "default", keyId: key.key_id });
    expect(guard.chargeSubmission(p)!.window).toMatchObject({ name: "async_hour", remaining: 1 });
    guard.chargeSubmission(p);
    let refusal: any;
    try {
      guard.chargeSubmission(p);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toMatchObject({ code: "rate_limited", details: { async: true } });
    revokeKey(db, clock, "phone-minter", key.key_id);
    expect(guard.principalOfKeyId(key.key_id)).toBeNull();
    guard.close();
    db.close();
  });
});
