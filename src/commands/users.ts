/** `docproc users create|list --data DIR`: users who sign in with POST /auth/login. */
import { Args, Command, Flags } from "@oclif/core";
import { dataDirFlag } from "../cli/flags";

export default class UsersCommand extends Command {
  static summary = "Create or list users (password sign-in) in a data directory";
  static description =
    "The password is read from stdin with --password-stdin (preferred: it stays out of the process list) or taken " +
    "from --password; it is stored as an argon2id hash.";
  static examples = [
    "printf '%s' \"$PW\" | <%= config.bin %> <%= command.id %> create alice --tenant acme --password-stdin",
    "<%= config.bin %> <%= command.id %> list",
  ];
  static args = {
    action: Args.string({ description: "create or list", required: true, options: ["create", "list"] }),
    username: Args.string({ description: "user name (create)" }),
  };
  static flags = {
    data: dataDirFlag(),
    tenant: Flags.string({ description: "tenant (default `default`)", helpValue: "TENANT" }),
    password: Flags.string({ description: "password (visible to other local users; prefer --password-stdin)" }),
    "password-stdin": Flags.boolean({ description: "read the password from stdin" }),
    permissions: Flags.string({
      description: "comma-separated permissions (default: all but project.manage)",
      helpValue: "LIST",
    }),
    json: Flags.boolean({ description: "print JSON" }),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(UsersCommand);
    const [{ withDataDb, printResult, splitList }, users] = await Promise.all([
      import("../cli/admin"),
      import("../auth/users"),
    ]);
    if (args.action === "list") {
      await withDataDb(flags.data, (db) =>
        printResult(users.listUsers(db, flags.tenant), flags.json, [
          "username",
          "tenant_id",
          "permissions",
          "created_at",
        ]),
      );
      return 0;
    }
    const password = flags["password-stdin"]
      ? (await new Response(Bun.stdin.stream()).text()).replace(/\r?\n$/, "")
      : flags.password;
    if (!args.username || password === undefined)
      this.error("create needs a user name and --password-stdin or --password", { exit: 2 });
    await withDataDb(
      flags.data,
      async (db, clock) => {
        const u = await users.createUser(db, clock, {
          tenant_id: flags.tenant,
          username: args.username,
          password,
          permissions: splitList(flags.permissions),
        });
        printResult(u, flags.json);
      },
      { create: true },
    );
    return 0;
  }
}
