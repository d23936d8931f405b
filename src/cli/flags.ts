/**
 * Flags that several commands share, defined once so that their defaults and help text cannot drift apart
 * (a script that runs `docproc serve` and `docproc keys` without --data MUST reach the same directory).
 */
import { Flags } from "@oclif/core";

/** The data directory of `docproc serve` (SQLite, blobs, exports) for every command that opens it. */
export const dataDirFlag = (description = "data directory") =>
  Flags.string({ description, default: "./docproc-data", env: "DOCPROC_DATA", helpValue: "DIR" });

/** Where `process`, `watch` and `export` write export files. */
export const outFlag = () =>
  Flags.string({ description: "folder for export files", default: "./docproc-out", helpValue: "DIR" });

/** A project settings file for the commands that process files. */
export const projectFileFlag = () =>
  Flags.string({
    description: "project settings file (YAML or JSON); default: the embedded default project",
    helpValue: "FILE",
  });

/** Files processed at once by `process` and `watch`. */
export const concurrencyFlag = (defaults = "number of cores") =>
  Flags.integer({ description: `files processed at once (default: ${defaults})`, min: 1, max: 64, helpValue: "N" });

/** `--quiet` and `--verbose`: the same two words for every command that reports as it goes. */
export const verbosityFlags = (others: string[] = []) => ({
  quiet: Flags.boolean({ description: "print warnings and errors only", exclusive: ["verbose", ...others] }),
  verbose: Flags.boolean({
    description: "print every step too (for logs: the debug level)",
    exclusive: ["quiet", ...others],
  }),
});

/** `--log-format`, `--log-level`, `--quiet` and `--verbose` of the long-running commands (serve, worker, watch); docs/operations.md. */
export const logFlags = () => ({
  ...verbosityFlags(["log-level"]),
  "log-format": Flags.string({
    description:
      "log lines on stderr: json (one object per line) or pretty (default: DOCPROC_LOG_FORMAT, else pretty on a terminal and json otherwise)",
    options: ["json", "pretty"],
    helpValue: "FORMAT",
  }),
  "log-level": Flags.string({
    description: "least severe level logged (default: DOCPROC_LOG_LEVEL, else info)",
    options: ["fatal", "error", "warn", "info", "debug", "trace", "silent"],
    helpValue: "LEVEL",
  }),
});

/** `--name-by` of `process` and `watch`: how result files in the output folder are named (docs/exports.md). */
export const nameByFlag = () =>
  Flags.string({
    description:
      "name results after the transaction id (transaction, the default: <id>_data.json) or after the source file (source: <stem>.json, <stem>.csv, <stem>_0.pdf; same-stem files get _1, _2, ...)",
    options: ["transaction", "source"],
    default: "transaction",
    helpValue: "WHAT",
  });
