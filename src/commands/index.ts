/**
 * The explicit command map. Adding a command = importing its class here; nothing is discovered on disk, so the
 * same map works from source and inside the single compiled binary.
 *
 * Command classes MUST stay light at import time (flags, help text, a dynamic import inside `run`), so that
 * listing commands for `--help` does not load the pipeline, OCR or the server.
 *
 * Topics (`mail`, `keys`, …) register each verb as `topic:verb` and the topic's bare name (src/commands/topic.ts).
 */
import type { Command } from "@oclif/core";
import CaptureCommand from "./capture";
import ClientsCommand, { CLIENTS } from "./clients";
import { completionCommand } from "./completion";
import DeliveriesCommand, { DELIVERIES } from "./deliveries";
import EvalCommand from "./eval";
import ExportCommand from "./export";
import KeysCommand, { KEYS } from "./keys";
import MailCommand, { MAIL } from "./mail";
import MemoryCommand, { MEMORY } from "./memory";
import MigrateCommand from "./migrate";
import ProcessCommand from "./process";
import ReviewCommand from "./review";
import ServeCommand from "./serve";
import TenantsCommand, { TENANTS } from "./tenants";
import type { Topic } from "./topic";
import TrainCommand from "./train";
import UsersCommand, { USERS } from "./users";
import ValidateCommand from "./validate";
import WatchCommand from "./watch";
import WorkerCommand from "./worker";

export const TOPICS: Record<string, Topic> = Object.fromEntries(
  [MAIL, MEMORY, DELIVERIES, TENANTS, CLIENTS, KEYS, USERS].map((t) => [t.name, t]),
);

/**
 * The commands of the root help, grouped by task, in the order listed. `together`: these share one line (the
 * admin topics), so that the root help stays one screen; `docproc <topic>` lists each one's verbs.
 */
export const GROUPS: Array<{ title: string; commands: string[]; together?: { names: string[]; summary: string } }> = [
  {
    title: "Process, review, export",
    commands: ["process", "watch", "review", "export", "validate", "memory", "train", "eval"],
  },
  { title: "Serve and operate", commands: ["serve", "worker", "migrate", "mail", "deliveries", "capture"] },
  {
    title: "Admin",
    commands: ["tenants", "clients", "keys", "users", "completion"],
    together: {
      names: ["tenants", "clients", "keys", "users"],
      summary: "Tenants, API clients and their keys, sign-in users of a data directory",
    },
  },
];

/** Every command by id: the top-level ones and topics by name, each verb as `topic:verb`. */
export const COMMANDS: Record<string, Command.Class> = {
  process: ProcessCommand,
  watch: WatchCommand,
  mail: MailCommand,
  export: ExportCommand,
  review: ReviewCommand,
  train: TrainCommand,
  eval: EvalCommand,
  validate: ValidateCommand,
  memory: MemoryCommand,
  deliveries: DeliveriesCommand,
  serve: ServeCommand,
  worker: WorkerCommand,
  migrate: MigrateCommand,
  tenants: TenantsCommand,
  clients: ClientsCommand,
  keys: KeysCommand,
  users: UsersCommand,
  capture: CaptureCommand,
  completion: completionCommand(() => COMMANDS),
  ...Object.fromEntries(
    Object.values(TOPICS).flatMap((t) => Object.entries(t.verbs).map(([verb, Cmd]) => [`${t.name}:${verb}`, Cmd])),
  ),
};

/** `mail add …` → mail:add; `process …` → process; a topic without a known verb resolves to the topic. */
export function resolveCommand(argv: string[]): { id: string; Cmd: Command.Class; rest: string[] } | undefined {
  const [first, second, ...more] = argv;
  if (first === undefined) return undefined;
  const verbId = second === undefined ? undefined : `${first}:${second}`;
  if (verbId && TOPICS[first] && COMMANDS[verbId]) return { id: verbId, Cmd: COMMANDS[verbId], rest: more };
  const Cmd = COMMANDS[first];
  return Cmd ? { id: first, Cmd, rest: argv.slice(1) } : undefined;
}

/** How a command id reads on the command line (`mail:add` → `mail add`). */
export const spokenId = (id: string) => id.replace(":", " ");
