/**
 * Copies a SQLite docproc database into a PostgreSQL one (`docproc migrate`). Both MUST be at the same schema
 * version (both open through their own migrations first). Tables are copied in the order the migrations created
 * them (parents before children, so foreign keys hold), rows in SQLite's rowid order (PostgreSQL's explicit rowid
 * columns then number them in the same order), each table in one transaction, `ON CONFLICT DO NOTHING`: a copy
 * interrupted half-way can simply be run again. Identity sequences are moved past the copied ids at the end.
 */
import type { Db } from "../db";
import type { PgDb } from "./connection";

export interface TableReport {
  table: string;
  rows: number;
  copied: number;
}

const BATCH = 500;

export function importSqlite(from: Db, to: PgDb, onTable?: (r: TableReport) => void): TableReport[] {
  const tables = from
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations' ORDER BY rowid",
    )
    .all()
    .map((t) => t.name);
  const reports: TableReport[] = [];
  for (const table of tables) {
    const columns = from
      .query<{ name: string }, []>(`SELECT name FROM pragma_table_info('${table}')`)
      .all()
      .map((c) => c.name);
    const quoted = columns.map((c) => `"${c}"`).join(", ");
    const rows = from.query<Record<string, unknown>, []>(`SELECT ${quoted} FROM "${table}" ORDER BY rowid`).all();
    let copied = 0;
    to.transaction(() => {
      for (let i = 0; i < rows.length; i += BATCH) {
        const batch = rows.slice(i, i + BATCH);
        const marks = batch.map(() => `(${columns.map(() => "?").join(", ")})`).join(", ");
        const params = batch.flatMap((r) => columns.map((c) => r[c] ?? null));
        // stack-safe: BATCH (500) rows × the table's columns, a few thousand parameters.
        copied += to
          .query(`INSERT INTO "${table}" (${quoted}) VALUES ${marks} ON CONFLICT DO NOTHING`)
          .run(...(params as never[])).changes;
      }
    })();
    const report = { table, rows: rows.length, copied };
    reports.push(report);
    onTable?.(report);
  }
  // The copied jobs keep their ids; new ones MUST start after them.
  to.exec("SELECT setval(pg_get_serial_sequence('jobs', 'id'), GREATEST((SELECT MAX(id) FROM jobs), 1))");
  return reports;
}
