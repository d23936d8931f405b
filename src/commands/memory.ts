/** `docproc memory learn|list|show|forget --project FILE`: flags and help only; the work is in src/cli/memory-run.ts. */
import { Args, Command, Flags } from "@oclif/core";
import { jsonFlag, ocrEngineFlag } from "../cli/flags";
import { topicCommand, type Topic } from "./topic";

const projectFlag = () =>
  Flags.string({
    description: "project settings file (YAML or JSON) holding the memories",
    required: true,
    helpValue: "<file>",
  });
const memoryId = () => Args.string({ description: "memory id (from docproc memory list)", required: true });
const EXIT_CODES =
  "Exit codes: 0 done, 1 the document could not be read, 2 usage error or unknown memory id, 4 invalid project settings.";

type MemoryAction = "learn" | "list" | "show" | "forget";
async function runAction(action: MemoryAction, flags: Record<string, unknown>, target?: string): Promise<number> {
  const { runMemory } = await import("../cli/memory-run");
  return runMemory({
    action,
    target,
    project: flags.project as string,
    expected: flags.expected as string | undefined,
    json: flags.json as boolean | undefined,
    ocrEngine: flags["ocr-engine"] as "auto" | "wasm" | "native" | undefined,
  });
}

export class MemoryLearn extends Command {
  static summary = "Process a document and remember its issuer and where each expected value was printed";
  static description = [
    "A project remembers, per confirmed document, who issued it (VAT ID, IBAN, name, domain, layout) and where each " +
      "field was printed; later documents of that issuer are read there first (docs/memory.md). Memories live in the " +
      "project file under `memory`, so they travel with it; on a server use the API (.../memories). The project file " +
      "is created when it does not exist, and rewritten after a backup to FILE.bak otherwise.",
    EXIT_CODES,
  ].join("\n\n");
  static examples = [
    "<%= config.bin %> memory learn invoice-0412.pdf --expected invoice-0412.json --project vendors.yaml",
  ];
  static args = { document: Args.string({ description: "the document (PDF, image, ...)", required: true }) };
  static flags = {
    project: projectFlag(),
    expected: Flags.string({
      description: "the expected values (JSON, the eval file shape: docs/eval.md)",
      required: true,
      helpValue: "<file>",
    }),
    "ocr-engine": ocrEngineFlag("OCR engine for scans"),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(MemoryLearn);
    return runAction("learn", flags, args.document);
  }
}

export class MemoryList extends Command {
  static summary = "List a project's memories, one line each";
  static examples = ["<%= config.bin %> memory list --project vendors.yaml"];
  static flags = { project: projectFlag(), json: jsonFlag() };

  async run(): Promise<number> {
    const { flags } = await this.parse(MemoryList);
    return runAction("list", flags);
  }
}

export class MemoryShow extends Command {
  static summary = "Print everything one memory holds (JSON)";
  static examples = ["<%= config.bin %> memory show 0b9c…e1 --project vendors.yaml"];
  static args = { memory_id: memoryId() };
  static flags = { project: projectFlag(), json: jsonFlag("print JSON (always JSON; accepted for symmetry)") };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(MemoryShow);
    return runAction("show", flags, args.memory_id);
  }
}

export class MemoryForget extends Command {
  static summary = "Remove a memory from the project file (after a backup to FILE.bak)";
  static examples = ["<%= config.bin %> memory forget 0b9c…e1 --project vendors.yaml"];
  static args = { memory_id: memoryId() };
  static flags = { project: projectFlag() };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(MemoryForget);
    return runAction("forget", flags, args.memory_id);
  }
}

export const MEMORY: Topic = {
  name: "memory",
  summary: "What a project learned from confirmed documents: learn from a document, list, show, forget",
  verbs: { learn: MemoryLearn, list: MemoryList, show: MemoryShow, forget: MemoryForget },
};

export default topicCommand(MEMORY);
