/** `docproc migrate --data DIR`: moves a data directory into PostgreSQL (DOCPROC_DATABASE_URL) and a bucket (DOCPROC_STORAGE_URL). */
import { Command, Flags } from "@oclif/core";
import { dataDirFlag } from "../cli/flags";

export default class MigrateCommand extends Command {
  static summary = "Move a data directory into PostgreSQL and an S3-compatible bucket";
  static description = [
    "Copies the SQLite database of --data into the PostgreSQL database DOCPROC_DATABASE_URL names (its schema is " +
      "created first), and the data directory's files (originals, page images, export files, run state) into the " +
      "bucket DOCPROC_STORAGE_URL names, when set. The SQLite database is first brought to this release's schema and " +
      "settings, as serve would do (each project's settings migration is printed); nothing else in --data changes. Safe to run again: rows and objects " +
      "already copied are skipped. Stop `serve`, `worker` and `mail` on the directory first, then start them with " +
      "the two variables set. See docs/scaling.md.",
    "Exit codes: 0 copied, 1 a copy failed, 2 usage error (no database in --data, DOCPROC_DATABASE_URL unset).",
  ].join("\n\n");
  static examples = [
    "DOCPROC_DATABASE_URL=postgres://docproc@db/docproc DOCPROC_STORAGE_URL=s3://docproc <%= config.bin %> <%= command.id %> --data ./docproc-data",
  ];
  static flags = {
    data: dataDirFlag("data directory to move (the one docproc serve used)"),
    json: Flags.boolean({ description: "print what was copied as JSON" }),
  };

  async run(): Promise<number> {
    const { flags } = await this.parse(MigrateCommand);
    const [
      { existsSync },
      path,
      { loadEnvSettings },
      { openDatabase },
      { openPostgres, redactDatabaseUrl },
      { importSqlite },
      { openBlobStore, storageConfigOf },
      { copyStore },
      settingsMigrate,
    ] = await Promise.all([
      import("node:fs"),
      import("node:path"),
      import("../settings/env"),
      import("../storage/schema/db"),
      import("../storage/schema/pg/open"),
      import("../storage/schema/pg/import-sqlite"),
      import("../storage/files/storage-config"),
      import("../storage/files/copy-store"),
      import("../storage/schema/settings-migrate"),
    ]);
    const env = loadEnvSettings();
    const file = path.join(path.resolve(flags.data), "docproc.db");
    if (!existsSync(file))
      this.error(`no docproc database in ${flags.data} (give the data directory of docproc serve with --data)`, {
        exit: 2,
      });
    if (!env.database.url) this.error("set DOCPROC_DATABASE_URL to the PostgreSQL database to move into", { exit: 2 });
    const say = (line: string) => flags.json || process.stdout.write(`${line}\n`);
    const from = openDatabase(file);
    const to = openPostgres(env.database.url);
    try {
      say(`database: ${file} → ${redactDatabaseUrl(env.database.url)}`);
      for (const r of settingsMigrate.settingsMigrationsOf(from))
        say(`settings: ${settingsMigrate.describeSettingsMigration(r)}`);
      const tables = importSqlite(
        from,
        to,
        (t) =>
          t.rows &&
          say(
            `  ${t.table}: ${t.copied} of ${t.rows} rows copied${t.copied < t.rows ? " (the rest were there already)" : ""}`,
          ),
      );
      // Rows copied from a database this build did not open before still need their settings brought up.
      for (const r of settingsMigrate.applySettingsMigrations(to))
        say(`settings: ${settingsMigrate.describeSettingsMigration(r)}`);
      let files = null;
      if (env.storage) {
        const source = openBlobStore(storageConfigOf(path.resolve(flags.data), null));
        const target = openBlobStore(env.storage);
        await target.check();
        say(
          `files: ${path.resolve(flags.data)} → ${env.storage.kind === "s3" ? `s3://${env.storage.bucket}/${env.storage.prefix}` : "data directory"}`,
        );
        files = await copyStore(source, target);
        say(`  ${files.copied} objects copied (${(files.bytes / 1e6).toFixed(1)} MB), ${files.skipped} there already`);
      } else
        say("files: DOCPROC_STORAGE_URL unset, the files stay in the data directory (every process must reach it)");
      if (flags.json) process.stdout.write(`${JSON.stringify({ tables, files }, null, 2)}\n`);
      return 0;
    } finally {
      from.close();
      to.close();
    }
  }
}
