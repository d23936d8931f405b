/** `docproc deliveries list <transaction_id> | redeliver <delivery_id> --data DIR`: the webhook delivery log. */
import { Args, Command, Flags } from "@oclif/core";
import { dataDirFlag } from "../cli/flags";

export default class DeliveriesCommand extends Command {
  static summary = "List a transaction's webhook deliveries, or send one again";
  static description = [
    "Reads <data>/docproc.db, the database of docproc serve (also while it runs). `list` shows every delivery of the " +
      "transaction (event, state, attempts) and each attempt (HTTP status, kind, duration, error). `redeliver` sends " +
      "a finished delivery again as a new delivery (new webhook-id, same body) and, unless --no-wait, sends it from " +
      "this process until it ends; a running server or worker may take it instead. A redelivery never changes the " +
      "transaction's status. Loopback or private receivers need DOCPROC_WEBHOOK_ALLOW, as for the server. See docs/webhooks.md.",
    "Exit codes: 0 done (redeliver: the delivery succeeded, or was queued with --no-wait), 1 the redelivery failed, 2 usage error or unknown id.",
  ].join("\n\n");
  static examples = [
    "<%= config.bin %> <%= command.id %> list 7f0c2a4e-… --data ./docproc-data",
    "<%= config.bin %> <%= command.id %> redeliver msg_1b2c… --data ./docproc-data",
    "<%= config.bin %> <%= command.id %> list 7f0c2a4e-… --json",
  ];
  static args = {
    action: Args.string({ description: "list or redeliver", required: true, options: ["list", "redeliver"] }),
    id: Args.string({ description: "transaction id (list) or delivery id (redeliver)", required: true }),
  };
  static flags = {
    data: dataDirFlag(),
    wait: Flags.boolean({
      description: "redeliver: send it from this process and wait for the result",
      default: true,
      allowNo: true,
    }),
    json: Flags.boolean({ description: "print JSON" }),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(DeliveriesCommand);
    const [{ withDataDb, printResult }, store, queue, { runDeliveryToEnd }, { renderTable }] = await Promise.all([
      import("../cli/admin"),
      import("../storage/deliveries"),
      import("../queue/deliveries"),
      import("../queue/delivery-attempts"),
      import("../cli/table"),
    ]);
    const { existsSync } = await import("node:fs");
    const path = await import("node:path");
    const { loadEnvSettings } = await import("../settings/env");
    // With DOCPROC_DATABASE_URL the log is in PostgreSQL, whatever --data holds.
    if (!loadEnvSettings().database.url && !existsSync(path.join(path.resolve(flags.data), "docproc.db")))
      this.error(`no docproc database in ${flags.data} (give the data directory of docproc serve with --data)`, {
        exit: 2,
      });
    return withDataDb(flags.data, async (db, clock) => {
      if (args.action === "list") {
        const items = store.listDeliveries(db, args.id);
        if (flags.json) printResult({ transaction_id: args.id, deliveries: items }, true);
        else if (items.length === 0) process.stdout.write(`no webhook deliveries for transaction ${args.id}\n`);
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
      }
      const original = store.getDelivery(db, args.id);
      if (!original) this.error(`delivery ${args.id} not found`, { exit: 2 });
      const created = queue.redeliver(db, clock, original.delivery_id);
      const final = flags.wait
        ? await runDeliveryToEnd(
            db,
            clock,
            created.delivery_id,
            queue.webhookSettingsOf((await import("../settings/env")).loadEnvSettings().webhooks),
          )
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
