/**
 * The numbered migrations: one schema history, one source file per migration (`storage/migrations/NNN_name.sql`,
 * SQLite's dialect) from which both dialects are made (migration-dialects.ts states the few differences). Static
 * imports so a `bun build --compile` binary carries them. A new migration is a new file, added here.
 */
import { postgresDialect, sqliteDialect } from "./migration-dialects";
import m001 from "./migrations/001_init.sql" with { type: "text" };
import m002 from "./migrations/002_auth.sql" with { type: "text" };
import m003 from "./migrations/003_capture.sql" with { type: "text" };
import m004 from "./migrations/004_deliveries.sql" with { type: "text" };
import m005 from "./migrations/005_source_file_passwords.sql" with { type: "text" };
import m006 from "./migrations/006_review.sql" with { type: "text" };
import m007 from "./migrations/007_mail.sql" with { type: "text" };
import m008 from "./migrations/008_datasets.sql" with { type: "text" };
import m009 from "./migrations/009_job_lost_leases.sql" with { type: "text" };
import m010 from "./migrations/010_deployment_settings.sql" with { type: "text" };
import m011 from "./migrations/011_settings_version.sql" with { type: "text" };

const SOURCES: ReadonlyArray<[name: string, source: string]> = [
  ["001_init", m001],
  ["002_auth", m002],
  ["003_capture", m003],
  ["004_deliveries", m004],
  ["005_source_file_passwords", m005],
  ["006_review", m006],
  ["007_mail", m007],
  ["008_datasets", m008],
  ["009_job_lost_leases", m009],
  ["010_deployment_settings", m010],
  ["011_settings_version", m011],
];

export interface Migration {
  version: number;
  /** What schema_migrations records (unchanged since the release that added the migration). */
  name: string;
  sqlite: string;
  postgres: string;
}

export const MIGRATIONS: ReadonlyArray<Migration> = SOURCES.map(([name, source]) => ({
  version: Number(name.slice(0, 3)),
  name,
  sqlite: sqliteDialect(source),
  postgres: postgresDialect(source),
}));
