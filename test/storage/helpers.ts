import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openDatabase, type Db } from "../../src/storage/db";

/** A fresh SQLite file in its own temp dir; call cleanup() in afterEach. */
export function freshDb(): { db: Db; dir: string; cleanup(): void } {
  const dir = mkdtempSync(path.join(tmpdir(), "docproc-db-"));
  const db = openDatabase(path.join(dir, "docproc.db"));
  return {
    db,
    dir,
    cleanup() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
