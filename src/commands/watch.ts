/** `docproc watch <dir>...`: flags and help only; the work is in src/batch/watcher.ts. */
import { Args, Command, Flags } from "@oclif/core";
import { concurrencyFlag, logFlags, nameByFlag, outFlag, projectFileFlag, ocrEngineFlag } from "../cli/flags";

export default class WatchCommand extends Command {
  static summary = "Watch hot folders: process each new file once, then move it to processed/ or failed/";
  static description = [
    "Processes the document files already in the folders, then every file that arrives (subfolders included), once " +
      "its size and modification time have stopped changing for --stable-ms. Each file CONTENT is processed once: a " +
      "SQLite ledger in --data remembers it across restarts, so a copy dropped again is only moved. Originals then " +
      "move to <dir>/processed/ or <dir>/failed/ (with <name>.error.txt giving the reason), keeping their subfolders; " +
      "subfolder names become metadata (folder, folder_0, folder_1, ...). Network filesystems (NFS, SMB, sshfs, ...) " +
      "are polled automatically. See docs/watch.md.",
    "SIGTERM or SIGINT: finish the files in hand, then exit 0. After a crash or kill -9, a restart re-takes only the " +
      "files that were interrupted.",
    "Exit codes: 0 stopped by a signal, 2 usage error, 3 another run holds the --data directory, 4 invalid project settings.",
  ].join("\n\n");
  static examples = [
    "<%= config.bin %> <%= command.id %> /srv/scans --out /srv/docproc-out",
    "<%= config.bin %> <%= command.id %> inbox --project invoices.yaml --data /var/lib/docproc --stable-ms 5000",
    "<%= config.bin %> <%= command.id %> /mnt/share/scans --poll --processed /srv/archive --failed /srv/rejected",
    "<%= config.bin %> <%= command.id %> inbox --keep --json   # leave originals; one JSON event per line on stdout",
    "<%= config.bin %> <%= command.id %> inbox --log-format json --log-level debug   # the log (stderr) as JSON lines",
  ];
  static strict = false;
  static args = {
    dirs: Args.string({ description: "folders to watch", required: true }),
  };
  static flags = {
    project: projectFileFlag(),
    out: outFlag(),
    data: Flags.string({
      description: "data folder: ledger of processed content and the lock",
      default: "./.docproc",
      helpValue: "<dir>",
    }),
    poll: Flags.boolean({
      description: "poll the folders instead of using inotify (automatic on network filesystems)",
    }),
    "stable-ms": Flags.integer({
      description: "how long size and mtime must stay unchanged before a file is taken",
      default: 2000,
      min: 0,
      helpValue: "<ms>",
    }),
    processed: Flags.string({
      description: "where processed originals go (default: <dir>/processed)",
      helpValue: "<dir>",
    }),
    failed: Flags.string({
      description: "where failed originals go, with <name>.error.txt (default: <dir>/failed)",
      helpValue: "<dir>",
    }),
    keep: Flags.boolean({ description: "leave originals in place (the ledger still prevents processing them twice)" }),
    "retry-failed": Flags.boolean({
      description:
        "process again content that failed before (after fixing the cause, e.g. a full disk): move the originals back from failed/ into the folder",
    }),
    concurrency: concurrencyFlag(),
    json: Flags.boolean({
      description: "also print one JSON event per line on stdout (for scripts; the log stays on stderr)",
    }),
    "name-by": nameByFlag(),
    ...logFlags(),
    "ocr-engine": ocrEngineFlag("OCR engine: auto (native tesseract when installed, else wasm), wasm or native"),
  };

  async run(): Promise<number> {
    const { argv, flags } = await this.parse(WatchCommand);
    const { runWatchCommand } = await import("../batch/watch-run");
    return runWatchCommand({
      dirs: argv as string[],
      project: flags.project,
      out: flags.out,
      data: flags.data,
      poll: flags.poll,
      stableMs: flags["stable-ms"],
      processed: flags.processed,
      failed: flags.failed,
      keep: flags.keep,
      retryFailed: flags["retry-failed"],
      concurrency: flags.concurrency,
      json: flags.json,
      ocrEngine: flags["ocr-engine"] as "auto" | "wasm" | "native" | undefined,
      nameBy: flags["name-by"] as "transaction" | "source",
      logFormat: flags["log-format"],
      logLevel: flags.quiet ? "warn" : flags.verbose ? "debug" : flags["log-level"],
    });
  }
}
