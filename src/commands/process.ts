/**
 * `docproc process <file|folder>...`: flags and help only; the work is in src/cli/process-run.ts. Plain argument
 * lists do not come here: src/cli/process-args.ts reads them without oclif, and MUST read them as these flags do.
 */
import { Args, Command, Flags } from "@oclif/core";
import { concurrencyFlag, nameByFlag, outFlag, projectFileFlag, verbosityFlags, ocrEngineFlag } from "../cli/flags";
import { processOptionsOf } from "../cli/process-args";

export default class ProcessCommand extends Command {
  static summary = "Process files and folders: each file becomes a transaction and a <transaction_id>_data.json";
  static description = [
    "Converts each file (PDF, PNG, JPEG, TIFF, WebP, GIF, BMP), OCRs pages without a usable text layer, splits, " +
      "classifies, extracts and validates, then writes the export files into --out. Folders are walked recursively " +
      "in sorted order; hidden files are skipped. Works offline with the embedded default project.",
    "Exit codes: 0 all files succeeded, 1 any file failed (each is listed with its reason), 2 usage error, " +
      "3 another run holds the --data directory, 4 invalid project settings.",
  ].join("\n\n");
  static examples = [
    "<%= config.bin %> <%= command.id %> fixtures/inbox",
    "<%= config.bin %> <%= command.id %> scan.pdf invoices/ --out results --format json,csv",
    "<%= config.bin %> <%= command.id %> locked.pdf --password s3cret --json > summary.json",
    "<%= config.bin %> <%= command.id %> big.pdf --page-limit 10 --project my-project.yaml",
    "<%= config.bin %> <%= command.id %> /srv/scans --data /var/lib/docproc --json   # cron-safe: skips what was done",
  ];
  static strict = false;
  static args = {
    paths: Args.string({ description: "files and folders to process", required: true }),
  };
  static flags = {
    project: projectFileFlag(),
    out: outFlag(),
    concurrency: concurrencyFlag(
      "number of cores; one more once files need OCR; two per core while the files are born-digital PDFs of up to 8 pages",
    ),
    "page-limit": Flags.integer({
      description: "process only the first N pages of each file",
      min: 1,
      helpValue: "<n>",
    }),
    password: Flags.string({ description: "password for encrypted PDFs", helpValue: "<password>" }),
    json: Flags.boolean({ description: "print a machine-readable summary on stdout (no progress bar)" }),
    format: Flags.string({
      description: "export formats replacing the project's profiles: json,csv,xlsx,xml,pdf,jpg,ubl,cii,facturx",
      helpValue: "<list>",
    }),
    "ocr-engine": ocrEngineFlag(),
    data: Flags.string({
      description:
        "data folder of the processed-files ledger: re-runs skip content already processed, and overlapping runs are refused (exit 3)",
      helpValue: "<dir>",
    }),
    force: Flags.boolean({
      description: "with --data: process files again even if the ledger has them",
      dependsOn: ["data"],
    }),
    "name-by": nameByFlag(),
    ...verbosityFlags(),
  };

  async run(): Promise<number> {
    const { argv, flags } = await this.parse(ProcessCommand);
    const { runProcess } = await import("../cli/process-run");
    return runProcess(processOptionsOf(argv as string[], flags));
  }
}
