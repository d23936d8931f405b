/** `docproc users create|list --data DIR`: users who sign in with POST /auth/login (the review page, the web inbox). */
import { Args, Command, Flags } from "@oclif/core";
import { dataDirFlag, jsonFlag, permissionsFlag, tenantFlag } from "../cli/flags";
import { topicCommand, type Topic } from "./topic";

export class UsersCreate extends Command {
  static summary = "Create a user who signs in with a password";
  static description =
    "The password is read from stdin with --password-stdin (preferred: it stays out of the process list) or taken " +
    "from --password; it is stored as an argon2id hash.";
  static examples = ["printf '%s' \"$PW\" | <%= config.bin %> users create alice --tenant acme --password-stdin"];
  static args = { username: Args.string({ description: "user name", required: true }) };
  static flags = {
    data: dataDirFlag(),
    tenant: tenantFlag("tenant (default `default`)"),
    password: Flags.string({
      description: "password (visible to other local users; prefer --password-stdin)",
      helpValue: "<password>",
    }),
    "password-stdin": Flags.boolean({ description: "read the password from stdin" }),
    permissions: permissionsFlag(),
    json: jsonFlag(),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(UsersCreate);
    const [{ withDataDb, printResult, splitList }, users] = await Promise.all([
      import("../cli/admin"),
      import("../auth/users"),
    ]);
    const password = flags["password-stdin"]
      ? (await new Response(Bun.stdin.stream()).text()).replace(/\r?\n$/, "")
      : flags.password;
    if (password === undefined) this.error("create needs a user name and --password-stdin or --password", { exit: 2 });
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

export class UsersList extends Command {
  static summary = "List the users";
  static examples = ["<%= config.bin %> users list"];
  static flags = { data: dataDirFlag(), tenant: tenantFlag("only this tenant's users"), json: jsonFlag() };

  async run(): Promise<number> {
    const { flags } = await this.parse(UsersList);
    const [{ withDataDb, printResult }, users] = await Promise.all([import("../cli/admin"), import("../auth/users")]);
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
}

export const USERS: Topic = {
  name: "users",
  summary: "Create or list users (password sign-in) in a data directory",
  verbs: { create: UsersCreate, list: UsersList },
};

export default topicCommand(USERS);
