/**
 * What the `docproc clients|keys|tenants|users` commands share: opening the data directory's database (the same
 * `<data>/docproc.db` that docproc serve uses; WAL, so this works while the server runs) and printing results.
 */
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { DocprocError } from "../core/errors";
import { renderTable } from "./table";
import { systemClock, type Clock } from "../core/clock";
import { openDatabase, type Db } from "../storage/schema/db";
import { openPostgres } from "../storage/schema/pg/open";
import { loadEnvSettings } from "../settings/env";

/**
 * Opens `<dataDir>/docproc.db`. A directory without one is refused (a mistyped --data must not quietly start a
 * second, empty database), except for `create` actions on a directory that is missing or empty: that is the
 * first-run set-up before the server's first start, and it says so on stderr.
 */
export function checkDataDir(dataDir: string, opts: { create?: boolean } = {}): "exists" | "new" {
  const dir = path.resolve(dataDir);
  if (existsSync(path.join(dir, "docproc.db"))) return "exists";
  const entries = existsSync(dir) ? readdirSync(dir) : [];
  if (entries.length > 0) {
    throw new DocprocError(
      "invalid_input",
      `${dataDir} is not a docproc data directory (it has files but no docproc.db): give the --data of your docproc serve`,
    );
  }
  if (!opts.create) {
    throw new DocprocError(
      "invalid_input",
      `no docproc database in ${dataDir}: give the --data of your docproc serve (its first start creates docproc.db there)`,
    );
  }
  return "new";
}

export async function withDataDb<T>(
  dataDir: string,
  fn: (db: Db, clock: Clock) => T | Promise<T>,
  opts: { create?: boolean } = {},
): Promise<T> {
  // DOCPROC_DATABASE_URL: the admin commands work on the PostgreSQL database the servers share.
  const databaseUrl = loadEnvSettings().database.url;
  if (!databaseUrl && checkDataDir(dataDir, opts) === "new")
    process.stderr.write(`docproc: creating a new data directory in ${path.resolve(dataDir)}\n`);
  const db = databaseUrl ? openPostgres(databaseUrl) : openDatabase(path.join(path.resolve(dataDir), "docproc.db"));
  try {
    return await fn(db, systemClock);
  } finally {
    db.close();
  }
}

/** `--json` prints the value; otherwise a table of `columns` (or key: value lines for one object). */
export function printResult(value: unknown, json: boolean, columns?: string[]): void {
  if (json) {
    process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    return;
  }
  const cell = (v: unknown) => (v === null || v === undefined ? "-" : Array.isArray(v) ? v.join(",") : String(v));
  if (Array.isArray(value) && columns) {
    process.stdout.write(
      value.length
        ? renderTable(
            columns,
            value.map((r) => columns.map((c) => cell((r as Record<string, unknown>)[c]))),
          )
        : "(none)\n",
    );
    return;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) process.stdout.write(`${k}: ${cell(v)}\n`);
}

export const splitList = (s: string | undefined) =>
  s === undefined
    ? undefined
    : s
        .split(",")
        .map((x) => x.trim())
        .filter(Boolean);
