/** Runs ServeCommand exactly as the CLI would (until `serve` is in src/cli/commands.ts). */
import { cliConfig, reportError } from "../../src/cli/dispatch";
import ServeCommand from "../../src/commands/serve";

try {
  const cmd = new ServeCommand(process.argv.slice(2), await cliConfig());
  cmd.id = "serve";
  await (cmd as unknown as { _run(): Promise<unknown> })._run();
  process.exit(0);
} catch (err) {
  process.exit(reportError(err));
}
