/** `docproc keys create|revoke|list --data DIR`: API keys without the HTTP API. */
import { Args, Command, Flags } from "@oclif/core";
import { dataDirFlag } from "../cli/flags";

export default class KeysCommand extends Command {
  static summary = "Create, list or revoke a client's API keys in a data directory";
  static description =
    "`create` prints the key once; only its SHA-256 digest is stored, so it cannot be shown again. `revoke` takes " +
    "effect on the key's next request. Rotation: create a new key, switch the integration, confirm, revoke the old one.";
  static examples = [
    "<%= config.bin %> <%= command.id %> create erp --description 'production ERP'",
    "<%= config.bin %> <%= command.id %> revoke erp key_3fK9...",
    "<%= config.bin %> <%= command.id %> list erp",
  ];
  static args = {
    action: Args.string({
      description: "create, revoke or list",
      required: true,
      options: ["create", "revoke", "list"],
    }),
    client_id: Args.string({ description: "client id", required: true }),
    key_id: Args.string({ description: "key id (revoke)" }),
  };
  static flags = {
    data: dataDirFlag(),
    description: Flags.string({ description: "what the key is for (create)" }),
    json: Flags.boolean({ description: "print JSON" }),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(KeysCommand);
    const [{ withDataDb, printResult }, clients] = await Promise.all([
      import("../cli/admin"),
      import("../auth/clients"),
    ]);
    await withDataDb(flags.data, (db, clock) => {
      if (args.action === "create") {
        const k = clients.createKey(db, clock, args.client_id, { description: flags.description });
        printResult(k, flags.json);
        if (!flags.json)
          process.stderr.write("Store the api_key now: it is shown once and cannot be retrieved again.\n");
      } else if (args.action === "revoke") {
        printResult(
          clients.revokeKey(db, clock, args.client_id, args.key_id ?? this.error("revoke needs a key id", { exit: 2 })),
          flags.json,
        );
      } else {
        printResult(clients.listKeys(db, args.client_id), flags.json, [
          "key_id",
          "key_suffix",
          "description",
          "created_at",
          "revoked_at",
        ]);
      }
    });
    return 0;
  }
}
