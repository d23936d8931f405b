/** `docproc eval <folder>`: flags and help only; the work is in src/cli/eval-run.ts. */
import { Args, Command, Flags } from "@oclif/core";
import { projectFileFlag, ocrEngineFlag } from "../cli/flags";

export default class EvalCommand extends Command {
  static summary = "Measure accuracy on a folder of documents with the expected results beside them";
  static description = [
    "Every document in FOLDER (PDF, images, .txt, .eml) that has a .json of the same name beside it is processed " +
      "with the project and compared with it (shape in docs/eval.md: the results file's `documents[].fields`). " +
      "Prints per-field accuracy, a per-class confusion matrix, split boundary F1 and calibration (accuracy by " +
      "confidence bucket, to set review_thresholds from evidence). Nothing is exported.",
    "--compare A,B evaluates two project files on the same folder side by side (per field, and per subfolder when " +
      "FOLDER holds series in subfolders: a vendor's scans, a shop's receipts, vendors never taught; e.g. a project " +
      "without memory against the same project with it). --min-accuracy fails the run (exit 1) " +
      "when the share of right fields is below it (for CI).",
    "Exit codes: 0 done (and accurate enough), 1 below --min-accuracy, 2 usage error, 4 invalid project settings.",
  ].join("\n\n");
  static examples = [
    "<%= config.bin %> <%= command.id %> testset/",
    "<%= config.bin %> <%= command.id %> testset/ --project mine.yaml --html report.html --min-accuracy 0.95",
    "<%= config.bin %> <%= command.id %> testset/ --compare old.yaml,new.yaml",
  ];
  static args = {
    folder: Args.string({ description: "folder of documents with expected .json files beside them", required: true }),
  };
  static flags = {
    project: projectFileFlag(),
    json: Flags.boolean({ description: "print the report as JSON on stdout" }),
    html: Flags.string({
      description: "also write an HTML report with charts (self-contained, no network)",
      helpValue: "<file>",
    }),
    compare: Flags.string({
      description: "two project files, comma-separated, evaluated side by side",
      helpValue: "<a,b>",
    }),
    "min-accuracy": Flags.string({
      description: "exit 1 when the share of right fields is below this (0..1, or a percentage like 95%)",
      helpValue: "<ratio>",
    }),
    "ocr-engine": ocrEngineFlag("OCR engine: auto, wasm, native"),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(EvalCommand);
    const { runEval } = await import("../cli/eval-run");
    return runEval({
      folder: args.folder,
      project: flags.project,
      json: flags.json,
      html: flags.html,
      compare: flags.compare,
      minAccuracy: flags["min-accuracy"],
      ocrEngine: flags["ocr-engine"] as "auto" | "wasm" | "native" | undefined,
    });
  }
}
