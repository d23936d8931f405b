/**
 * The explicit command map. Adding a command = importing its class here; nothing is discovered on disk, so the
 * same map works from source and inside the single compiled binary.
 *
 * Command classes MUST stay light at import time (flags, help text, a dynamic import inside `run`), so that
 * listing commands for `--help` does not load the pipeline, OCR or the server.
 */
import type { Command } from "@oclif/core";
import ClientsCommand from "../commands/clients";
import DeliveriesCommand from "../commands/deliveries";
import EvalCommand from "../commands/eval";
import ExportCommand from "../commands/export";
import MemoryCommand from "../commands/memory";
import KeysCommand from "../commands/keys";
import MailCommand from "../commands/mail";
import ProcessCommand from "../commands/process";
import ReviewCommand from "../commands/review";
import ServeCommand from "../commands/serve";
import TenantsCommand from "../commands/tenants";
import TrainCommand from "../commands/train";
import UsersCommand from "../commands/users";
import CaptureCommand from "../commands/capture";
import WatchCommand from "../commands/watch";
import WorkerCommand from "../commands/worker";

/** In the order `docproc --help` lists them: the everyday commands first, administration last. */
export const COMMANDS: Record<string, Command.Class> = {
  process: ProcessCommand,
  watch: WatchCommand,
  mail: MailCommand,
  export: ExportCommand,
  review: ReviewCommand,
  train: TrainCommand,
  eval: EvalCommand,
  memory: MemoryCommand,
  deliveries: DeliveriesCommand,
  serve: ServeCommand,
  worker: WorkerCommand,
  tenants: TenantsCommand,
  clients: ClientsCommand,
  keys: KeysCommand,
  users: UsersCommand,
  capture: CaptureCommand,
};
