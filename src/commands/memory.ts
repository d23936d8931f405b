/** `docproc memory learn|list|show|forget`: flags and help only; the work is in src/cli/memory-run.ts. */
import { Args, Command, Flags } from "@oclif/core";

export default class MemoryCommand extends Command {
  static summary = "What a project learned from confirmed documents: learn from a document, list, show, forget";
  static description = [
    "A project remembers, per confirmed document, who issued it (VAT ID, IBAN, name, domain, layout) and where each " +
      "field was printed; later documents of that issuer are read there first (docs/memory.md). Memories live in the " +
      "project file under `memory`, so they travel with it; on a server use the API (.../memories).",
    "learn DOC --expected DOC.json: processes DOC and remembers the expected values (the eval file shape, docs/eval.md). " +
      "list: one line per memory. show ID: everything remembered. forget ID: removes it. learn and forget rewrite the " +
      "project file after a backup to FILE.bak.",
    "Exit codes: 0 done, 1 the document could not be read, 2 usage error or unknown memory id, 4 invalid project settings.",
  ].join("\n\n");
  static examples = [
    "<%= config.bin %> <%= command.id %> learn invoice-0412.pdf --expected invoice-0412.json --project vendors.yaml",
    "<%= config.bin %> <%= command.id %> list --project vendors.yaml",
    "<%= config.bin %> <%= command.id %> forget 0b9c…e1 --project vendors.yaml",
  ];
  static args = {
    action: Args.string({
      description: "learn, list, show or forget",
      required: true,
      options: ["learn", "list", "show", "forget"],
    }),
    target: Args.string({ description: "learn: the document; show/forget: the memory id" }),
  };
  static flags = {
    project: Flags.string({
      description: "project settings file (YAML or JSON) holding the memories",
      required: true,
      helpValue: "FILE",
    }),
    expected: Flags.string({ description: "learn: the expected values (JSON, eval file shape)", helpValue: "FILE" }),
    json: Flags.boolean({ description: "list/show: print JSON" }),
    "ocr-engine": Flags.string({
      description: "learn: OCR engine for scans",
      options: ["auto", "wasm", "native"],
      helpValue: "ENGINE",
    }),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(MemoryCommand);
    const { runMemory } = await import("../cli/memory-run");
    return runMemory({
      action: args.action as "learn" | "list" | "show" | "forget",
      target: args.target,
      project: flags.project,
      expected: flags.expected,
      json: flags.json,
      ocrEngine: flags["ocr-engine"] as "auto" | "wasm" | "native" | undefined,
    });
  }
}
