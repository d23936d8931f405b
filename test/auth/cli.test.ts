/** `docproc tenants|clients|keys|users` spawned as a user runs them, against a data directory a server also uses. */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import path from "node:path";
import { runCli } from "../cli/helpers";
import { startAuthServer, type AuthServer } from "./helpers";
import { makeTempDir } from "../support/temp";
import { databaseEnv } from "../support/postgres";

const dir = makeTempDir("auth-cli");
let s: AuthServer | undefined;
afterAll(async () => {
  await s?.stop({ keepDir: true });
  rmSync(dir, { recursive: true, force: true });
});

const cli = async (...args: string[]) => {
  const r = await runCli([...args, "--data", dir]);
  return {
    ...r,
    json: r.stdout.trim().startsWith("{") || r.stdout.trim().startsWith("[") ? JSON.parse(r.stdout) : null,
  };
};

describe("first-run set-up from the command line", () => {
  test("creates a tenant, a client and a key the server accepts; revoking from the CLI refuses the next request", async () => {
    expect((await cli("tenants", "create", "acme", "--name", "Acme", "--json")).json).toMatchObject({
      tenant_id: "acme",
      name: "Acme",
    });
    expect((await cli("tenants", "list", "--json")).json.map((t: any) => t.tenant_id)).toEqual(["default", "acme"]);
    const client = await cli(
      "clients",
      "create",
      "erp",
      "--tenant",
      "acme",
      "--permissions",
      "transaction.read,transaction.create",
      "--rate-limit-per-minute",
      "50",
      "--json",
    );
    expect(client.code).toBe(0);
    expect(client.json).toMatchObject({
      client_id: "erp",
      tenant_id: "acme",
      permissions: ["transaction.create", "transaction.read"],
      rate_limit_per_minute: 50,
    });
    const key = await cli("keys", "create", "erp", "--description", "from the CLI", "--json");
    expect(key.json.api_key).toMatch(/^dp_live_/);
    expect((await cli("keys", "list", "erp")).stdout).not.toContain(key.json.api_key);
    expect((await cli("clients", "list")).stdout).toContain("erp");

    s = await startAuthServer({ dir });
    const me = await s.call("GET", "/auth/me", { "x-api-key": key.json.api_key });
    expect(me.status).toBe(200);
    expect(me.json).toMatchObject({ kind: "api_key", tenant_id: "acme", client_id: "erp" });
    expect(me.headers.get("x-ratelimit-limit")).toBe("50");

    expect((await cli("keys", "revoke", "erp", key.json.key_id, "--json")).json).toMatchObject({
      key_id: key.json.key_id,
      active: false,
    });
    expect((await s.call("GET", "/auth/me", { "x-api-key": key.json.api_key })).status).toBe(401);
  }, 60_000);

  test("creates a user from a password on stdin who can sign in; bad input exits non-zero with one line", async () => {
    const proc = Bun.spawn(
      [
        process.execPath,
        path.resolve(import.meta.dir, "../../src/cli.ts"),
        "users",
        "create",
        "alice",
        "--tenant",
        "acme",
        "--password-stdin",
        "--json",
        "--data",
        dir,
      ],
      { stdin: "pipe", stdout: "pipe", stderr: "pipe", env: { ...process.env, ...databaseEnv(dir) } },
    );
    proc.stdin.write("a long enough password\n");
    proc.stdin.end();
    const [out, code] = [await new Response(proc.stdout).text(), await proc.exited];
    expect(code).toBe(0);
    expect(JSON.parse(out)).toMatchObject({ username: "alice", tenant_id: "acme" });
    expect(out).not.toContain("a long enough password");
    const login = await s!.call(
      "POST",
      "/auth/login",
      {},
      { tenant_id: "acme", username: "alice", password: "a long enough password" },
    );
    expect(login.status).toBe(200);

    const bad = await cli("clients", "create", "x", "--permissions", "fly");
    expect(bad.code).toBe(2);
    expect(bad.stderr.trim()).toBe(
      'docproc: permissions: unknown "fly"; allowed: transaction.create, transaction.read, transaction.download_results, transaction.review, project.manage, split, classify, extract',
    );
    expect((await cli("clients", "delete", "nobody")).code).toBe(1);
    expect((await cli("clients", "delete", "erp")).code).toBe(0);
  }, 60_000);
});
