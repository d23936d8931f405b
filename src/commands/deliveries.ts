/** `docproc deliveries list <transaction_id> | redeliver <delivery_id> --data DIR`: the webhook delivery log. */
import { Args, Command, Flags } from "@oclif/core";
import { dataDirFlag, jsonFlag } from "../cli/flags";
import { topicCommand, type Topic } from "./topic";

const ON_DB =
  "Reads <data>/docproc.db, the database of docproc serve (also while it runs), or PostgreSQL with " +
  "DOCPROC_DATABASE_URL. See docs/webhooks.md.";

/** The delivery log's database; a --data without one is a usage error naming the flag. */
async function withLog<T>(
  cmd: Command,
  dataDir: string,
  fn: Parameters<typeof import("../cli/admin").withDataDb<T>>[1],
) {
  const [{ withDataDb }, { existsSync }, path, { loadEnvSettings }] = await Promise.all([
    import("../cli/admin"),
    import("node:fs"),
    import("node:path"),
    import("../settings/env"),
  ]);
  // With DOCPROC_DATABASE_URL the log is in PostgreSQL, whatever --data holds.
  if (!loadEnvSettings().database.url && !existsSync(path.join(path.resolve(dataDir), "docproc.db")))
    cmd.error(`no docproc database in ${dataDir} (give the data directory of docproc serve with --data)`, { exit: 2 });
  return withDataDb(dataDir, fn);
}

export class DeliveriesList extends Command {
  static summary = "List a transaction's webhook deliveries and each attempt";
  static description =
    `Shows every delivery of the transaction (event, state, attempts) and each attempt (HTTP status, kind, duration, error). ${ON_DB}`;
  static examples = [
    "<%= config.bin %> deliveries list 7f0c2a4e-… --data ./docproc-data",
    "<%= config.bin %> deliveries list 7f0c2a4e-… --json",
  ];
  static args = { transaction_id: Args.string({ description: "transaction id", required: true }) };
  static flags = { data: dataDirFlag(), json: jsonFlag() };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(DeliveriesList);
    const [{ printResult }, store, { renderTable }] = await Promise.all([
      import("../cli/admin"),
      import("../storage/jobs/deliveries"),
      import("../cli/table"),
    ]);
    return withLog(this, flags.data, (db) => {
      const items = store.listDeliveries(db, args.transaction_id);
      if (flags.json) printResult({ transaction_id: args.transaction_id, deliveries: items }, true);
      else if (items.length === 0)
        process.stdout.write(`no webhook deliveries for transaction ${args.transaction_id}\n`);
      else {
        printResult(items, false, ["delivery_id", "node_id", "event_name", "state", "attempts", "url", "last_error"]);
        const rows = items.flatMap((d) =>
          d.attempt_log.map((a) => [
            d.delivery_id,
            String(a.attempt),
            a.started_at,
            a.status === null ? "-" : String(a.status),
            a.kind,
            `${a.duration_ms} ms`,
            a.error ?? "",
          ]),
        );
        if (rows.length)
          process.stdout.write(
            `\nAttempts:\n${renderTable(["delivery_id", "attempt", "started_at", "status", "kind", "duration", "error"], rows)}`,
          );
      }
      return 0;
    });
  }
}

export class DeliveriesRedeliver extends Command {
  static summary = "Send a finished webhook delivery again, as a new delivery";
  static description = [
    "The redelivery has a new webhook-id and the same body. Unless --no-wait it is sent from this process until it " +
      "ends; a running server or worker may take it instead. A redelivery never changes the transaction's status. " +
      `Loopback or private receivers need DOCPROC_WEBHOOK_ALLOW, as for the server. ${ON_DB}`,
    "Exit codes: 0 the delivery succeeded (or was queued with --no-wait), 1 the redelivery failed, 2 usage error or unknown id.",
  ].join("\n\n");
  static examples = ["<%= config.bin %> deliveries redeliver msg_1b2c… --data ./docproc-data"];
  static args = { delivery_id: Args.string({ description: "delivery id", required: true }) };
  static flags = {
    data: dataDirFlag(),
    wait: Flags.boolean({
      description: "send it from this process and wait for the result",
      default: true,
      allowNo: true,
    }),
    json: jsonFlag(),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(DeliveriesRedeliver);
    const [{ printResult }, store, queue, { runDeliveryToEnd }, { loadEnvSettings }] = await Promise.all([
      import("../cli/admin"),
      import("../storage/jobs/deliveries"),
      import("../queue/deliveries"),
      import("../queue/delivery-attempts"),
      import("../settings/env"),
    ]);
    return withLog(this, flags.data, async (db, clock) => {
      const original = store.getDelivery(db, args.delivery_id);
      if (!original) this.error(`delivery ${args.delivery_id} not found`, { exit: 2 });
      const created = queue.redeliver(db, clock, original.delivery_id);
      const final = flags.wait
        ? await runDeliveryToEnd(db, clock, created.delivery_id, queue.webhookSettingsOf(loadEnvSettings().webhooks))
        : created;
      const view = store.viewOf(db, final);
      if (flags.json) printResult(view, true);
      else
        process.stdout.write(
          `${view.delivery_id} (redelivery of ${original.delivery_id}): ${view.state}${view.last_error ? ` (${view.last_error})` : ""}\n`,
        );
      return view.state === "failed" ? 1 : 0;
    });
  }
}

export const DELIVERIES: Topic = {
  name: "deliveries",
  summary: "List a transaction's webhook deliveries, or send one again",
  verbs: { list: DeliveriesList, redeliver: DeliveriesRedeliver },
};

export default topicCommand(DELIVERIES);
