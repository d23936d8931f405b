/** The connector against a real dovecot: each message becomes one transaction like an uploaded .eml. */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { pollOnce } from "../../src/mail/runner";
import { DOVECOT, message, startDovecot, type Dovecot } from "./dovecot";
import { addConnector, dataDir, filesOf, KEY, mailContext, PDF, transactions } from "./helpers";

describe.skipIf(!DOVECOT)("mail import (dovecot on loopback)", () => {
  let d: Dovecot;
  beforeAll(async () => {
    d = await startDovecot();
  });
  afterAll(async () => {
    await d?.stop();
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
    expect(JSON.parse(txs[0]!.metadata)).toMatchObject({ from: "billing@example.com", from_name: "Billing", subject: "Invoice 2026-17", date: "2026-03-02T08:30:00.000Z" });
    // The small inline logo is skipped (default threshold 16 KiB); the body text carries the headers.
    expect(filesOf(data, txs[0]!.transaction_id).map((f) => [f.filename, f.split_policy])).toEqual([
      ["Invoice 2026-17.txt", "single_document"],
      ["invoice.pdf", "inherit"],
    ]);
    const job = data.db.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM jobs WHERE kind = 'process_transaction'").get()!;
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
});
