/**
 * Topics: `docproc mail add`, `docproc keys create`, … A topic groups verbs; each verb is its own command class
 * with its own args, flags, help and examples, registered in the map as `topic:verb` (oclif's id; a space
 * separates them on the command line, as with gh).
 *
 * The class registered under the topic's bare name (`mail`) keeps what `docproc mail ACTION` offered before the
 * verbs had their own classes: it accepts every verb's flags and, run with a verb first, runs that verb's class.
 * The dispatcher never needs it for a known verb; callers that look a command line up by its first word (the docs
 * and deployment checks, scripts importing the map) still find a command that parses it. Without a verb it prints
 * the topic's help.
 */
import { Args, Command, type Config, type Interfaces } from "@oclif/core";
import { maxOf } from "../core/arrays";

export interface Topic {
  name: string;
  summary: string;
  /** Verb → its command class, in the order help lists them. */
  verbs: Record<string, Command.Class>;
}

/** The help of a topic: its verbs with their summaries. */
export function topicHelp(topic: Topic): string {
  const width = maxOf(Object.keys(topic.verbs).map((v) => v.length));
  const lines = [
    topic.summary,
    "",
    "USAGE",
    `  $ docproc ${topic.name} <${Object.keys(topic.verbs).join("|")}> [args] [options]`,
    "",
    "VERBS",
    ...Object.entries(topic.verbs).map(([verb, Cmd]) => `  ${verb.padEnd(width)}  ${Cmd.summary ?? ""}`),
    "",
    `See docproc ${topic.name} <verb> --help for a verb's arguments, options and examples.`,
    "",
  ];
  return lines.join("\n");
}

/**
 * Every verb's flags in one table (the first definition of a name wins: same name, same meaning), none required:
 * a flag one verb requires is unknown to another.
 */
function unionOfFlags(topic: Topic): Interfaces.FlagInput {
  const flags: Record<string, Interfaces.Flag<unknown>> = {};
  for (const Verb of Object.values(topic.verbs))
    for (const [name, def] of Object.entries(Verb.flags ?? {}))
      flags[name] ??= { ...(def as Interfaces.Flag<unknown>), required: false };
  return flags as Interfaces.FlagInput;
}

/** The command registered under the topic's bare name (see the head of this file). */
export function topicCommand(topic: Topic): Command.Class {
  const verbs = Object.keys(topic.verbs);
  return class TopicCommand extends Command {
    static summary = topic.summary;
    static description = `Verbs: ${verbs.join(", ")}. See docproc ${topic.name} <verb> --help.`;
    /** One example per verb (the first of each). */
    static examples = Object.values(topic.verbs).flatMap((Verb) => (Verb.examples ?? []).slice(0, 1));
    static strict = false;
    static args = { verb: Args.string({ description: verbs.join(", "), options: verbs }) };
    static flags = unionOfFlags(topic);

    async run(): Promise<number> {
      const [verb, ...rest] = this.argv;
      const Verb = verb === undefined ? undefined : topic.verbs[verb];
      if (!Verb) {
        process.stdout.write(topicHelp(topic));
        return verb === undefined ? 0 : 2;
      }
      const cmd = new (Verb as unknown as new (argv: string[], config: Config) => Command)(rest, this.config);
      cmd.id = `${topic.name}:${verb}`;
      const result = await (cmd as unknown as { _run(): Promise<unknown> })._run();
      return typeof result === "number" ? result : 0;
    }
  };
}
