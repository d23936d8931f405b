/** `docproc tenants create|list --data DIR`: tenant set-up without the HTTP API. */
import { Args, Command, Flags } from "@oclif/core";
import { dataDirFlag, jsonFlag } from "../cli/flags";
import { topicCommand, type Topic } from "./topic";

const ON_DB =
  "Works directly on <data>/docproc.db (also while docproc serve runs). The `default` tenant always exists.";

export class TenantsCreate extends Command {
  static summary = "Create a tenant";
  static description = ON_DB;
  static examples = ["<%= config.bin %> tenants create acme --name 'Acme Ltd' --data ./docproc-data"];
  static args = { tenant_id: Args.string({ description: "tenant id (default: a generated one)" }) };
  static flags = {
    data: dataDirFlag(),
    name: Flags.string({ description: "display name", helpValue: "<name>" }),
    json: jsonFlag(),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(TenantsCreate);
    const [{ withDataDb, printResult }, { createTenant }] = await Promise.all([
      import("../cli/admin"),
      import("../auth/tenants"),
    ]);
    await withDataDb(
      flags.data,
      (db, clock) => printResult(createTenant(db, clock, { tenant_id: args.tenant_id, name: flags.name }), flags.json),
      { create: true },
    );
    return 0;
  }
}

export class TenantsList extends Command {
  static summary = "List the tenants";
  static description = ON_DB;
  static examples = ["<%= config.bin %> tenants list --data ./docproc-data"];
  static flags = { data: dataDirFlag(), json: jsonFlag() };

  async run(): Promise<number> {
    const { flags } = await this.parse(TenantsList);
    const [{ withDataDb, printResult }, { listTenants }] = await Promise.all([
      import("../cli/admin"),
      import("../auth/tenants"),
    ]);
    await withDataDb(
      flags.data,
      (db) => printResult(listTenants(db), flags.json, ["tenant_id", "name", "created_at"]),
      {
        create: false,
      },
    );
    return 0;
  }
}

export const TENANTS: Topic = {
  name: "tenants",
  summary: "Create or list tenants in a data directory",
  verbs: { create: TenantsCreate, list: TenantsList },
};

export default topicCommand(TENANTS);
