/**
 * What the `docproc clients|keys|tenants|users` commands share: opening the data directory's database (the same
 * `<data>/docproc.db` that docproc serve uses; WAL, so this works while the server runs) and printing results.
 */
import path from "node:path";
import { renderTable } from "../cli/table";
import { systemClock, type Clock } from "../storage/clock";
import { openDatabase, type Db } from "../storage/db";

export async function withDataDb<T>(dataDir: string, fn: (db: Db, clock: Clock) => T | Promise<T>): Promise<T> {
  const db = openDatabase(path.join(path.resolve(dataDir), "docproc.db"));
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
    process.stdout.write(value.length ? renderTable(columns, value.map((r) => columns.map((c) => cell((r as Record<string, unknown>)[c])))) : "(none)\n");
    return;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) process.stdout.write(`${k}: ${cell(v)}\n`);
}

export const splitList = (s: string | undefined) => (s === undefined ? undefined : s.split(",").map((x) => x.trim()).filter(Boolean));
