/** `docproc mail add|list|remove|messages|run --data DIR`: IMAP mailboxes as a source of transactions (docs/email.md). */
import { Args, Command, Flags } from "@oclif/core";
import { dataDirFlag } from "../cli/flags";

export default class MailCommand extends Command {
  static summary = "Import e-mail from IMAP mailboxes: each message becomes one transaction";
  static description =
    "`add` stores a connector (the password comes from an environment variable and is sealed with DOCPROC_SECRET_KEY); " +
    "`run` polls every enabled connector (IMAP IDLE when the server offers it) and processes what it queued unless " +
    "--concurrency 0; `--once` polls once and exits 1 when a mailbox could not be polled or a message not imported. " +
    "Failed messages stay in the mailbox; `messages ID --state failed` lists them.";
  static examples = [
    "DOCPROC_MAIL_PASSWORD=... <%= config.bin %> <%= command.id %> add --host imap.example.com --username invoices@example.com --after move --move-to Processed",
    "<%= config.bin %> <%= command.id %> run --data ./docproc-data",
    "<%= config.bin %> <%= command.id %> messages 6f1c... --state failed",
  ];
  static args = {
    action: Args.string({
      description: "add, list, remove, messages or run",
      required: true,
      options: ["add", "list", "remove", "messages", "run"],
    }),
    connector_id: Args.string({ description: "connector id (remove, messages)" }),
  };
  static flags = {
    data: dataDirFlag(),
    json: Flags.boolean({ description: "print JSON" }),
    tenant: Flags.string({ description: "tenant (add)", default: "default" }),
    project: Flags.string({ description: "project id (add); default: a project named 'Mail import'" }),
    name: Flags.string({ description: "connector name (add)" }),
    host: Flags.string({ description: "IMAP host (add)" }),
    port: Flags.integer({ description: "IMAP port (add; default 993 for tls, 143 otherwise)" }),
    security: Flags.string({
      description: "tls, starttls or none (none: loopback hosts only)",
      default: "tls",
      options: ["tls", "starttls", "none"],
    }),
    username: Flags.string({ description: "IMAP user (add)" }),
    "password-env": Flags.string({
      description: "environment variable holding the IMAP password (add)",
      default: "DOCPROC_MAIL_PASSWORD",
    }),
    "ca-file": Flags.string({ description: "PEM file of a CA or self-signed server certificate to trust (add)" }),
    folder: Flags.string({ description: "folder to import from (add)", default: "INBOX" }),
    from: Flags.string({ description: "only messages whose From contains this (add)" }),
    subject: Flags.string({ description: "only messages whose Subject contains this (add)" }),
    unseen: Flags.boolean({ description: "only unseen messages (add)", default: false }),
    after: Flags.string({
      description: "after import (add)",
      default: "mark_seen",
      options: ["mark_seen", "move", "delete", "none"],
    }),
    "move-to": Flags.string({ description: "folder for --after move (add)" }),
    "poll-interval": Flags.integer({ description: "seconds between polls (add)", default: 60, min: 1 }),
    idle: Flags.boolean({ description: "use IMAP IDLE when the server offers it (add)", default: true, allowNo: true }),
    "skip-inline-below": Flags.integer({
      description: "skip inline images smaller than this many bytes (add; default 16384)",
      min: 0,
    }),
    state: Flags.string({ description: "claimed, imported, done or failed (messages)" }),
    once: Flags.boolean({ description: "poll each connector once and exit (run)" }),
    connector: Flags.string({ description: "only this connector (run; repeatable)", multiple: true }),
    concurrency: Flags.integer({
      description: "workers processing the queued transactions (run; 0: import only)",
      default: 1,
      min: 0,
      max: 64,
    }),
  };

  async run(): Promise<number> {
    const { args, flags } = await this.parse(MailCommand);
    const [m, { waitForSignal }] = await Promise.all([import("../cli/mail-run"), import("./serve")]);
    const need = (v: string | undefined, what: string) => v ?? this.error(`${args.action} needs ${what}`, { exit: 2 });
    switch (args.action) {
      case "add":
        m.mailAdd(
          flags.data,
          { ...flags, host: need(flags.host, "--host"), username: need(flags.username, "--username") },
          flags.json,
        );
        return 0;
      case "list":
        m.mailList(flags.data, flags.json);
        return 0;
      case "remove":
        m.mailRemove(flags.data, need(args.connector_id, "a connector id"));
        return 0;
      case "messages":
        m.mailMessages(flags.data, need(args.connector_id, "a connector id"), flags.state, flags.json);
        return 0;
      default:
        return m.mailRun(
          flags.data,
          { once: !!flags.once, connectors: flags.connector, concurrency: flags.concurrency },
          waitForSignal,
        );
    }
  }
}
