/** `docproc train --project FILE`: flags and help only; the work is in src/cli/train-run.ts. */
import { Command, Flags } from "@oclif/core";
import { ocrEngineFlag } from "../cli/flags";

export default class TrainCommand extends Command {
  static summary = "Train the project's statistical classifier from labelled example documents";
  static description = [
    "Reads the example documents listed in the project's classes (`example_documents`: `text`, or `path` relative to " +
      "the project file) and, with --examples, every document in DIR/<class_id>/ (PDF, images, .txt). Each file goes " +
      "through the real conversion, with OCR for scans. A naive Bayes model is trained and written into the project " +
      "file as `classifier_model`; `docproc process --project FILE` then uses it next to the cue rules.",
    "The project file is rewritten in its own format (JSON or YAML, comments kept) after a backup to FILE.bak, or " +
      "written to --out (format from its extension). A per-class table shows examples, tokens and leave-one-out accuracy.",
    "Exit codes: 0 trained, 1 an example could not be read, 2 usage error (unknown class folder, fewer than two " +
      "classes with examples), 4 invalid project settings.",
  ].join("\n\n");
  static examples = [
    "<%= config.bin %> <%= command.id %> --project letters.yaml",
    "<%= config.bin %> <%= command.id %> --project letters.json --examples labelled/ --out letters.trained.json",
  ];
  static flags = {
    project: Flags.string({
      description: "project settings file (YAML or JSON) to train",
      required: true,
      helpValue: "<file>",
    }),
    examples: Flags.string({
      description: "folder with one subfolder per class id holding example documents",
      helpValue: "<dir>",
    }),
    out: Flags.string({
      description: "where to write the trained project (default: overwrite --project, keeping FILE.bak)",
      helpValue: "<file>",
    }),
    "ocr-engine": ocrEngineFlag("OCR engine for scanned examples: auto, wasm (embedded tesseract.js), native"),
  };

  async run(): Promise<number> {
    const { flags } = await this.parse(TrainCommand);
    const { runTrain } = await import("../cli/train-run");
    return runTrain({
      project: flags.project,
      examples: flags.examples,
      out: flags.out,
      ocrEngine: flags["ocr-engine"] as "auto" | "wasm" | "native" | undefined,
    });
  }
}
