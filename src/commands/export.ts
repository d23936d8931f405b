/** `docproc export <results...>`: flags and help only; the work is in src/cli/export-run.ts. */
import { Args, Command, Flags } from "@oclif/core";
import { outFlag } from "../cli/flags";

export default class ExportCommand extends Command {
  static summary = "Re-run export profiles over results files written by `docproc process`";
  static description =
    "Reads <transaction_id>_data.json results files (or every one in a folder) and writes the export files of the " +
    "project's current profiles, or of --format, into --out. JSON, CSV, XLSX and XML need only the results file; " +
    "PDF and JPG re-read the original file (its path is recorded in the results file) and fail with a reason when it is gone.\n\n" +
    "Exit codes: 0 every export succeeded, 1 any profile failed, 2 usage error, 4 invalid project settings.";
  static examples = [
    "<%= config.bin %> <%= command.id %> docproc-out --format csv,xlsx --out spreadsheets",
    "<%= config.bin %> <%= command.id %> docproc-out/0b5c…_data.json --project my-project.yaml",
  ];
  static strict = false;
  static args = {
    results: Args.string({
      description: "results files (<transaction_id>_data.json) or folders holding them",
      required: true,
    }),
  };
  static flags = {
    out: outFlag(),
    project: Flags.string({ description: "project settings file whose export profiles to run", helpValue: "<file>" }),
    format: Flags.string({
      description: "export formats instead of the project's profiles: json,csv,xlsx,xml,pdf,jpg,ubl,cii,facturx",
      helpValue: "<list>",
    }),
    json: Flags.boolean({ description: "print a machine-readable summary on stdout" }),
  };

  async run(): Promise<number> {
    const { argv, flags } = await this.parse(ExportCommand);
    const { runExportCommand } = await import("../cli/export-run");
    return runExportCommand({
      paths: argv as string[],
      out: flags.out,
      project: flags.project,
      format: flags.format,
      json: flags.json,
    });
  }
}
