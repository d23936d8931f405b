/**
 * End to end through the real pipeline: `docproc mail run --once` imports a message with a PDF attachment and
 * processes it before it exits; the body is one document of its own, the invoice PDF follows as its own pages.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { spawnCli } from "../support/process";
import { DOVECOT, message, startDovecot, type Dovecot } from "./dovecot";
import { addConnector, dataDir, SECRET, transactions, removeDataDirs } from "./helpers";

const INVOICE = readFileSync(path.join(import.meta.dir, "../../fixtures/inbox/born-digital-invoice.pdf"));

describe.skipIf(!DOVECOT)("mail import processed end to end", () => {
  let d: Dovecot;
  beforeAll(async () => {
    d = await startDovecot();
  });
  afterAll(async () => {
    await d?.stop();
    removeDataDirs();
  });

  test("docproc mail run --once imports and processes: the body is one document, the PDF its own", async () => {
    const data = dataDir();
    await d.append(
      message({
        id: "e2e-1",
        subject: "Invoice INV-3337",
        body: "Hello,\r\nplease find our invoice INV-3337 attached.\r\nKind regards",
        attachments: [{ name: "invoice.pdf", type: "application/pdf", data: INVOICE }],
      }),
      "E2E",
    );
    addConnector(data, d, { folder: "E2E" });
    const proc = spawnCli(["mail", "run", "--once", "--data", data.dir, "--concurrency", "1"], {
      env: { DOCPROC_SECRET_KEY: SECRET },
    });
    const [out, err, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    expect({ code, out }).toMatchObject({ code: 0, out: expect.stringContaining("1 imported") });
    const [t] = transactions(data);
    expect(t!.status).toBe("completed");
    const pages = data.db
      .query<{ page_number: number; source_filename: string; text: string }, [string]>(
        "SELECT page_number, source_filename, text FROM pages WHERE transaction_id = ? ORDER BY page_number",
      )
      .all(t!.transaction_id);
    expect(pages[0]!.source_filename).toBe("Invoice INV-3337.txt");
    expect(pages[0]!.text).toContain("please find our invoice INV-3337");
    expect(pages.slice(1).every((p) => p.source_filename === "invoice.pdf")).toBe(true);
    expect(pages.length).toBeGreaterThan(1);
    const docs = data.db
      .query<{ document_index: number; split: string }, [string]>(
        "SELECT document_index, split FROM documents WHERE transaction_id = ? ORDER BY document_index",
      )
      .all(t!.transaction_id);
    expect(docs.length).toBeGreaterThanOrEqual(2);
    // The body is a document of its own (single_document), never merged with the attachment's pages.
    const splits = docs.map(
      (doc) => JSON.parse(doc.split) as { policy: string; page_numbers: number[]; source_file_indexes: number[] },
    );
    expect(splits[0]).toMatchObject({ policy: "single_document", page_numbers: [1], source_file_indexes: [0] });
    expect(
      splits.slice(1).every((s) => !s.page_numbers.includes(1) && s.source_file_indexes.every((i) => i === 1)),
    ).toBe(true);
    expect(err).not.toContain("not imported");
  });
});
