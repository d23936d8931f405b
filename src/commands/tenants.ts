/** `docproc tenants create|list --data DIR`: tenant set-up without the HTTP API. */
import { Args, Command, Flags } from "@oclif/core";
import { dataDirFlag } from "../cli/flags";

export default class TenantsCommand extends Command {
  static summary = "Create or list tenants in a data directory";
  static description =
    "Works directly on <data>/docproc.db (also while docproc serve runs). The `default` tenant always exists.";
  static examples = [
    "<%= config.bin %> <%= command.id %> create acme --name 'Acme Ltd' --data ./docproc-data",
    "<%= config.bin %> <%= command.id %> list --data ./docproc-data",
  ];
  static args = {
    action: Args.string({ description: "create or list", required: true, options: ["create", "list"] }),
    tenant_id: Args.string({ description: "tenant id (create)" }),
  };
  static flags = {
    data: dataDirFlag(),
    name: Flags.string({ description: "display name (create)" }),
    json: Flags.boolean({ description: "print JSON" }),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(TenantsCommand);
    const [{ withDataDb, printResult }, { createTenant, listTenants }] = await Promise.all([
      import("../cli/admin"),
      import("../auth/tenants"),
    ]);
    await withDataDb(
      flags.data,
      (db, clock) => {
        if (args.action === "create")
          printResult(createTenant(db, clock, { tenant_id: args.tenant_id, name: flags.name }), flags.json);
        else printResult(listTenants(db), flags.json, ["tenant_id", "name", "created_at"]);
      },
      { create: args.action === "create" },
    );
    return 0;
  }
}
