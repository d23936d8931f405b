/**
 * Help texts: the short root help grouped by task, a topic's verbs, one command's full help (oclif's renderer).
 * The root help stays about one screen: one line per command, a few examples, the exit codes.
 */
import { CommandHelp, type Command, type Config } from "@oclif/core";
import pkg from "../../package.json" with { type: "json" };
import { maxOf } from "../core/arrays";
import { COMMANDS, GROUPS, spokenId } from "./index";

/** The examples the root help shows: the everyday commands, one line each. */
const ROOT_EXAMPLES = [
  "docproc process fixtures/inbox                    # process a folder; results and exports in ./docproc-out",
  "docproc review docproc-out                        # check and correct them in the browser",
  "docproc export docproc-out --format csv,xlsx --out exports",
  "docproc watch ./inbox --out ./docproc-out         # process what lands in a folder",
  "docproc serve --data ./docproc-data               # the HTTP API and web pages",
  "docproc worker --data ./docproc-data              # more workers for the same queue",
];

export function rootHelp(): string {
  const width = maxOf(GROUPS.flatMap((g) => g.commands.map((c) => c.length)));
  const lines = [
    `docproc ${pkg.version}: ${pkg.description}`,
    "USAGE  docproc <command> [args] [options]   ·   docproc <command> --help   ·   docproc <topic> <verb> --help",
    "",
    "COMMANDS",
  ];
  for (const group of GROUPS) {
    lines.push(`${group.title}:`);
    if (group.together) lines.push(`  ${group.together.names.join(", ")}  ${group.together.summary}`);
    for (const id of group.commands.filter((c) => !group.together?.names.includes(c)))
      lines.push(`  ${id.padEnd(width)}  ${COMMANDS[id]?.summary ?? ""}`);
  }
  lines.push("", "EXAMPLES");
  for (const e of ROOT_EXAMPLES) lines.push(`  ${e}`);
  lines.push(
    "EXIT CODES  0 success · 1 some input failed · 2 usage error · 3 locked by another run · 4 configuration error",
    "",
  );
  return lines.join("\n");
}

/** One command's help: usage, arguments, flags, description, examples. */
export function commandHelp(id: string, Cmd: Command.Class, config: Config): string {
  const help = new CommandHelp(toLoadable(id, Cmd), config, {
    maxWidth: helpWidth(),
    stripAnsi: !process.stdout.isTTY,
  });
  return `${help.generate()}\n`;
}

/**
 * The manifest entry oclif's help renderer expects (what file-system discovery would have cached): the class's
 * static fields, with each flag and argument carrying its own name, and the id as typed (`mail add`).
 */
function toLoadable(id: string, Cmd: Command.Class): Command.Loadable {
  const named = <T extends object>(defs: Record<string, T> | undefined) =>
    Object.fromEntries(Object.entries(defs ?? {}).map(([name, def]) => [name, { ...def, name }]));
  return {
    id: spokenId(id),
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
