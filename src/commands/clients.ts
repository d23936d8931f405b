/** `docproc clients create|list|delete --data DIR`: client set-up without the HTTP API. */
import { Args, Command, Flags } from "@oclif/core";
import { dataDirFlag } from "../cli/flags";

export default class ClientsCommand extends Command {
  static summary = "Create, list or delete API clients in a data directory";
  static description =
    "A client belongs to one tenant and holds permissions (docs/auth.md); give it keys with `docproc keys create`. " +
    "Works directly on <data>/docproc.db (also while docproc serve runs).";
  static examples = [
    "<%= config.bin %> <%= command.id %> create erp --name 'ERP integration' --permissions transaction.create,transaction.read,transaction.download_results,split,classify,extract",
    "<%= config.bin %> <%= command.id %> list --tenant default",
    "<%= config.bin %> <%= command.id %> delete erp",
  ];
  static args = {
    action: Args.string({
      description: "create, list or delete",
      required: true,
      options: ["create", "list", "delete"],
    }),
    client_id: Args.string({ description: "client id (create, delete)" }),
  };
  static flags = {
    data: dataDirFlag(),
    name: Flags.string({ description: "display name (create)" }),
    tenant: Flags.string({ description: "tenant (create: default `default`; list: filter)", helpValue: "TENANT" }),
    permissions: Flags.string({
      description: "comma-separated permissions (create; default: all but project.manage)",
      helpValue: "LIST",
    }),
    "rate-limit-per-minute": Flags.integer({ min: 1, description: "override of the per-minute limit (create)" }),
    "rate-limit-per-hour": Flags.integer({ min: 1, description: "override of the per-hour limit (create)" }),
    "async-limit-per-hour": Flags.integer({ min: 1, description: "override of the task-submission limit (create)" }),
    json: Flags.boolean({ description: "print JSON" }),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(ClientsCommand);
    const [{ withDataDb, printResult, splitList }, clients] = await Promise.all([
      import("../cli/admin"),
      import("../auth/clients"),
    ]);
    const need = () => args.client_id ?? this.error(`${args.action} needs a client id`, { exit: 2 });
    await withDataDb(
      flags.data,
      (db, clock) => {
        if (args.action === "create") {
          const c = clients.createClient(db, clock, {
            client_id: need(),
            name: flags.name,
            tenant_id: flags.tenant,
            permissions: splitList(flags.permissions),
            rate_limit_per_minute: flags["rate-limit-per-minute"],
            rate_limit_per_hour: flags["rate-limit-per-hour"],
            async_limit_per_hour: flags["async-limit-per-hour"],
          });
          printResult(c, flags.json);
        } else if (args.action === "delete") {
          printResult(clients.deleteClient(db, need()), flags.json);
        } else {
          printResult(clients.listClients(db, flags.tenant), flags.json, [
            "client_id",
            "tenant_id",
            "name",
            "permissions",
            "active_api_keys",
          ]);
        }
      },
      { create: args.action === "create" },
    );
    return 0;
  }
}
