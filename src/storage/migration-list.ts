/**
 * The numbered migrations, one schema history in two dialects: `storage/migrations/` for SQLite, `storage/pg/migrations/`
 * for PostgreSQL (same tables, columns and meaning). Static imports so a `bun build --compile` binary carries both.
 * A new migration MUST be added in both folders and here.
 */
import sqlite001 from "./migrations/001_init.sql" with { type: "text" };
import postgres001 from "./pg/migrations/001_init.sql" with { type: "text" };
import sqlite002 from "./migrations/002_auth.sql" with { type: "text" };
import postgres002 from "./pg/migrations/002_auth.sql" with { type: "text" };
import sqlite003 from "./migrations/003_capture.sql" with { type: "text" };
import postgres003 from "./pg/migrations/003_capture.sql" with { type: "text" };
import sqlite004 from "./migrations/004_deliveries.sql" with { type: "text" };
import postgres004 from "./pg/migrations/004_deliveries.sql" with { type: "text" };
import sqlite005 from "./migrations/005_source_file_passwords.sql" with { type: "text" };
import postgres005 from "./pg/migrations/005_source_file_passwords.sql" with { type: "text" };
import sqlite006 from "./migrations/006_review.sql" with { type: "text" };
import postgres006 from "./pg/migrations/006_review.sql" with { type: "text" };
import sqlite007 from "./migrations/007_mail.sql" with { type: "text" };
import postgres007 from "./pg/migrations/007_mail.sql" with { type: "text" };
import sqlite008 from "./migrations/008_datasets.sql" with { type: "text" };
import postgres008 from "./pg/migrations/008_datasets.sql" with { type: "text" };
import sqlite009 from "./migrations/009_job_lost_leases.sql" with { type: "text" };
import postgres009 from "./pg/migrations/009_job_lost_leases.sql" with { type: "text" };
import sqlite010 from "./migrations/010_deployment_settings.sql" with { type: "text" };
import postgres010 from "./pg/migrations/010_deployment_settings.sql" with { type: "text" };
import sqlite011 from "./migrations/011_settings_version.sql" with { type: "text" };
import postgres011 from "./pg/migrations/011_settings_version.sql" with { type: "text" };

export const MIGRATIONS: ReadonlyArray<{ version: number; name: string; sqlite: string; postgres: string }> = [
  { version: 1, name: "001_init", sqlite: sqlite001, postgres: postgres001 },
  { version: 2, name: "002_auth", sqlite: sqlite002, postgres: postgres002 },
  { version: 3, name: "003_capture", sqlite: sqlite003, postgres: postgres003 },
  { version: 4, name: "004_deliveries", sqlite: sqlite004, postgres: postgres004 },
  { version: 5, name: "005_source_file_passwords", sqlite: sqlite005, postgres: postgres005 },
  { version: 6, name: "006_review", sqlite: sqlite006, postgres: postgres006 },
  { version: 7, name: "007_mail", sqlite: sqlite007, postgres: postgres007 },
  { version: 8, name: "008_datasets", sqlite: sqlite008, postgres: postgres008 },
  { version: 9, name: "009_job_lost_leases", sqlite: sqlite009, postgres: postgres009 },
  { version: 10, name: "010_deployment_settings", sqlite: sqlite010, postgres: postgres010 },
  { version: 11, name: "011_settings_version", sqlite: sqlite011, postgres: postgres011 },
];
