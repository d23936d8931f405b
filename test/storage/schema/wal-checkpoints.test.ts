/**
 * WAL checkpoints of the long-running processes run on a thread of their own (src/storage/schema/wal-checkpointer.ts), not
 * inside the commits of the thread that serves requests: the committing connection's own threshold is raised to a
 * safety net, the thread copies committed pages into the database file soon after, and it goes with the database.
 */
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { openDatabase, type Db } from "../../../src/storage/schema/db";
import { SAFETY_NET_PAGES } from "../../../src/storage/schema/wal-checkpointer";
import { removeAll, tempDir } from "../../support/temp";
import { waitFor } from "../../support/wait";

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

/** Threads of this process named `name` (a Worker's name is its thread's name in /proc). */
function threadsNamed(name: string): number {
  let n = 0;
  for (const tid of readdirSync("/proc/self/task")) {
    try {
      if (readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim() === name) n++;
    } catch {
      // the thread ended while we looked
    }
  }
  return n;
}

function threadNames(): string[] {
  return readdirSync("/proc/self/task").map((tid) => {
    try {
      return readFileSync(`/proc/self/task/${tid}/comm`, "utf8").trim();
    } catch {
      return "?";
    }
  });
}

async function until(what: string, ok: () => boolean, ms = 10_000): Promise<void> {
  await waitFor(what, ok, { timeoutMs: ms, everyMs: 25 }).catch((err: Error) => {
    throw new Error(`${err.message} (threads: ${threadNames().join(", ")})`);
  });
}

const autocheckpoint = (db: Db) =>
  (db.query("PRAGMA wal_autocheckpoint").get() as { wal_autocheckpoint: number }).wal_autocheckpoint;

/** ~6 MB in one commit: 1,500 pages of 4 KiB, past SQLite's default threshold of 1,000. */
function writeBig(db: Db): void {
  db.exec("CREATE TABLE IF NOT EXISTS big (id INTEGER PRIMARY KEY, data BLOB)");
  db.transaction(() => {
    for (let i = 0; i < 6; i++)
      db.query("INSERT INTO big (data) VALUES (?)").run(new Uint8Array(1_000_000).fill(i + 1));
  })();
}

test("with background checkpoints the commit leaves the copy to a thread, which makes it soon after and ends with the database", async () => {
  const file = path.join(tempDir("wal", dirs), "docproc.db");
  const before = threadsNamed("docproc-wal");
  const db = openDatabase(file, { backgroundCheckpoints: true });
  expect(autocheckpoint(db)).toBe(SAFETY_NET_PAGES);
  await until("the checkpoint thread", () => threadsNamed("docproc-wal") === before + 1);
  const emptySize = statSync(file).size;
  writeBig(db);
  // Only a checkpoint copies the committed pages from the WAL into the database file.
  await until("the pages in the database file", () => statSync(file).size >= emptySize + 6_000_000);
  expect((db.query("SELECT COUNT(*) AS n FROM big").get() as { n: number }).n).toBe(6);
  db.close();
  await until("the thread to end", () => threadsNamed("docproc-wal") === before);
  // Nothing was lost: the file opens again with every row.
  const again = openDatabase(file);
  expect(
    again.query("SELECT COUNT(*) AS n, SUM(length(data)) AS bytes FROM big").get() as { n: number; bytes: number },
  ).toEqual({ n: 6, bytes: 6_000_000 });
  again.close();
});

test("without the option a connection keeps SQLite's own checkpoints in its commits and starts no thread", () => {
  const file = path.join(tempDir("wal", dirs), "docproc.db");
  const before = threadsNamed("docproc-wal");
  const db = openDatabase(file);
  expect(autocheckpoint(db)).toBe(1000);
  writeBig(db);
  // The commit that crossed 1,000 pages checkpointed on its own thread, before returning.
  expect(statSync(file).size).toBeGreaterThanOrEqual(6_000_000);
  expect(threadsNamed("docproc-wal")).toBe(before);
  db.close();
});

test("a process with the checkpoint thread still exits by itself when its work is done, the database not closed", async () => {
  const file = path.join(tempDir("wal", dirs), "docproc.db");
  const script = `
    import { openDatabase } from ${JSON.stringify(path.resolve(import.meta.dir, "../../../src/storage/schema/db.ts"))};
    const db = openDatabase(${JSON.stringify(file)}, { backgroundCheckpoints: true });
    db.exec("CREATE TABLE t (x)"); db.query("INSERT INTO t VALUES (1)").run();
    console.log("written");`;
  const proc = Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "pipe" });
  const killer = setTimeout(() => proc.kill(), 20_000);
  const code = await proc.exited;
  clearTimeout(killer);
  expect(await new Response(proc.stdout).text()).toContain("written");
  expect(code).toBe(0);
});
