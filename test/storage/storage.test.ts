import { afterEach, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fsBlobStore, sha256OfBytes } from "../../src/storage/files/blobs";
import { isPostgres } from "../../src/storage/schema/db";
import { listDocuments } from "../../src/storage/transactions/documents";
import { getManifest } from "../../src/storage/files/export-files";
import { listPages } from "../../src/storage/transactions/pages";
import { createProject, getProject, updateProject } from "../../src/storage/projects/projects";
import { replaceResults } from "../../src/storage/results/result-store";
import { addSourceFile, listSourceFiles, uniqueName } from "../../src/storage/files/source-files";
import { getTenant } from "../../src/storage/auth/tenants";
import * as tx from "../../src/storage/transactions/transactions";
import type { DocumentResult } from "../../src/core/model";
import { TEST_BACKEND } from "../support/postgres";
import { freshDb } from "./helpers";

let env: ReturnType<typeof freshDb>;
afterEach(() => env?.cleanup());
const now = "2026-01-01T00:00:00.000Z";

function seed() {
  env = freshDb();
  createProject(env.db, {
    project_id: "p1",
    tenant_id: "default",
    name: "P",
    description: "",
    settings: { a: 1 },
    now,
  });
  tx.createTransaction(env.db, {
    transaction_id: "t1",
    tenant_id: "default",
    project_id: "p1",
    now,
    metadata: { customer: "x" },
  });
  return env.db;
}

describe("database", () => {
  test("opens (SQLite: in WAL mode) with a default tenant and migrations applied once", () => {
    env = freshDb();
    if (!isPostgres(env.db))
      expect(env.db.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()!.journal_mode).toBe("wal");
    expect(getTenant(env.db, "default")).not.toBeNull();
    const count = (d: typeof env.db) =>
      d.query<{ n: number }, []>("SELECT COUNT(*) AS n FROM schema_migrations").get()!.n;
    const applied = count(env.db);
    expect(applied).toBeGreaterThanOrEqual(1);
    const again = env.connect();
    expect(count(again)).toBe(applied);
    again.close();
  });
});

// PostgreSQL only: on SQLite a failed statement does not abort its transaction, so there is nothing to detect.
test.if(TEST_BACKEND === "postgres")(
  "a COMMIT that PostgreSQL turns into ROLLBACK (a failed statement's error was caught) throws and keeps nothing",
  () => {
    env = freshDb();
    const db = env.db;
    db.exec("CREATE TABLE commit_probe (k TEXT PRIMARY KEY)");
    const insert = db.query("INSERT INTO commit_probe (k) VALUES (?)");
    insert.run("kept");
    const swallowing = db.transaction(() => {
      insert.run("lost");
      try {
        insert.run("kept"); // unique violation: PostgreSQL aborts the transaction
      } catch {
        // the mistake under test: carrying on after a database error
      }
    });
    expect(() => swallowing()).toThrow("rolled the transaction back at COMMIT");
    expect(db.inTransaction).toBe(false);
    // The connection is usable afterwards, and an ordinary transaction still commits.
    db.transaction(() => insert.run("after"))();
    expect(
      db
        .query<{ k: string }, []>("SELECT k FROM commit_probe ORDER BY k")
        .all()
        .map((r) => r.k),
    ).toEqual(["after", "kept"]);
  },
);

describe("projects", () => {
  test("every update increments project_version", () => {
    const db = seed();
    expect(getProject(db, "default", "p1")!.project_version).toBe(1);
    updateProject(db, "default", "p1", { settings: { a: 2 } }, now);
    const p = updateProject(db, "default", "p1", { name: "Q" }, now)!;
    expect(p.project_version).toBe(3);
    expect(p.settings).toEqual({ a: 2 });
    expect(p.name).toBe("Q");
    expect(updateProject(db, "default", "nope", { name: "x" }, now)).toBeNull();
  });
});

describe("transactions", () => {
  test("stores every spec field and guards status moves", () => {
    const db = seed();
    const t = tx.getTransaction(db, "t1")!;
    expect(t).toMatchObject({
      status: "created",
      dataset_id: "production",
      priority: 0,
      page_limit: null,
      metadata: { customer: "x" },
    });
    expect(tx.markQueued(db, "t1", now)).toBe(true);
    expect(tx.markQueued(db, "t1", now)).toBe(false);
    tx.setProgress(
      db,
      "t1",
      { total_documents: 1, completed_documents: 0, completion_percentage: 10 },
      { current_step: "ocr", current_step_name: "OCR", steps: {} },
      now,
    );
    const after = tx.getTransaction(db, "t1")!;
    expect(after.metadata).toMatchObject({
      customer: "x",
      progress: { completion_percentage: 10 },
      step_progress: { current_step: "ocr" },
    });
    expect(after.current_step).toBe("ocr");
    tx.markAwaitingInput(db, "t1", now, { step_name: "review", instructions: "check", timeout_hours: 24 });
    expect(tx.getTransaction(db, "t1")!.review_metadata).toEqual({
      step_name: "review",
      instructions: "check",
      timeout_hours: 24,
    });
  });
});

