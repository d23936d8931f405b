/** `docproc capture`: phone capture from the terminal, against a running server (logic in src/capture/terminal.ts). */
import { Command, Flags } from "@oclif/core";

export default class CaptureCommand extends Command {
  static summary = "Show a QR code for phone capture, wait for the pages, and print what was found";
  static description =
    "Asks the server for a capture token (the key needs transaction.create), prints the QR code with the capture " +
    "link under it, waits until the phone has sent the pages and the transaction has finished, then prints the " +
    "documents with their types and key fields (reading results needs transaction.download_results). The phone " +
    "opens the link on the server's public URL (DOCPROC_PUBLIC_URL on the server), so it must be reachable from the phone.";
  static examples = [
    "DOCPROC_API_KEY=dp_live_... <%= config.bin %> <%= command.id %> --server http://192.168.1.20:8080 --project 3f0c...",
    "<%= config.bin %> <%= command.id %> --server https://docs.example.com --project 3f0c... --tenant acme --page-limit 5 --json",
  ];
  static flags = {
    server: Flags.string({ description: "base URL of the docproc server", required: true, helpValue: "<url>" }),
    project: Flags.string({ description: "project id", required: true, helpValue: "<id>" }),
    tenant: Flags.string({ description: "tenant id", default: "default", helpValue: "<id>" }),
    "api-key": Flags.string({
      description: "API key with transaction.create",
      env: "DOCPROC_API_KEY",
      helpValue: "<key>",
    }),
    "page-limit": Flags.integer({
      description: "most pages the phone may send (and that are processed)",
      min: 1,
      helpValue: "<n>",
    }),
    ttl: Flags.integer({
      description: "seconds to send the pages once the code is opened (default 900, at most 3600)",
      min: 1,
      max: 3600,
      helpValue: "<s>",
    }),
    dataset: Flags.string({
      description: "dataset of the transaction",
      options: ["production", "playground"],
      default: "production",
      helpValue: "<dataset>",
    }),
    label: Flags.string({
      description: "label stored with the token (for you, not shown on the phone)",
      helpValue: "<text>",
    }),
    json: Flags.boolean({ description: "print the result as JSON on stdout (QR code and progress go to stderr)" }),
  };

  async run(): Promise<number> {
    const { flags } = await this.parse(CaptureCommand);
    const apiKey = flags["api-key"] ?? this.error("an API key is needed: --api-key or DOCPROC_API_KEY", { exit: 2 });
    const { runCapture } = await import("../capture/terminal");
    const write = (s: string) => process.stdout.write(s.endsWith("\n") ? s : `${s}\n`);
    const note = (s: string) => (flags.json ? process.stderr : process.stdout).write(s.endsWith("\n") ? s : `${s}\n`);
    const { status } = await runCapture(
      {
        server: flags.server,
        tenant: flags.tenant,
        project: flags.project,
        apiKey,
        pageLimit: flags["page-limit"],
        ttlSeconds: flags.ttl,
        datasetId: flags.dataset,
        label: flags.label,
        json: flags.json,
      },
      { out: write, note, sleep: (ms) => Bun.sleep(ms) },
    );
    return status === "completed" ? 0 : 1;
  }
}
