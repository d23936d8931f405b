/**
 * The SQLite connection compiles each SQL text once (src/storage/schema/db.ts): bun:sqlite's own cache keeps about 20
 * statements, fewer than docproc runs, so most were compiled again on every call.
 */
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase } from "../../../src/storage/schema/db";

let dir = "";
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test("the same SQL text gives the same statement across a hundred distinct ones, and close() finalizes them", () => {
  dir = mkdtempSync(path.join(tmpdir(), "docproc-stmt-"));
  const db = openDatabase(path.join(dir, "docproc.db"));
  const texts = Array.from({ length: 100 }, (_, i) => `SELECT ${i} + COUNT(*) AS n FROM tenants`);
  const first = texts.map((sql) => db.query<{ n: number }, []>(sql));
  const again = texts.map((sql) => db.query<{ n: number }, []>(sql));
  expect(again.every((stmt, i) => stmt === first[i])).toBe(true);
  // Still correct results from the kept statements (one default tenant).
  expect(again.map((stmt) => stmt.get()!.n)).toEqual(texts.map((_, i) => i + 1));
  db.close();
  expect(() => first[0]!.get()).toThrow();
});
