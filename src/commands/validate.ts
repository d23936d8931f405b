/** `docproc validate <files|folders>`: flags and help only; the work is in src/cli/validate-run.ts. */
import { Args, Command, Flags } from "@oclif/core";

export default class ValidateCommand extends Command {
  static summary = "Check e-invoices against EN 16931 and the CIUS they claim (XRechnung)";
  static description = [
    "Every .xml and .pdf in the given files and folders (recursively) is checked: a UBL 2.1 Invoice/CreditNote or " +
      "CII D16B XML as it is, a PDF through its attached e-invoice (ZUGFeRD/Factur-X). Rules: structural schema " +
      "checks (partial), the EN 16931 business rules, and XRechnung (BR-DE-*) when the invoice's specification " +
      "identifier (BT-24) claims it. Details, rule set versions and what to do about errors: docs/einvoices.md.",
    "Prints per file VALID or INVALID with the rules that fired (severity, rule id, message, XPath); --json prints " +
      "the same as JSON.",
    "Exit codes: 0 no fatal rule, 1 a file has a fatal rule (or could not be read), 2 usage error.",
  ].join("\n\n");
  static examples = [
    "<%= config.bin %> <%= command.id %> invoice.xml",
    "<%= config.bin %> <%= command.id %> inbox/ --json",
    "<%= config.bin %> <%= command.id %> xrechnung.xml --cius none",
  ];
  static strict = false;
  static args = { paths: Args.string({ description: "e-invoice files (.xml, .pdf) and folders", required: true }) };
  static flags = {
    json: Flags.boolean({ description: "print the reports as JSON on stdout" }),
    cius: Flags.string({
      description: "auto: add the CIUS the invoice claims (XRechnung); none: EN 16931 only",
      options: ["auto", "none"],
      default: "auto",
      helpValue: "<mode>",
    }),
  };

  async run(): Promise<number> {
    const { argv, flags } = await this.parse(ValidateCommand);
    const { runValidate } = await import("../cli/validate-run");
    return runValidate({ paths: argv as string[], json: flags.json, cius: flags.cius as "auto" | "none" });
  }
}
