/**
 * Every SQL statement lives in src/storage/ (issue 36, "storage written once"): a module outside it that wants rows
 * calls a storage function. This scan finds string literals that start like a statement (SELECT, INSERT, UPDATE,
 * DELETE, CREATE, ALTER, PRAGMA, BEGIN …) in src/ outside storage/.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { SRC, sourceFiles } from "./source-files";

const STATEMENT =
  /(["'`])\s*(SELECT\s+[\w*(]|INSERT\s+(?:OR\s+\w+\s+)?INTO\b|UPDATE\s+\w+\s+SET\b|DELETE\s+FROM\b|CREATE\s+(?:TABLE|INDEX|SCHEMA)\b|ALTER\s+TABLE\b|PRAGMA\s+\w|BEGIN(?:\s+(?:EXCLUSIVE|IMMEDIATE|DEFERRED))?\1)/;

function sqlOutsideStorage(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const rel = path.relative(SRC, file);
    if (rel.startsWith(`storage${path.sep}`)) continue;
    readFileSync(file, "utf8")
      .split("\n")
      .forEach((line, i) => {
        if (STATEMENT.test(line)) found.push(`${rel}:${i + 1}: ${line.trim()}`);
      });
  }
  return found;
}

test("no SQL statement outside src/storage", () => {
  expect(sqlOutsideStorage(sourceFiles(SRC))).toEqual([]);
});

test("the scan sees a statement where there is one", () => {
  const probe = path.join(SRC, "queue", "probe.ts");
  const scan = (text: string) => (STATEMENT.test(text) ? [`${path.relative(SRC, probe)}: ${text}`] : ([] as string[]));
  expect(scan(`db.query("SELECT * FROM jobs WHERE id = ?")`)).toHaveLength(1);
  expect(scan("db.exec(`UPDATE jobs SET status = 'x'`)")).toHaveLength(1);
  expect(scan(`db.exec("PRAGMA busy_timeout = 0")`)).toHaveLength(1);
  expect(scan(`db.exec("BEGIN EXCLUSIVE")`)).toHaveLength(1);
  expect(scan(`const label = "Select a project";`)).toHaveLength(0);
});
