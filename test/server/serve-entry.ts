/** Runs ServeCommand or WorkerCommand exactly as the CLI would (until they are in src/cli/commands.ts). */
import { cliConfig, reportError } from "../../src/cli/dispatch";
import ServeCommand from "../../src/commands/serve";
import WorkerCommand from "../../src/commands/worker";

const [id, ...argv] = process.argv.slice(2);
const Cmd = id === "worker" ? WorkerCommand : ServeCommand;
try {
  const cmd = new Cmd(argv, await cliConfig());
  cmd.id = id!;
  await (cmd as unknown as { _run(): Promise<unknown> })._run();
  process.exit(0);
} catch (err) {
  process.exit(reportError(err));
}
