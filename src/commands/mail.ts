/** `docproc mail add|list|remove|messages|run --data DIR`: IMAP mailboxes as a source of transactions (docs/email.md). */
import { Args, Command, Flags } from "@oclif/core";
import { dataDirFlag, jsonFlag } from "../cli/flags";
import { topicCommand, type Topic } from "./topic";

const connectorId = () => Args.string({ description: "connector id (from docproc mail list)", required: true });

export class MailAdd extends Command {
  static summary = "Store an IMAP connector (the password comes from an environment variable)";
  static description =
    "The password is read from the environment variable --password-env names (never from a flag) and sealed with " +
    "DOCPROC_SECRET_KEY. Messages are imported into --project, or a project named 'Mail import' of the tenant.";
  static examples = [
    "DOCPROC_MAIL_PASSWORD=... <%= config.bin %> mail add --host imap.example.com --username invoices@example.com --after move --move-to Processed",
  ];
  static flags = {
    data: dataDirFlag(),
    json: jsonFlag(),
    tenant: Flags.string({ description: "tenant", default: "default", helpValue: "<id>" }),
    project: Flags.string({ description: "project id; default: a project named 'Mail import'", helpValue: "<id>" }),
    name: Flags.string({ description: "connector name", helpValue: "<name>" }),
    host: Flags.string({ description: "IMAP host", required: true, helpValue: "<host>" }),
    port: Flags.integer({ description: "IMAP port (default 993 for tls, 143 otherwise)", helpValue: "<port>" }),
    security: Flags.string({
      description: "tls, starttls or none (none: loopback hosts only)",
      default: "tls",
      options: ["tls", "starttls", "none"],
      helpValue: "<mode>",
    }),
    username: Flags.string({ description: "IMAP user", required: true, helpValue: "<user>" }),
    "password-env": Flags.string({
      description: "environment variable holding the IMAP password",
      default: "DOCPROC_MAIL_PASSWORD",
      helpValue: "<var>",
    }),
    "ca-file": Flags.string({
      description: "PEM file of a CA or self-signed server certificate to trust",
      helpValue: "<file>",
    }),
    folder: Flags.string({ description: "folder to import from", default: "INBOX", helpValue: "<folder>" }),
    from: Flags.string({ description: "only messages whose From contains this", helpValue: "<text>" }),
    subject: Flags.string({ description: "only messages whose Subject contains this", helpValue: "<text>" }),
    unseen: Flags.boolean({ description: "only unseen messages", default: false }),
    after: Flags.string({
      description: "what to do with a message after import",
      default: "mark_seen",
      options: ["mark_seen", "move", "delete", "none"],
      helpValue: "<action>",
    }),
    "move-to": Flags.string({ description: "folder for --after move", helpValue: "<folder>" }),
    "poll-interval": Flags.integer({ description: "seconds between polls", default: 60, min: 1, helpValue: "<s>" }),
    idle: Flags.boolean({ description: "use IMAP IDLE when the server offers it", default: true, allowNo: true }),
    "skip-inline-below": Flags.integer({
      description: "skip inline images smaller than this many bytes (default 16384)",
      min: 0,
      helpValue: "<bytes>",
    }),
  };

  async run(): Promise<number> {
    const { flags } = await this.parse(MailAdd);
    (await import("../cli/mail-run")).mailAdd(flags.data, flags, flags.json);
    return 0;
  }
}

export class MailList extends Command {
  static summary = "List the stored IMAP connectors";
  static examples = ["<%= config.bin %> mail list --data ./docproc-data"];
  static flags = { data: dataDirFlag(), json: jsonFlag() };

  async run(): Promise<number> {
    const { flags } = await this.parse(MailList);
    (await import("../cli/mail-run")).mailList(flags.data, flags.json);
    return 0;
  }
}

export class MailRemove extends Command {
  static summary = "Remove an IMAP connector";
  static examples = ["<%= config.bin %> mail remove 6f1c..."];
  static args = { connector_id: connectorId() };
  static flags = { data: dataDirFlag() };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(MailRemove);
    (await import("../cli/mail-run")).mailRemove(flags.data, args.connector_id);
    return 0;
  }
}

export class MailMessages extends Command {
  static summary = "List a connector's messages (failed ones stay in the mailbox)";
  static examples = ["<%= config.bin %> mail messages 6f1c... --state failed"];
  static args = { connector_id: connectorId() };
  static flags = {
    data: dataDirFlag(),
    json: jsonFlag(),
    state: Flags.string({ description: "claimed, imported, done or failed", helpValue: "<state>" }),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(MailMessages);
    (await import("../cli/mail-run")).mailMessages(flags.data, args.connector_id, flags.state, flags.json);
    return 0;
  }
}

export class MailRun extends Command {
  static summary = "Poll every enabled connector and process what it imported";
  static description =
    "Uses IMAP IDLE when the server offers it and processes the queued transactions unless --concurrency 0. " +
    "With --once: polls each connector once and exits 1 when a mailbox could not be polled or a message not imported.";
  static examples = [
    "<%= config.bin %> mail run --data ./docproc-data",
    "<%= config.bin %> mail run --once --concurrency 0",
  ];
  static flags = {
    data: dataDirFlag(),
    once: Flags.boolean({ description: "poll each connector once and exit" }),
    connector: Flags.string({ description: "only this connector (repeatable)", multiple: true, helpValue: "<id>" }),
    concurrency: Flags.integer({
      description: "workers processing the queued transactions (0: import only)",
      default: 1,
      min: 0,
      max: 64,
      helpValue: "<n>",
    }),
  };

  async run(): Promise<number> {
    const { flags } = await this.parse(MailRun);
    const [m, { waitForSignal }] = await Promise.all([import("../cli/mail-run"), import("./serve")]);
    return m.mailRun(
      flags.data,
      { once: !!flags.once, connectors: flags.connector, concurrency: flags.concurrency },
      waitForSignal,
    );
  }
}

export const MAIL: Topic = {
  name: "mail",
  summary: "Import e-mail from IMAP mailboxes: each message becomes one transaction",
  verbs: { add: MailAdd, list: MailList, remove: MailRemove, messages: MailMessages, run: MailRun },
};

export default topicCommand(MAIL);
