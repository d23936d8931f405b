/**
 * Runs a command with one private PostgreSQL server for all of it: `bun scripts/with-postgres.ts bun test …`.
 * Why: `bun test --parallel` runs each test file in a fresh global, so test/support/postgres.ts would start a
 * server per file (initdb ~1 s each); one server shared through DOCPROC_TEST_POSTGRES_URL costs one initdb.
 * An operator's own server given in DOCPROC_TEST_POSTGRES_URL is used as it is.
 */
import { spawnSync } from "node:child_process";
import { startPostgres } from "./postgres-server";

const [cmd, ...args] = process.argv.slice(2);
if (!cmd) {
  console.error("usage: bun scripts/with-postgres.ts <command> [args...]");
  process.exit(2);
}
const server = process.env.DOCPROC_TEST_POSTGRES_URL ? null : startPostgres({ ownerPid: process.pid });
let status = 1;
try {
  const env = { ...process.env, DOCPROC_TEST_POSTGRES_URL: process.env.DOCPROC_TEST_POSTGRES_URL ?? server!.url };
  const r = spawnSync(cmd, args, { stdio: "inherit", env });
  status = r.status ?? 1;
} finally {
  server?.stop();
}
process.exit(status);
