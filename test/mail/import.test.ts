/** The connector against a real dovecot: each message becomes one transaction like an uploaded .eml. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { pollOnce, runContinuously } from "../../src/mail/runner";
import { getMailConnector } from "../../src/storage/mail/mail-connectors";
import { listMailMessages } from "../../src/storage/mail/mail-messages";
import { DOVECOT, message, startDovecot, type Dovecot } from "./dovecot";
import { addConnector, dataDir, filesOf, KEY, mailContext, PDF, transactions, removeDataDirs } from "./helpers";

describe.skipIf(!DOVECOT)("mail import (dovecot on loopback)", () => {
  let d: Dovecot;
  beforeAll(async () => {
    d = await startDovecot();
  });
  afterAll(async () => {
    await d?.stop();
    removeDataDirs();
  });

  test("a message becomes one queued transaction: body single_document, attachments inherit, Message-ID as correlation_id", async () => {
    const data = dataDir();
    const folder = "Invoices-1";
    const logo = new Uint8Array(300).fill(7);
    await d.append(
      message({
        id: "inv-1",
        subject: "Invoice 2026-17",
        body: "Dear customer,\r\nthe invoice is attached.",
        attachments: [
          { name: "invoice.pdf", type: "application/pdf", data: PDF },
          { name: "logo.png", type: "image/png", data: logo, inline: true, cid: "logo1" },
        ],
      }),
      folder,
    );
    const c = addConnector(data, d, { folder });
    const ctx = mailContext(data);
    const run = await pollOnce(ctx, { secretKey: KEY });
    expect(run.errors).toEqual([]);
    expect(run.reports[0]!.imported).toHaveLength(1);
    const txs = transactions(data);
    expect(txs).toHaveLength(1);
    expect(txs[0]!.correlation_id).toBe("inv-1@example.com");
    expect(txs[0]!.status).toBe("queued");
    expect(txs[0]!.source).toBe("mail");
    expect(JSON.parse(txs[0]!.metadata)).toMatchObject({
      from: "billing@example.com",
      from_name: "Billing",
      subject: "Invoice 2026-17",
      date: "2026-03-02T08:30:00.000Z",
    });
    // The small inline logo is skipped (default threshold 16 KiB); the body text carries the headers.
    expect(filesOf(data, txs[0]!.transaction_id).map((f) => [f.filename, f.split_policy])).toEqual([
      ["Invoice 2026-17.txt", "single_document"],
      ["invoice.pdf", "inherit"],
    ]);
    const job = data.db
      .query<{ n: number }, []>("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'process_transaction'")
      .get()!;
    expect(job.n).toBe(1);
    // Marked seen (the default action), and a second poll imports nothing more.
    const again = await pollOnce(ctx, { secretKey: KEY });
    expect(again.reports[0]!.imported).toEqual([]);
    expect(transactions(data)).toHaveLength(1);
    const client = await d.client();
    await client.mailboxOpen(folder);
    const seen = await client.search({ seen: true }, { uid: true });
    await client.logout();
    expect(seen).toHaveLength(1);
    expect(c.connector_id).toBeString();
  });

  async function folderState(folder: string) {
    const c = await d.client();
    try {
      const boxes = await c.list();
      if (!boxes.some((b) => b.path === folder)) return { all: 0, seen: 0 };
      await c.mailboxOpen(folder);
      return {
        all: ((await c.search({ all: true }, { uid: true })) || []).length,
        seen: ((await c.search({ seen: true }, { uid: true })) || []).length,
      };
    } finally {
      await c.logout();
    }
  }

  test("filters select by From, Subject and unseen; the others stay untouched", async () => {
    const data = dataDir();
    const folder = "Filters";
    await d.append(message({ id: "f1", from: "Billing <billing@acme.test>", subject: "Invoice 1" }), folder);
    await d.append(message({ id: "f2", from: "Billing <billing@acme.test>", subject: "Newsletter" }), folder);
    await d.append(message({ id: "f3", from: "Someone <x@other.test>", subject: "Invoice 3" }), folder);
    await d.append(message({ id: "f4", from: "Billing <billing@acme.test>", subject: "Invoice 4 (read)" }), folder, [
      "\\Seen",
    ]);
    addConnector(data, d, {
      folder,
      filter: { from: "acme.test", subject: "Invoice", unseen: true },
      after_import: { action: "none" },
    });
    const run = await pollOnce(mailContext(data), { secretKey: KEY });
    expect(run.reports[0]!.matched).toBe(1);
    expect(transactions(data).map((t) => t.correlation_id)).toEqual(["f1@example.com"]);
    // after_import none: nothing in the mailbox changed (f4 was seen before).
    expect(await folderState(folder)).toEqual({ all: 4, seen: 1 });
  });

  test("after import: move to a folder (created when missing) and delete", async () => {
    const moveData = dataDir();
    await d.append(message({ id: "m1" }), "Move-src");
    await d.append(message({ id: "m2" }), "Move-src");
    addConnector(moveData, d, { folder: "Move-src", after_import: { action: "move", folder: "Imported" } });
    expect((await pollOnce(mailContext(moveData), { secretKey: KEY })).reports[0]!.imported).toHaveLength(2);
    expect(await folderState("Move-src")).toEqual({ all: 0, seen: 0 });
    expect((await folderState("Imported")).all).toBe(2);

    const delData = dataDir();
    await d.append(message({ id: "d1" }), "Delete-src");
    addConnector(delData, d, { folder: "Delete-src", after_import: { action: "delete" } });
    expect((await pollOnce(mailContext(delData), { secretKey: KEY })).reports[0]!.imported).toHaveLength(1);
    expect(await folderState("Delete-src")).toEqual({ all: 0, seen: 0 });
    expect(transactions(delData).map((t) => t.correlation_id)).toEqual(["d1@example.com"]);
  });

  test("the same Message-ID delivered again is recorded as a duplicate of the first transaction, not imported twice", async () => {
    const data = dataDir();
    const folder = "Dupes";
    const raw = message({ id: "dup-1", subject: "Invoice" });
    await d.append(raw, folder);
    addConnector(data, d, { folder });
    const ctx = mailContext(data);
    await pollOnce(ctx, { secretKey: KEY });
    await d.append(raw, folder); // re-delivered: a new UID
    const second = await pollOnce(ctx, { secretKey: KEY });
    expect(second.reports[0]!.imported).toEqual([]);
    expect(second.reports[0]!.duplicates).toHaveLength(1);
    const txs = transactions(data);
    expect(txs).toHaveLength(1);
    expect(second.reports[0]!.duplicates[0]!.transaction_id).toBe(txs[0]!.transaction_id);
    expect(await folderState(folder)).toEqual({ all: 2, seen: 2 });
  });

  test("a message that cannot be imported stays in the mailbox unseen, is reported, and the others are imported", async () => {
    const data = dataDir();
    const folder = "Failing";
    await d.append(message({ id: "ok-1", subject: "Small" }), folder);
    await d.append(
      message({
        id: "big-1",
        subject: "Too big",
        attachments: [{ name: "scan.pdf", type: "application/pdf", data: new Uint8Array(40_000).fill(65) }],
      }),
      folder,
    );
    const c = addConnector(data, d, { folder, max_message_bytes: 20_000 });
    const ctx = mailContext(data, { maxAttempts: 2 });
    const first = await pollOnce(ctx, { secretKey: KEY });
    expect(first.reports[0]!.imported).toHaveLength(1);
    expect(first.reports[0]!.failed).toHaveLength(1);
    expect(first.reports[0]!.failed[0]!.error).toContain("max_message_bytes");
    expect(ctx.logs.some((l) => l.includes("left in the mailbox"))).toBe(true);
    expect(transactions(data).map((t) => t.correlation_id)).toEqual(["ok-1@example.com"]);
    expect(await folderState(folder)).toEqual({ all: 2, seen: 1 });
    // Retried until maxAttempts, then left alone (still listed as failed).
    await pollOnce(ctx, { secretKey: KEY });
    const third = await pollOnce(ctx, { secretKey: KEY });
    expect(third.reports[0]!.failed).toEqual([]);
    const failed = listMailMessages(data.db, c.connector_id, { state: "failed" });
    expect(failed.map((m) => [m.attempts, m.subject])).toEqual([[2, null]]);
    expect(await folderState(folder)).toEqual({ all: 2, seen: 1 });
  });

  test("TLS and STARTTLS verify the server certificate: trusted with ca_certificate, refused without", async () => {
    for (const [security, port] of [
      ["tls", d.tlsPort],
      ["starttls", d.port],
    ] as const) {
      const data = dataDir();
      const folder = `Tls-${security}`;
      await d.append(message({ id: `tls-${security}` }), folder);
      const trusted = addConnector(data, d, { folder, security, port, host: "localhost", ca_certificate: d.certPem });
      const ok = await pollOnce(mailContext(data), { secretKey: KEY, connectorIds: [trusted.connector_id] });
      expect(ok.errors).toEqual([]);
      expect(ok.reports[0]!.imported).toHaveLength(1);

      const untrusted = addConnector(data, d, {
        folder,
        security,
        port,
        host: "localhost",
        after_import: { action: "none" },
      });
      const refused = await pollOnce(mailContext(data), { secretKey: KEY, connectorIds: [untrusted.connector_id] });
      expect(refused.errors).toHaveLength(1);
      expect(refused.errors[0]!.error).toMatch(/certificate/i);
      expect(getMailConnector(data.db, untrusted.connector_id)!.last_error).toMatch(/certificate/i);
      expect(transactions(data)).toHaveLength(1);
    }
  });

  test("a wrong password is reported on the connector and imports nothing", async () => {
    const data = dataDir();
    await d.append(message({ id: "pw-1" }), "Wrong-pw");
    const c = addConnector(data, d, { folder: "Wrong-pw", password: "not-the-password" });
    const run = await pollOnce(mailContext(data), { secretKey: KEY });
    expect(run.errors[0]!.error).toContain("authentication failed");
    expect(getMailConnector(data.db, c.connector_id)!.last_error).toContain("authentication failed");
    expect(transactions(data)).toEqual([]);
  });

  test("stopping a running connector finishes the message in progress and leaves the rest untouched for later", async () => {
    const data = dataDir();
    const folder = "Stop";
    for (let i = 1; i <= 6; i++) await d.append(message({ id: `stop-${i}` }), folder);
    // A long poll interval: the stop must not wait for it.
    const c = addConnector(data, d, { folder, poll_interval_seconds: 600 });
    const stop = new AbortController();
    const ctx = mailContext(data, { at: (point) => void (point === "committed" && stop.abort()) });
    const started = Date.now();
    await runContinuously(ctx, { secretKey: KEY, signal: stop.signal, rescanMs: 50 });
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(transactions(data).map((t) => t.correlation_id)).toEqual(["stop-1@example.com"]);
    expect(listMailMessages(data.db, c.connector_id).map((m) => m.state)).toEqual(["done"]);
    expect(await folderState(folder)).toEqual({ all: 6, seen: 1 });
  });

  test("after the server resets UIDVALIDITY, the same messages under new UIDs are duplicates, not new transactions", async () => {
    const data = dataDir();
    const folder = "Uidvalidity";
    await d.append(message({ id: "uv-1" }), folder);
    await d.append(message({ id: null, subject: "No Message-ID" }), folder);
    const c = addConnector(data, d, { folder, after_import: { action: "none" } });
    const ctx = mailContext(data);
    const first = await pollOnce(ctx, { secretKey: KEY });
    expect(first.reports[0]!.imported).toHaveLength(2);
    // Dovecot gives a folder a new UIDVALIDITY when its UID list and indexes are lost (as after a restore).
    const box = path.join(d.dir, "mail", "test", "Maildir", `.${folder}`);
    for (const f of readdirSync(box)) if (f.startsWith("dovecot")) rmSync(path.join(box, f), { force: true });
    const second = await pollOnce(ctx, { secretKey: KEY });
    expect(second.reports[0]!.uid_validity).not.toBe(first.reports[0]!.uid_validity);
    expect(second.reports[0]!.imported).toEqual([]);
    expect(second.reports[0]!.duplicates.map((x) => x.transaction_id).sort()).toEqual(
      first.reports[0]!.imported.map((x) => x.transaction_id).sort(),
    );
    expect(transactions(data)).toHaveLength(2);
    expect(listMailMessages(data.db, c.connector_id).filter((m) => m.duplicate === 1)).toHaveLength(2);
  });
});
