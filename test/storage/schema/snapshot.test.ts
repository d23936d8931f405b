/** readSnapshot: several reads of one request see one state, even while another connection commits. */
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, readSnapshot, type Db } from "../../../src/storage/schema/db";

let dir = "";
const open: Db[] = [];
afterEach(() => {
  for (const db of open.splice(0)) db.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function twoConnections(): [Db, Db] {
  dir = mkdtempSync(path.join(tmpdir(), "docproc-snapshot-"));
  const file = path.join(dir, "docproc.db");
  const a = openDatabase(file);
  const b = openDatabase(file);
  open.push(a, b);
  a.exec("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER)");
  a.query("INSERT INTO t VALUES ('x', 1)").run();
  return [a, b];
}

const value = (db: Db) => db.query<{ v: number }, []>("SELECT v FROM t WHERE k = 'x'").get()!.v;

test("reads inside one snapshot do not see a commit made between them; the next snapshot does", () => {
  const [a, b] = twoConnections();
  const seen = readSnapshot(a, () => {
    const first = value(a);
    b.query("UPDATE t SET v = 2 WHERE k = 'x'").run(); // another connection (another process, in production)
    return [first, value(a)];
  });
  expect(seen).toEqual([1, 1]);
  expect(a.inTransaction).toBe(false);
  expect(readSnapshot(a, () => value(a))).toBe(2);
  // Without a snapshot each read sees the latest commit.
  expect([value(a), (b.query("UPDATE t SET v = 3 WHERE k = 'x'").run(), value(a))]).toEqual([2, 3]);
});

test("an error inside ends the snapshot, and inside an open transaction it joins that transaction", () => {
  const [a] = twoConnections();
  expect(() =>
    readSnapshot(a, () => {
      value(a);
      throw new Error("boom");
    }),
  ).toThrow("boom");
  expect(a.inTransaction).toBe(false);
  a.transaction(() => {
    a.query("UPDATE t SET v = 5 WHERE k = 'x'").run();
    expect(readSnapshot(a, () => value(a))).toBe(5); // its own uncommitted write: the same transaction
    expect(a.inTransaction).toBe(true);
  })();
  expect(value(a)).toBe(5);
});
