/**
 * Direct dispatch: `docproc <command> [args]` → the command class from the static map, run against an oclif
 * Config built from the embedded package.json (no package.json or manifest is read from disk).
 *
 * MUST map every failure to an exit code: oclif parse errors (unknown flag, missing argument) → 2,
 * DocprocError → `exitCodeOf`, anything else → 1, printed as one `docproc: …` line on stderr.
 */
import { CommandHelp, Config, Errors, type Command } from "@oclif/core";
import pkg from "../../package.json" with { type: "json" };
import { DocprocError, exitCodeOf } from "../core/errors";
import { COMMANDS } from "./index";
import { paintFor } from "../cli/colour";
import { didYouMean, unknownFlagOf } from "../cli/suggest";
import { maxOf } from "../core/arrays";

const HELP_FLAGS = new Set(["--help", "-h"]);

let configPromise: Promise<Config> | undefined;

/** The oclif Config for this CLI, loaded once. */
export function cliConfig(): Promise<Config> {
  configPromise ??= (async () => {
    const pjson = {
      ...pkg,
      oclif: { bin: "docproc", dirname: "docproc", exitCodes: { default: 2 } },
    } as unknown as Config["pjson"];
    const config = new Config({ root: import.meta.dir, pjson, ignoreManifest: true, isRoot: true });
    await config.load();
    return config;
  })();
  return configPromise;
}

export async function dispatch(argv: string[]): Promise<number> {
  const [id, ...rest] = argv;
  if (id === undefined || HELP_FLAGS.has(id) || (id === "help" && rest.length === 0)) {
    process.stdout.write(rootHelp());
    return 0;
  }
  if (id === "help") return showCommandHelp(rest[0]!);
  const Cmd = COMMANDS[id];
  if (!Cmd) {
    process.stderr.write(
      `${prefix()} unknown command "${id}".${didYouMean(id, Object.keys(COMMANDS), (c) => `docproc ${c}`)} Commands: ${Object.keys(COMMANDS).join(", ")}. See docproc --help.\n`,
    );
    return 2;
  }
  if (rest.some((a) => HELP_FLAGS.has(a)) && !rest.includes("--")) return showCommandHelp(id);
  return runCommand(id, Cmd, rest);
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
    return reportError(err, { id, flags: Object.keys(Cmd.flags ?? {}) });
  }
}

/** `docproc:` in red on a terminal (NO_COLOR respected). */
const prefix = () => paintFor(process.stderr).red("docproc:");

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

async function showCommandHelp(id: string): Promise<number> {
  const Cmd = COMMANDS[id];
  if (!Cmd) {
    process.stderr.write(
      `${prefix()} unknown command "${id}".${didYouMean(id, Object.keys(COMMANDS), (c) => `docproc help ${c}`)}\n`,
    );
    return 2;
  }
  const config = await cliConfig();
  const help = new CommandHelp(toLoadable(id, Cmd), config, {
    maxWidth: helpWidth(),
    stripAnsi: !process.stdout.isTTY,
  });
  process.stdout.write(`${help.generate()}\n`);
  return 0;
}

/**
 * The manifest entry oclif's help renderer expects (what file-system discovery would have cached): the class's
 * static fields, with each flag and argument carrying its own name.
 */
function toLoadable(id: string, Cmd: Command.Class): Command.Loadable {
  const named = <T extends object>(defs: Record<string, T> | undefined) =>
    Object.fromEntries(Object.entries(defs ?? {}).map(([name, def]) => [name, { ...def, name }]));
  return {
    id,
    summary: Cmd.summary,
    description: Cmd.description,
    examples: Cmd.examples,
    usage: Cmd.usage,
    strict: Cmd.strict,
    aliases: Cmd.aliases ?? [],
    flags: named(Cmd.flags),
    args: named(Cmd.args),
    hidden: false,
    pluginType: "core",
    load: async () => Cmd,
  } as unknown as Command.Loadable;
}

function helpWidth(): number {
  return Math.max(60, Math.min(process.stdout.columns ?? 100, 120));
}

export function rootHelp(): string {
  const lines = [
    `docproc ${pkg.version}: ${pkg.description}`,
    "",
    "USAGE",
    "  $ docproc <command> [options]",
    "",
    "COMMANDS",
  ];
  const width = maxOf(Object.keys(COMMANDS).map((k) => k.length));
  for (const [id, Cmd] of Object.entries(COMMANDS)) lines.push(`  ${id.padEnd(width)}  ${Cmd.summary ?? ""}`);
  lines.push("", "EXAMPLES");
  for (const [id, Cmd] of Object.entries(COMMANDS)) {
    for (const ex of Cmd.examples ?? []) {
      const text = typeof ex === "string" ? ex : ex.command;
      lines.push(`  ${text.replaceAll("<%= config.bin %>", "docproc").replaceAll("<%= command.id %>", id)}`);
    }
  }
  lines.push(
    "",
    "OPTIONS",
    "  -h, --help     Show help (also: docproc <command> --help, docproc help <command>)",
    "  -v, --version  Print the version",
    "",
    "EXIT CODES",
    "  0 success · 1 some input failed · 2 usage error · 3 locked by another run · 4 configuration error",
    "",
  );
  return lines.join("\n");
}
