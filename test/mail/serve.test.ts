/**
 * `docproc serve` runs the connectors configured through its API: a connector added over HTTP is picked up, and
 * with IMAP IDLE a message appended to the mailbox is imported at once although the poll interval is 5 minutes.
 * The ledger endpoint then lists it with its transaction.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { freePort, spawnServe, type Served } from "../support/process";
import { makeTempDir } from "../support/temp";
import { waitFor } from "../support/wait";
import { DOVECOT, message, startDovecot, type Dovecot } from "./dovecot";
import { SECRET } from "./helpers";

const ADMIN = "mail-serve-admin";

describe.skipIf(!DOVECOT)("mail connectors inside docproc serve", () => {
  let d: Dovecot;
  let served: Served;
  const dir = makeTempDir("mail-serve");
  beforeAll(async () => {
    d = await startDovecot();
    served = await spawnServe({
      dataDir: dir,
      port: await freePort(),
      key: ADMIN,
      workers: 0,
      env: { DOCPROC_SECRET_KEY: SECRET },
    });
  });
  afterAll(async () => {
    served?.proc.kill("SIGTERM");
    await served?.proc.exited;
    await d?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${served.base}${path}`, {
      method,
      headers: { "x-api-key": ADMIN, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as any };
  };
  const until = <T>(what: string, get: () => Promise<T>, ms: number) =>
    waitFor(what, get, { timeoutMs: ms, everyMs: 100 }).catch((e: Error) => {
      throw new Error(`${e.message}: ${served.output()}`);
    });

  test("a connector added over the API imports a new message through IDLE, long before its 300 s poll", async () => {
    const project = (await api("POST", "/tenants/default/projects", { name: "Mail", description: "" })).json.project_id;
    const base = `/tenants/default/projects/${project}/mail-connectors`;
    const created = await api("POST", base, {
      host: d.host,
      port: d.port,
      security: "none",
      username: d.user,
      password: d.password,
      folder: "Serve-idle",
      poll_interval_seconds: 300,
      idle: true,
    });
    expect(created.status).toBe(201);
    await d.append(message({ id: "before-start" }), "Serve-idle");
    const id = created.json.connector_id;
    // The first poll (within the 5 s rescan) imports what is there, then the connection waits in IDLE.
    await until("the first poll", async () => (await api("GET", `${base}/${id}`)).json.messages.done === 1, 30_000);
    // Recorded after the poll, just before the connection enters IDLE (a message appended in between is announced
    // when IDLE starts: a selected mailbox's news come with the next command).
    const firstPoll = await until(
      "the first poll recorded",
      async () => (await api("GET", `${base}/${id}`)).json.last_poll_at,
      30_000,
    );
    const appendedAt = Date.now();
    await d.append(message({ id: "while-idle", subject: "Invoice via IDLE" }), "Serve-idle");
    const found = await until(
      "the IDLE import",
      async () => (await api("GET", "/transactions?search=while-idle")).json.items?.[0],
      30_000,
    );
    expect(Date.now() - appendedAt).toBeLessThan(30_000);
    expect(found.correlation_id).toBe("while-idle@example.com");
    const after = (await api("GET", `${base}/${id}`)).json;
    expect(after.last_poll_at > firstPoll).toBe(true);
    expect(after.last_error).toBeNull();
    const ledger = (await api("GET", `${base}/${id}/messages`)).json.items;
    expect(
      ledger.map((m: any) => [
        m.state,
        m.subject,
        m.transaction_id === found.transaction_id || m.subject !== "Invoice via IDLE",
      ]),
    ).toContainEqual(["done", "Invoice via IDLE", true]);
  });
});
