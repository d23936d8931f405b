/**
 * Real pipeline in-process (pdf.js conversion, the real OCR runner): encrypted PDFs through the API with a password
 * per file, and project_version recorded in the JSON results file. Passwords are used, never echoed, and wiped from
 * the database (file included) once the transaction ends.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { isPostgres } from "../../src/storage/schema/db";
import { readFileSync } from "node:fs";
import path from "node:path";
import { corePipelineRunner, type CorePipelineRunner } from "../../src/queue/pipeline-runner";
import { form, testApp } from "./helpers";
import { waitFor } from "../support/wait";

const LOCKED = path.resolve(
  import.meta.dir,
  "../../fixtures/corpora/pdf-robustness/py-pdf-sample-files/005-libreoffice-writer-password/libreoffice-writer-password.pdf",
);
const PASSWORD = "openpassword";
let runner: CorePipelineRunner;
let t: ReturnType<typeof testApp>;

beforeAll(() => {
  runner = corePipelineRunner({ engine: "wasm" });
  t = testApp({ runner: runner.run, workers: 1 });
});
afterAll(async () => {
  await t.close();
  await runner.close();
});

async function waitDone(id: string) {
  for (let i = 0; i < 60; i++) {
    const r = await t.call("GET", `/transactions/${id}?timeout=5`);
    if (r.json.status === "completed" || r.json.status === "failed") return r.json;
  }
  throw new Error(`transaction ${id} did not finish`);
}

test("encrypted PDFs: per-file passwords open them, are never echoed, and are wiped when the transaction ends", async () => {
  const p = await t.call("POST", "/tenants/default/projects", { name: "Locked", settings: { name: "Locked files" } });
  expect(p.status).toBe(201);
  const pid = p.json.project_id;
  expect(
    (await t.call("PATCH", `/tenants/default/projects/${pid}`, { settings: { name: "Locked files v2" } })).json
      .project_version,
  ).toBe(2);
  const bytes = readFileSync(LOCKED);

  // One-step: the password opens the file; the results file records the project version at processing time.
  const ok = await t.call("POST", `/tenants/default/projects/${pid}/transactions/process`, {
    source_files: [{ filename: "locked.pdf", base64_data: bytes.toString("base64"), password: PASSWORD }],
  });
  expect(ok.status).toBe(202);
  expect(JSON.stringify(ok.json)).not.toContain(PASSWORD);
  const done = await waitDone(ok.json.transaction_id);
  expect(done.status).toBe("completed");
  expect(
    (await t.call("PATCH", `/tenants/default/projects/${pid}`, { description: "later" })).json.project_version,
  ).toBe(3);
  const manifest = (await t.call("GET", `/transactions/${ok.json.transaction_id}/exports`)).json;
  const jsonFile = Object.values(manifest.profiles as Record<string, any>)
    .flatMap((pr) => pr.files)
    .find((f: any) => f.filename.endsWith("_data.json"));
  const results = (await t.call("GET", `/transactions/${ok.json.transaction_id}/exports/download/${jsonFile.filename}`))
    .json;
  expect(results.transaction.project_version).toBe(2);
  expect(results.transaction.source_file_names).toEqual(["locked.pdf"]);

  // Multipart: `passwords` aligned by position; a wrong password fails the transaction with a clear message.
  const created = (await t.call("POST", `/tenants/default/projects/${pid}/transactions`, {})).json;
  const up = await t.call(
    "POST",
    created.files_url,
    form([{ name: "locked.pdf", body: bytes }], { passwords: ["not-the-password"] }),
  );
  expect(up.json.uploaded_files[0]).toMatchObject({ filename: "locked.pdf", has_password: true });
  expect(JSON.stringify(up.json)).not.toContain("not-the-password");
  await t.call("POST", created.start_url, {});
  const failed = await waitDone(created.transaction_id);
  expect(failed.status).toBe("failed");
  expect(failed.error_message).toContain("password");
  expect(failed.error_message).not.toContain("not-the-password");

  // Without any password the file cannot be opened.
  const none = await t.call("POST", `/tenants/default/projects/${pid}/transactions/process`, {
    source_files: [{ filename: "locked.pdf", base64_data: bytes.toString("base64") }],
  });
  const noneDone = await waitDone(none.json.transaction_id);
  expect(noneDone.status).toBe("failed");
  expect(noneDone.error_message).toContain("password-protected");

  // Nothing echoes a password; the database keeps only the fact that one was given.
  const withRequest = await t.call("GET", `/transactions/${ok.json.transaction_id}?include_request=true`);
  expect(withRequest.json.request.source_files[0]).toMatchObject({ filename: "locked.pdf", has_password: true });
  expect(JSON.stringify(withRequest.json)).not.toContain(PASSWORD);
  expect((await t.call("GET", `/transactions/${created.transaction_id}/source-files`)).json.files[0].has_password).toBe(
    true,
  );
  const rows = t.data.db.query<{ password: string | null }, []>("SELECT password FROM source_file_passwords").all();
  expect(rows.length).toBe(2);
  expect(rows.every((r) => r.password === null)).toBe(true);
  // SQLite: not in the file's bytes either (secure_delete). PostgreSQL: the rows are checked above; a dead row
  // version stays in the table's pages until VACUUM reuses them (docs/scaling.md says so).
  if (isPostgres(t.data.db)) return;
  // The WAL checkpointer thread (storage/schema/wal-checkpointer.ts) may hold the checkpoint at this moment: then this one
  // answers busy and copies nothing, so the database file still has the page as it was before the wipe. Retry
  // until a checkpoint completes.
  const checkpointed = () => t.data.db.query<{ busy: number }, []>("PRAGMA wal_checkpoint(TRUNCATE)").get()?.busy === 0;
  await waitFor("a completed checkpoint", checkpointed, { timeoutMs: 10_000, everyMs: 10 });
  const dbBytes = readFileSync(path.join(t.dir, "docproc.db"));
  expect(dbBytes.includes(Buffer.from(PASSWORD))).toBe(false);
  expect(dbBytes.includes(Buffer.from("not-the-password"))).toBe(false);
}, 120_000);
