/**
 * The explicit command map. Adding a command = importing its class here; nothing is discovered on disk, so the
 * same map works from source and inside the single compiled binary.
 *
 * Command classes MUST stay light at import time (flags, help text, a dynamic import inside `run`), so that
 * listing commands for `--help` does not load the pipeline, OCR or the server.
 */
import type { Command } from "@oclif/core";
import ClientsCommand from "./clients";
import DeliveriesCommand from "./deliveries";
import EvalCommand from "./eval";
import ExportCommand from "./export";
import MemoryCommand from "./memory";
import MigrateCommand from "./migrate";
import KeysCommand from "./keys";
import MailCommand from "./mail";
import ProcessCommand from "./process";
import ReviewCommand from "./review";
import ServeCommand from "./serve";
import TenantsCommand from "./tenants";
import TrainCommand from "./train";
import UsersCommand from "./users";
import ValidateCommand from "./validate";
import CaptureCommand from "./capture";
import WatchCommand from "./watch";
import WorkerCommand from "./worker";

/** In the order `docproc --help` lists them: the everyday commands first, administration last. */
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
};
