/**
 * The explicit command map. Adding a command = importing its class here; nothing is discovered on disk, so the
 * same map works from source and inside the single compiled binary.
 *
 * Command classes MUST stay light at import time (flags, help text, a dynamic import inside `run`), so that
 * listing commands for `--help` does not load the pipeline, OCR or the server.
 */
import type { Command } from "@oclif/core";
import ExportCommand from "../commands/export";
import ProcessCommand from "../commands/process";
import ServeCommand from "../commands/serve";
import WorkerCommand from "../commands/worker";
import WatchCommand from "../commands/watch";
import ClientsCommand from "../commands/clients";
import KeysCommand from "../commands/keys";
import TenantsCommand from "../commands/tenants";
import UsersCommand from "../commands/users";

export const COMMANDS: Record<string, Command.Class> = {
  process: ProcessCommand,
  export: ExportCommand,
  serve: ServeCommand,
  worker: WorkerCommand,
  watch: WatchCommand,
  clients: ClientsCommand,
  keys: KeysCommand,
  tenants: TenantsCommand,
  users: UsersCommand,
};
