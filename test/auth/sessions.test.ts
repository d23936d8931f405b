/** Sessions over a real loopback port, with an injected clock: sign-in, use, idle and absolute expiry, logout. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { fakeClock } from "../../src/core/clock";
import { startAuthServer, type AuthServer } from "./helpers";

const clock = fakeClock(Date.parse("2026-03-01T08:00:00Z"));
let s: AuthServer;
const MIN = 60_000;
/** Each sign-in verifies an argon2id hash: a few hundred ms on a loaded 2-core machine. */
const SLOW = 30_000;

beforeAll(async () => {
  s = await startAuthServer({
    clock,
    auth: { sessionLifetimeMs: 12 * 60 * MIN, sessionIdleMs: 30 * MIN, ratePerMinute: 5, loginAttemptsPer15Min: 4 },
  });
  expect((await s.admin("POST", "/admin/tenants", { tenant_id: "acme" })).status).toBe(201);
  for (const username of ["alice", "bob"]) {
    const u = await s.admin("POST", "/admin/users", { tenant_id: "acme", username, password: "correct horse battery" });
    expect(u.status).toBe(201);
    expect(JSON.stringify(u.json)).not.toContain("correct horse");
  }
}, SLOW);
afterAll(() => s.stop());

const login = (username: string, password = "correct horse battery", tenant_id = "acme") =>
  s.call("POST", "/auth/login", {}, { tenant_id, username, password });
const me = (token: string) => s.call("GET", "/auth/me", { "x-session-token": token });

describe("sessions", () => {
  test(
    "login returns a session token that authenticates as the user, within the user's tenant",
    async () => {
      const r = await login("alice");
      expect(r.status).toBe(200);
      expect(r.json.session_token).toMatch(/^dp_sess_[0-9A-Za-z]{43}$/);
      expect(r.json.expires_at).toBe("2026-03-01T20:00:00.000Z");
      expect(r.json.idle_timeout_seconds).toBe(1800);
      expect(r.json.user).toMatchObject({ tenant_id: "acme", username: "alice" });
      const who = await me(r.json.session_token);
      expect(who.status).toBe(200);
      expect(who.json).toMatchObject({ kind: "session", tenant_id: "acme", username: "alice" });
      expect(
        (await s.call("GET", "/tenants/default/projects", { "x-session-token": r.json.session_token })).status,
      ).toBe(404);
      clock.advance(MIN); // fresh rate-limit minute for the next tests
    },
    SLOW,
  );

  test(
    "wrong passwords, unknown users and unknown tenants all answer the same 401",
    async () => {
      const replies = [
        await login("alice", "wrong password!"),
        await login("nobody"),
        await login("alice", undefined, "globex"),
      ];
      expect(replies.map((r) => r.status)).toEqual([401, 401, 401]);
      expect(new Set(replies.map((r) => r.json.detail)).size).toBe(1);
      expect((await s.call("GET", "/auth/me", { "x-session-token": "dp_sess_forged" })).status).toBe(401);
    },
    SLOW,
  );

  test(
    "a session ends after the idle timeout",
    async () => {
      const token = (await login("alice")).json.session_token;
      clock.advance(29 * MIN);
      expect((await me(token)).status).toBe(200); // activity restarts the idle timer
      clock.advance(29 * MIN);
      expect((await me(token)).status).toBe(200);
      clock.advance(31 * MIN);
      const idle = await me(token);
      expect(idle.status).toBe(401);
      expect(idle.json.detail).toContain("/auth/login");
    },
    SLOW,
  );

  test(
    "a session ends at its absolute lifetime even when in use",
    async () => {
      const token = (await login("alice")).json.session_token;
      for (let h = 0; h < 12 * 3; h++) {
        clock.advance(20 * MIN);
        const r = await me(token);
        expect(r.status).toBe(h < 35 ? 200 : 401);
      }
    },
    SLOW,
  );

  test(
    "logout ends the session on the next request; logout needs a session",
    async () => {
      const token = (await login("bob")).json.session_token;
      const out = await s.call("POST", "/auth/logout", { "x-session-token": token });
      expect(out.status).toBe(200);
      expect(out.json.ended).toBe(true);
      expect((await me(token)).status).toBe(401);
      const { key } = await s.clientWithKey("robot", { tenant_id: "acme" });
      expect((await s.call("POST", "/auth/logout", { "x-api-key": key })).status).toBe(400);
    },
    SLOW,
  );

  test(
    "session users share their tenant's rate limit",
    async () => {
      clock.advance(2 * MIN);
      const a = (await login("alice")).json.session_token;
      const b = (await login("bob")).json.session_token;
      const remaining = [];
      for (const t of [a, b, a, b, a]) remaining.push((await me(t)).headers.get("x-ratelimit-remaining"));
      expect(remaining).toEqual(["4", "3", "2", "1", "0"]);
      const refused = await me(b);
      expect(refused.status).toBe(429);
      expect(refused.json.detail).toMatch(/^Rate limit exceeded: 5 requests per minute\. Try again in \d+ seconds\.$/);
      clock.advance(MIN);
      expect((await me(b)).status).toBe(200);
    },
    SLOW,
  );

  test(
    "repeated sign-in attempts for one user name are limited",
    async () => {
      clock.advance(60 * MIN);
      const statuses = [];
      let last;
      for (let i = 0; i < 5; i++) statuses.push((last = await login("carol", "whatever pw")).status);
      expect(statuses).toEqual([401, 401, 401, 401, 429]);
      expect(Number(last!.headers.get("retry-after"))).toBe(15 * 60);
      expect(last!.json.detail).toBe("Too many sign-in attempts. Try again in 900 seconds.");
      expect((await login("alice")).status).toBe(200); // another user name is not affected
      clock.advance(15 * MIN);
      expect((await login("carol", "whatever pw")).status).toBe(401);
    },
    SLOW,
  );
});
