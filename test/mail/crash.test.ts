/**
 * Exactly once across crashes and concurrent connector processes, against a real dovecot: SIGKILL at each moment
 * of an import (after the claim, after the commit, after the mailbox action), SIGKILL of `docproc mail run` at an
 * arbitrary moment, and two `docproc mail run` processes on one data directory. Afterwards every message has
 * exactly one transaction and its after-import action done.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import path from "node:path";
import { statesOf } from "../../src/storage/mail/mail-messages";
import { DOVECOT, message, startDovecot, type Dovecot } from "./dovecot";
import { addConnector, dataDir, leasesRunOut, SECRET, transactions, removeDataDirs } from "./helpers";
import { spawnCli } from "../support/process";
import { waitFor } from "../support/wait";

const CHILD = path.join(import.meta.dir, "crash-child.ts");

async function child(dir: string, point: string, nth: number, leaseMs: number) {
  const proc = Bun.spawn([process.execPath, CHILD, dir, point, String(nth), String(leaseMs)], {
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, DOCPROC_SECRET_KEY: SECRET },
  });
  const [stdout, stderr] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text()]);
  await proc.exited;
  return { signal: proc.signalCode, code: proc.exitCode, stdout, stderr };
}

async function seenCount(d: Dovecot, folder: string): Promise<{ seen: number; total: number }> {
  const c = await d.client();
  try {
    await c.mailboxOpen(folder);
    const seen = (await c.search({ seen: true }, { uid: true })) || [];
    const all = (await c.search({ all: true }, { uid: true })) || [];
    return { seen: seen.length, total: all.length };
  } finally {
    await c.logout();
  }
}

function expectExactlyOnce(data: ReturnType<typeof dataDir>, ids: string[]) {
  const txs = transactions(data);
  expect(txs.map((t) => t.correlation_id).sort()).toEqual(ids.map((id) => `${id}@example.com`).sort());
}

describe.skipIf(!DOVECOT)("mail import exactly once", () => {
  let d: Dovecot;
  beforeAll(async () => {
    d = await startDovecot();
  });
  afterAll(async () => {
    await d?.stop();
    removeDataDirs();
  });

  for (const point of ["claimed", "committed", "actioned"] as const) {
    test(`SIGKILL right after the ${point === "claimed" ? "claim" : point === "committed" ? "commit" : "mailbox action"} of the 2nd message: the restart loses and duplicates nothing`, async () => {
      const data = dataDir();
      const folder = `Crash-${point}`;
      const ids = [1, 2, 3, 4].map((i) => `${point}-${i}`);
      for (const id of ids) await d.append(message({ id, subject: `Invoice ${id}` }), folder);
      const c = addConnector(data, d, { folder });

      const killed = await child(data.dir, point, 2, 300);
      expect(killed.signal).toBe("SIGKILL");
      const states = [...statesOf(data.db, c.connector_id, uidValidityOf(data, c.connector_id)).values()].map(
        (s) => s.state,
      );
      // What the kill left: message 1 finished; message 2 stopped at the named moment.
      expect(states).toEqual(["done", point === "claimed" ? "claimed" : "imported"]);
      expect(transactions(data)).toHaveLength(point === "claimed" ? 1 : 2);

      await leasesRunOut(data); // the dead process's lease on message 2
      const rest = await child(data.dir, "none", 0, 300);
      expect(rest.code).toBe(0);
      expect(JSON.parse(rest.stdout).errors).toEqual([]);
      expectExactlyOnce(data, ids);
      expect(await seenCount(d, folder)).toEqual({ seen: 4, total: 4 });
      expect(
        [...statesOf(data.db, c.connector_id, uidValidityOf(data, c.connector_id)).values()].every(
          (s) => s.state === "done",
        ),
      ).toBe(true);
    });
  }

  test("SIGKILL right after a move: the restart finds the message gone, records it done and imports nothing again", async () => {
    const data = dataDir();
    const folder = "Crash-move";
    const ids = ["mv-1", "mv-2", "mv-3"];
    for (const id of ids) await d.append(message({ id, subject: `Invoice ${id}` }), folder);
    const c = addConnector(data, d, { folder, after_import: { action: "move", folder: "Crash-move-done" } });
    expect((await child(data.dir, "actioned", 2, 300)).signal).toBe("SIGKILL");
    await leasesRunOut(data);
    const rest = await child(data.dir, "none", 0, 300);
    expect(JSON.parse(rest.stdout)).toEqual({ imported: 1, errors: [] });
    expectExactlyOnce(data, ids);
    expect(
      [...statesOf(data.db, c.connector_id, uidValidityOf(data, c.connector_id)).values()].map((s) => s.state),
    ).toEqual(["done", "done", "done"]);
    expect((await seenCount(d, "Crash-move-done")).total).toBe(3);
    expect((await seenCount(d, folder)).total).toBe(0);
  });

  test("docproc mail run SIGKILLed mid-import, three times, then run to the end: 24 messages, 24 transactions", async () => {
    const data = dataDir();
    const folder = "Crash-cli";
    const ids = Array.from({ length: 24 }, (_, i) => `cli-${i + 1}`);
    for (const id of ids) await d.append(message({ id, subject: `Invoice ${id}` }), folder);
    const c = addConnector(data, d, { folder });
    const env = { DOCPROC_SECRET_KEY: SECRET, DOCPROC_MAIL_LEASE_SECONDS: "1" };
    let interrupted = 0;
    for (let round = 1; round <= 3; round++) {
      const before = transactions(data).length;
      const proc = spawnCli(["mail", "run", "--once", "--data", data.dir, "--concurrency", "0"], { env });
      // Kill once this run has imported a few: it is then in the middle of the next message.
      await waitFor("three more imports", () => transactions(data).length >= before + 3 || proc.exitCode !== null, {
        everyMs: 5,
      });
      proc.kill("SIGKILL");
      await proc.exited;
      const states = [...statesOf(data.db, c.connector_id, uidValidityOf(data, c.connector_id)).values()];
      if (states.some((s) => s.state === "claimed" || s.state === "imported")) interrupted++;
      await leasesRunOut(data);
    }
    expect(interrupted).toBeGreaterThan(0);
    const proc = spawnCli(["mail", "run", "--once", "--data", data.dir, "--concurrency", "0"], { env });
    expect(await proc.exited).toBe(0);
    expectExactlyOnce(data, ids);
    expect(await seenCount(d, folder)).toEqual({ seen: 24, total: 24 });
  });

  test("two docproc mail run processes on one data directory import 30 messages once between them", async () => {
    const data = dataDir();
    const folder = "Two-processes";
    const ids = Array.from({ length: 30 }, (_, i) => `two-${i + 1}`);
    for (const id of ids) await d.append(message({ id, subject: `Invoice ${id}` }), folder);
    addConnector(data, d, { folder, after_import: { action: "move", folder: "Processed-two" } });
    const env = { DOCPROC_SECRET_KEY: SECRET };
    const a = spawnCli(["mail", "run", "--once", "--data", data.dir, "--concurrency", "0"], { env });
    const b = spawnCli(["mail", "run", "--once", "--data", data.dir, "--concurrency", "0"], { env });
    const [outA, outB, codeA, codeB] = await Promise.all([
      new Response(a.stdout).text(),
      new Response(b.stdout).text(),
      a.exited,
      b.exited,
    ]);
    expect([codeA, codeB]).toEqual([0, 0]);
    expectExactlyOnce(data, ids);
    const importedBy = (out: string) => Number(/(\d+) imported/.exec(out)?.[1] ?? -1);
    expect(importedBy(outA) + importedBy(outB)).toBe(30);
    expect(await seenCount(d, folder)).toEqual({ seen: 0, total: 0 });
    expect((await seenCount(d, "Processed-two")).total).toBe(30);
  });
});

function uidValidityOf(data: ReturnType<typeof dataDir>, connectorId: string): number {
  return data.db
    .query<{ v: number }, [string]>("SELECT uid_validity AS v FROM mail_messages WHERE connector_id = ? LIMIT 1")
    .get(connectorId)!.v;
}
