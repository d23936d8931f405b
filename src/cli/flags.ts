/**
 * Flags that several commands share, defined once so that their defaults, help text and help values cannot drift
 * apart (a script that runs `docproc serve` and `docproc keys create` without --data MUST reach the same directory).
 *
 * Help values name the kind of value, lower case in angle brackets, the same word everywhere: <dir>, <file>,
 * <url>, <id>, <n>, <list>, … (test/cli/commands.test.ts checks every option flag has one).
 */
import { Flags } from "@oclif/core";

/** The data directory of `docproc serve` (SQLite, blobs, exports) for every command that opens it. */
export const dataDirFlag = (description = "data directory") =>
  Flags.string({ description, default: "./docproc-data", env: "DOCPROC_DATA", helpValue: "<dir>" });

/** Where `process`, `watch` and `export` write export files. */
export const outFlag = () =>
  Flags.string({ description: "folder for export files", default: "./docproc-out", helpValue: "<dir>" });

/** A project settings file for the commands that process files. */
export const projectFileFlag = () =>
  Flags.string({
    description: "project settings file (YAML or JSON); default: the embedded default project",
    helpValue: "<file>",
  });

/** Files processed at once by `process` and `watch`. */
export const concurrencyFlag = (defaults = "number of cores") =>
  Flags.integer({ description: `files processed at once (default: ${defaults})`, min: 1, max: 64, helpValue: "<n>" });

/** `--json`: machine-readable output on stdout. */
export const jsonFlag = (description = "print JSON") => Flags.boolean({ description });

/** `--ocr-engine` of the commands that may OCR a page. */
export const ocrEngineFlag = (
  description = "OCR engine: auto (native tesseract when on PATH and working, else embedded), wasm (embedded tesseract.js), native",
) => Flags.string({ description, options: ["auto", "wasm", "native"], helpValue: "<engine>" });

/** A tenant id (admin commands). */
export const tenantFlag = (description: string) => Flags.string({ description, helpValue: "<id>" });

/** Comma-separated permissions of a client or user (docs/auth.md). */
export const permissionsFlag = (description = "comma-separated permissions (default: all but project.manage)") =>
  Flags.string({ description, helpValue: "<list>" });

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
    helpValue: "<format>",
  }),
  "log-level": Flags.string({
    description: "least severe level logged (default: DOCPROC_LOG_LEVEL, else info)",
    options: ["fatal", "error", "warn", "info", "debug", "trace", "silent"],
    helpValue: "<level>",
  }),
});

/** `--name-by` of `process` and `watch`: how result files in the output folder are named (docs/exports.md). */
export const nameByFlag = () =>
  Flags.string({
    description:
      "name results after the transaction id (transaction, the default: <id>_data.json) or after the source file (source: <stem>.json, <stem>.csv, <stem>_0.pdf; same-stem files get _1, _2, ...)",
    options: ["transaction", "source"],
    default: "transaction",
    helpValue: "<what>",
  });
