/**
 * Direct dispatch: `docproc <command> [args]` or `docproc <topic> <verb> [args]` → the command class from the static
 * map, run against an oclif Config built from the embedded package.json (no package.json or manifest is read from
 * disk).
 *
 * MUST map every failure to an exit code: oclif parse errors (unknown flag, missing argument) → 2,
 * DocprocError → `exitCodeOf`, anything else → 1, printed as one `docproc: …` line on stderr.
 */
import { Config, Errors, type Command } from "@oclif/core";
import pkg from "../../package.json" with { type: "json" };
import { DocprocError, exitCodeOf } from "../core/errors";
import { COMMANDS, resolveCommand, spokenId, TOPICS } from "./index";
import { paintFor } from "../cli/colour";
import { didYouMean, unknownFlagOf } from "../cli/suggest";
import { commandHelp, rootHelp } from "./help";
import { topicHelp } from "./topic";

const HELP_FLAGS = new Set(["--help", "-h"]);

let configPromise: Promise<Config> | undefined;

/** The oclif Config for this CLI, loaded once. */
export function cliConfig(): Promise<Config> {
  configPromise ??= (async () => {
    const pjson = {
      ...pkg,
      oclif: { bin: "docproc", dirname: "docproc", exitCodes: { default: 2 }, topicSeparator: " " },
    } as unknown as Config["pjson"];
    const config = new Config({ root: import.meta.dir, pjson, ignoreManifest: true, isRoot: true });
    await config.load();
    return config;
  })();
  return configPromise;
}

/** The names typed first: commands and topics (`mail`), not the `topic:verb` ids. */
const topLevel = () => Object.keys(COMMANDS).filter((id) => !id.includes(":"));

export { rootHelp };

export async function dispatch(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || HELP_FLAGS.has(first) || (first === "help" && rest.length === 0)) {
    process.stdout.write(rootHelp());
    return 0;
  }
  if (first === "help") return showHelp(rest);
  const found = resolveCommand(argv);
  if (!found) return unknownCommand(first, (c) => `docproc ${c}`);
  const wantsHelp = found.rest.some((a) => HELP_FLAGS.has(a)) && !found.rest.includes("--");
  const topic = TOPICS[found.id];
  if (topic) {
    // A topic without a known verb: its help when asked for (or given nothing), else a usage error naming the verbs.
    const verb = found.rest[0];
    if (verb === undefined || wantsHelp) {
      process.stdout.write(topicHelp(topic));
      return 0;
    }
    const verbs = Object.keys(topic.verbs);
    const what = verb.startsWith("-")
      ? `docproc ${topic.name} needs a verb first`
      : `unknown command "${topic.name} ${verb}".`;
    process.stderr.write(
      `${prefix()} ${what}${verb.startsWith("-") ? "." : didYouMean(verb, verbs, (v) => `docproc ${topic.name} ${v}`)} Verbs: ${verbs.join(", ")}. See docproc ${topic.name} --help.\n`,
    );
    return 2;
  }
  if (wantsHelp) return showCommandHelp(found.id, found.Cmd);
  return runCommand(found.id, found.Cmd, found.rest);
}

async function runCommand(id: string, Cmd: Command.Class, argv: string[]): Promise<number> {
  const config = await cliConfig();
  try {
    const cmd = new (Cmd as unknown as new (argv: string[], config: Config) => Command)(argv, config);
    cmd.id = id;
    // `_run` is oclif's own init → run → catch → finally sequence; `Command.run` would reload the config.
    const result = await (cmd as unknown as { _run(): Promise<unknown> })._run();
    return typeof result === "number" ? result : 0;
  } catch (err) {
    return reportError(err, { id: spokenId(id), flags: Object.keys(Cmd.flags ?? {}) });
  }
}

/** `docproc:` in red on a terminal (NO_COLOR respected). */
const prefix = () => paintFor(process.stderr).red("docproc:");

function unknownCommand(name: string, spell: (c: string) => string): number {
  process.stderr.write(
    `${prefix()} unknown command "${name}".${didYouMean(name, topLevel(), spell)} Commands: ${topLevel().join(", ")}. See docproc --help.\n`,
  );
  return 2;
}

/** Prints one line for a failure and returns the exit code it maps to. */
export function reportError(err: unknown, command?: { id: string; flags: string[] }): number {
  if (err instanceof Errors.ExitError) return err.oclif.exit ?? 0;
  if (err instanceof DocprocError) {
    process.stderr.write(`${prefix()} ${err.message}\n`);
    return exitCodeOf(err);
  }
  if (err instanceof Errors.CLIError) {
    const flag = command && unknownFlagOf(err.message);
    // oclif's own text ends in a second "See more help" line: one line with the suggestion instead.
    const text = flag
      ? `unknown flag --${flag} for ${command.id}.${didYouMean(flag, command.flags, (f) => `--${f}`)} See docproc ${command.id} --help.`
      : err.message.trim();
    process.stderr.write(`${prefix()} ${text}\n`);
    return err.oclif.exit ?? 2;
  }
  process.stderr.write(
    `${prefix()} internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  return exitCodeOf(err);
}

/** `docproc help <command>` / `docproc help <topic> [verb]`. */
async function showHelp(words: string[]): Promise<number> {
  const found = resolveCommand(words);
  if (!found) return unknownCommand(words[0]!, (c) => `docproc help ${c}`);
  const topic = TOPICS[found.id];
  if (topic) {
    process.stdout.write(topicHelp(topic));
    return 0;
  }
  return showCommandHelp(found.id, found.Cmd);
}

async function showCommandHelp(id: string, Cmd: Command.Class): Promise<number> {
  process.stdout.write(commandHelp(id, Cmd, await cliConfig()));
  return 0;
}
