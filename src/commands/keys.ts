/** `docproc keys create|revoke|list --data DIR`: API keys without the HTTP API. */
import { Args, Command, Flags } from "@oclif/core";
import { dataDirFlag, jsonFlag } from "../cli/flags";
import { topicCommand, type Topic } from "./topic";

const clientId = () => Args.string({ description: "client id", required: true });

export class KeysCreate extends Command {
  static summary = "Create an API key for a client (printed once)";
  static description =
    "Only the key's SHA-256 digest is stored, so it cannot be shown again. Rotation: create a new key, switch the " +
    "integration, confirm, revoke the old one.";
  static examples = ["<%= config.bin %> keys create erp --description 'production ERP'"];
  static args = { client_id: clientId() };
  static flags = {
    data: dataDirFlag(),
    description: Flags.string({ description: "what the key is for", helpValue: "<text>" }),
    json: jsonFlag(),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(KeysCreate);
    const [{ withDataDb, printResult }, clients] = await Promise.all([
      import("../cli/admin"),
      import("../auth/clients"),
    ]);
    await withDataDb(flags.data, (db, clock) => {
      printResult(clients.createKey(db, clock, args.client_id, { description: flags.description }), flags.json);
      if (!flags.json) process.stderr.write("Store the api_key now: it is shown once and cannot be retrieved again.\n");
    });
    return 0;
  }
}

export class KeysRevoke extends Command {
  static summary = "Revoke a client's API key (effective on its next request)";
  static examples = ["<%= config.bin %> keys revoke erp key_3fK9..."];
  static args = { client_id: clientId(), key_id: Args.string({ description: "key id", required: true }) };
  static flags = { data: dataDirFlag(), json: jsonFlag() };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(KeysRevoke);
    const [{ withDataDb, printResult }, clients] = await Promise.all([
      import("../cli/admin"),
      import("../auth/clients"),
    ]);
    await withDataDb(flags.data, (db, clock) =>
      printResult(clients.revokeKey(db, clock, args.client_id, args.key_id), flags.json),
    );
    return 0;
  }
}

export class KeysList extends Command {
  static summary = "List a client's API keys (suffixes only)";
  static examples = ["<%= config.bin %> keys list erp"];
  static args = { client_id: clientId() };
  static flags = { data: dataDirFlag(), json: jsonFlag() };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(KeysList);
    const [{ withDataDb, printResult }, clients] = await Promise.all([
      import("../cli/admin"),
      import("../auth/clients"),
    ]);
    await withDataDb(flags.data, (db) =>
      printResult(clients.listKeys(db, args.client_id), flags.json, [
        "key_id",
        "key_suffix",
        "description",
        "created_at",
        "revoked_at",
      ]),
    );
    return 0;
  }
}

export const KEYS: Topic = {
  name: "keys",
  summary: "Create, list or revoke a client's API keys in a data directory",
  verbs: { create: KeysCreate, list: KeysList, revoke: KeysRevoke },
};

export default topicCommand(KEYS);
