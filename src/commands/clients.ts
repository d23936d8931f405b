/** `docproc clients create|list|delete --data DIR`: client set-up without the HTTP API. */
import { Args, Command, Flags } from "@oclif/core";
import { dataDirFlag, jsonFlag, permissionsFlag, tenantFlag } from "../cli/flags";
import { topicCommand, type Topic } from "./topic";

const ON_DB = "Works directly on <data>/docproc.db (also while docproc serve runs).";
const clientId = () => Args.string({ description: "client id", required: true });
const limit = (description: string) => Flags.integer({ min: 1, description, helpValue: "<n>" });

export class ClientsCreate extends Command {
  static summary = "Create an API client with permissions (give it keys with docproc keys create)";
  static description = `A client belongs to one tenant and holds permissions (docs/auth.md). ${ON_DB}`;
  static examples = [
    "<%= config.bin %> clients create erp --name 'ERP integration' --permissions transaction.create,transaction.read,transaction.download_results,split,classify,extract",
  ];
  static args = { client_id: clientId() };
  static flags = {
    data: dataDirFlag(),
    name: Flags.string({ description: "display name", helpValue: "<name>" }),
    tenant: tenantFlag("tenant (default `default`)"),
    permissions: permissionsFlag(),
    "rate-limit-per-minute": limit("override of the per-minute limit"),
    "rate-limit-per-hour": limit("override of the per-hour limit"),
    "async-limit-per-hour": limit("override of the task-submission limit"),
    json: jsonFlag(),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(ClientsCreate);
    const [{ withDataDb, printResult, splitList }, clients] = await Promise.all([
      import("../cli/admin"),
      import("../auth/clients"),
    ]);
    await withDataDb(
      flags.data,
      (db, clock) => {
        const c = clients.createClient(db, clock, {
          client_id: args.client_id,
          name: flags.name,
          tenant_id: flags.tenant,
          permissions: splitList(flags.permissions),
          rate_limit_per_minute: flags["rate-limit-per-minute"],
          rate_limit_per_hour: flags["rate-limit-per-hour"],
          async_limit_per_hour: flags["async-limit-per-hour"],
        });
        printResult(c, flags.json);
      },
      { create: true },
    );
    return 0;
  }
}

export class ClientsList extends Command {
  static summary = "List API clients with their permissions and number of active keys";
  static description = ON_DB;
  static examples = ["<%= config.bin %> clients list --tenant default"];
  static flags = { data: dataDirFlag(), tenant: tenantFlag("only this tenant's clients"), json: jsonFlag() };

  async run(): Promise<number> {
    const { flags } = await this.parse(ClientsList);
    const [{ withDataDb, printResult }, clients] = await Promise.all([
      import("../cli/admin"),
      import("../auth/clients"),
    ]);
    await withDataDb(flags.data, (db) =>
      printResult(clients.listClients(db, flags.tenant), flags.json, [
        "client_id",
        "tenant_id",
        "name",
        "permissions",
        "active_api_keys",
      ]),
    );
    return 0;
  }
}

export class ClientsDelete extends Command {
  static summary = "Delete an API client and its keys";
  static description = ON_DB;
  static examples = ["<%= config.bin %> clients delete erp"];
  static args = { client_id: clientId() };
  static flags = { data: dataDirFlag(), json: jsonFlag() };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(ClientsDelete);
    const [{ withDataDb, printResult }, clients] = await Promise.all([
      import("../cli/admin"),
      import("../auth/clients"),
    ]);
    await withDataDb(flags.data, (db) => printResult(clients.deleteClient(db, args.client_id), flags.json));
    return 0;
  }
}

export const CLIENTS: Topic = {
  name: "clients",
  summary: "Create, list or delete API clients in a data directory",
  verbs: { create: ClientsCreate, list: ClientsList, delete: ClientsDelete },
};

export default topicCommand(CLIENTS);