describe("source files", () => {
  const file = (name: string, token?: string, index?: number) => ({
    transaction_id: "t1",
    filename: name,
    content_type: "application/pdf",
    size: 3,
    blob_hash: "h",
    split_policy: "inherit" as const,
    upload_token: token,
    index,
    now,
  });

  test("indexes in request order and renames repeated names name_1.ext, name_2.ext", () => {
    const db = seed();
    expect(addSourceFile(db, file("a.pdf")).file.file_index).toBe(0);
    expect(addSourceFile(db, file("a.pdf")).file.filename).toBe("a_1.pdf");
    expect(addSourceFile(db, file("a.pdf")).file.filename).toBe("a_2.pdf");
    expect(listSourceFiles(db, "t1").map((f) => [f.file_index, f.filename])).toEqual([
      [0, "a.pdf"],
      [1, "a_1.pdf"],
      [2, "a_2.pdf"],
    ]);
    expect(uniqueName(new Set(["README"]), "README")).toBe("README_1");
  });

  test("a repeated upload token returns the original file and stores nothing new", () => {
    const db = seed();
    const first = addSourceFile(db, file("a.pdf", "tok"));
    const again = addSourceFile(db, file("b.pdf", "tok"));
    expect(again.duplicate).toBe(true);
    expect(again.file.file_index).toBe(first.file.file_index);
    expect(listSourceFiles(db, "t1")).toHaveLength(1);
  });

  test("an explicit index keeps one-at-a-time uploads in order and refuses a used index", () => {
    const db = seed();
    addSourceFile(db, file("second.pdf", undefined, 1));
    addSourceFile(db, file("first.pdf", undefined, 0));
    expect(listSourceFiles(db, "t1").map((f) => f.filename)).toEqual(["first.pdf", "second.pdf"]);
    expect(() => addSourceFile(db, file("x.pdf", undefined, 1))).toThrow("already used");
  });

  test("no file can be added once the transaction left created (a start that won the race)", () => {
    const db = seed();
    addSourceFile(db, file("a.pdf", "tok"));
    tx.markQueued(db, "t1", now);
    expect(() => addSourceFile(db, file("late.pdf"))).toThrow("Cannot upload files to transaction in queued state");
    expect(addSourceFile(db, file("a.pdf", "tok")).duplicate).toBe(true); // a retried upload still gets its answer
  });
});

describe("results", () => {
  const doc = (id: string): DocumentResult => ({
    document_id: id,
    document_index: 0,
    document_type: "invoice",
    classification_confidence: 0.9,
    classification: {
      class_id: "invoice",
      type: "invoice",
      confidence: 0.9,
      reasoning: "",
      alternatives: [],
      confirmed: null,
      review_required: false,
    },
    split: {
      mode: "x",
      policy: "inherit",
      confidence: 1,
      reason: "",
      review_required: false,
      page_numbers: [1],
      source_file_indexes: [0],
    },
    fields: {
      total: {
        name: "Total",
        value: 12.5,
        confidence: 0.8,
        bounding_boxes: [{ coordinates: [1, 2, 3, 4], page_index: 1 }],
        reasoning: "r",
        review_required: false,
        is_confirmed: null,
      },
    },
  });

  test("replacing results twice leaves one set, never duplicates", () => {
    const db = seed();
    const page = {
      page_number: 1,
      transaction_page_number: 1,
      source_filename: "a.pdf",
      source_file_page_number: 1,
      text_source: "text_layer" as const,
      ocr_confidence: null,
      image_transform: {} as never,
      source_file_index: 0,
    };
    const manifest = {
      transaction_id: "t1",
      profiles: {
        json: {
          profile_id: "json",
          profile_name: "JSON",
          output_format: "json",
          scope_mode: "per_transaction",
          files: [
            {
              filename: "t1_data.json",
              path: "exports/t1_data.json",
              size_bytes: 10,
              document_ids: ["d1"],
              created_at: now,
            },
          ],
        },
      },
      total_files: 1,
      total_size_bytes: 10,
    };
    db.transaction(() => replaceResults(db, "t1", { documents: [doc("d1")], pages: [page], manifest }))();
    db.transaction(() => replaceResults(db, "t1", { documents: [doc("d2")], pages: [page], manifest }))();
    const docs = listDocuments(db, "t1");
    expect(docs.map((d) => d.document_id)).toEqual(["d2"]);
    expect(docs[0]!.fields.total!.value).toBe(12.5);
    expect(docs[0]!.fields.total!.bounding_boxes[0]!.page_index).toBe(1);
    expect(listPages(db, "t1")).toHaveLength(1);
    expect(getManifest(db, "t1")!.total_files).toBe(1);
  });
});

describe("blob store", () => {
  test("stores content by sha256, once, and reads it back whole", async () => {
    env = freshDb();
    const blobs = fsBlobStore(path.join(env.dir, "blobs"));
    const data = new TextEncoder().encode("hello blob");
    const hash = await blobs.put(data);
    expect(hash).toBe(sha256OfBytes(data));
    expect(await blobs.put(data)).toBe(hash);
    expect(new TextDecoder().decode(await blobs.get(hash))).toBe("hello blob");
    expect(readFileSync(blobs.pathOf(hash), "utf8")).toBe("hello blob");
    expect(readdirSync(path.join(env.dir, "blobs", "tmp"))).toEqual([]);
    await expect(blobs.get("0".repeat(64))).rejects.toThrow("missing");
  });
});
