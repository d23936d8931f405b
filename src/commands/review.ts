/** `docproc review <results folder>`: flags and help only; the work is in src/cli/review-run.ts. */
import { Args, Command, Flags } from "@oclif/core";

export default class ReviewCommand extends Command {
  static summary = "Review and correct results in the browser: click a word on the page to fix a field";
  static description =
    "Serves the review page on 127.0.0.1 over the <transaction_id>_data.json results files `docproc process` wrote into a folder, " +
    "and opens it in the default browser when there is one. Page images and words come from the original files (their paths are " +
    "in the results files). Every correction rewrites the results file (with last_human_review) and re-runs the export profiles " +
    "into the folder. Runs until Ctrl-C. See docs/review.md.\n\n" +
    "Exit codes: 0 stopped, 2 usage error (no results files), 4 invalid project settings.";
  static examples = [
    "<%= config.bin %> <%= command.id %> docproc-out",
    "<%= config.bin %> <%= command.id %> docproc-out --project my-project.yaml --port 8090 --no-open",
  ];
  static args = {
    folder: Args.string({ description: "folder holding <transaction_id>_data.json results files", required: true }),
  };
  static flags = {
    project: Flags.string({
      description: "project settings file (classes, fields, rules and export profiles to use)",
      helpValue: "<file>",
    }),
    port: Flags.integer({
      description: "port on 127.0.0.1 (default: a free one)",
      min: 0,
      max: 65535,
      helpValue: "<port>",
    }),
    open: Flags.boolean({ description: "open the page in the default browser", default: true, allowNo: true }),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(ReviewCommand);
    const { runReviewCommand } = await import("../cli/review-run");
    return runReviewCommand({ folder: args.folder, project: flags.project, port: flags.port, open: flags.open });
  }
}
