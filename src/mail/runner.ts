/**
 * Runs mail connectors: once (`docproc mail run --once`, tests) or continuously, each connector on its own
 * connection, polling every `poll_interval_seconds` and, when the server offers IMAP IDLE and `idle` is on, also
 * as soon as the server announces a new message. A connection problem is recorded on the connector
 * (`last_error`) and retried after the poll interval; it never stops the other connectors.
 */
import type { ImapFlow } from "imapflow";
import {
  getMailConnector,
  listMailConnectors,
  recordPoll,
  sealedPasswordOf,
  type MailConnectorRecord,
} from "../storage/mail/mail-connectors";
import { isoAt } from "../core/clock";
import { open, type SecretKey } from "../storage/auth/secret-box";
import { connectImap, describe } from "./imap";
import { pollMailbox, type MailContext, type PollReport } from "./importer";
import { ConnectionSettingsSchema, type ConnectionSettings } from "./settings";

export interface MailRunOptions {
  secretKey: SecretKey;
  /** Only these connectors (default: every enabled one). */
  connectorIds?: string[];
  signal?: AbortSignal;
  /** Called after every poll (tests, the CLI's progress lines). */
  onReport?(report: PollReport): void;
}

export function settingsOf(c: MailConnectorRecord): ConnectionSettings {
  return ConnectionSettingsSchema.parse(c.settings);
}

function selected(ctx: MailContext, opts: MailRunOptions): MailConnectorRecord[] {
  if (!opts.connectorIds) return listMailConnectors(ctx.db, { enabled: true });
  return opts.connectorIds
    .map((id) => getMailConnector(ctx.db, id))
    .filter((c): c is MailConnectorRecord => c !== null);
}

async function connect(
  ctx: MailContext,
  c: MailConnectorRecord,
  key: SecretKey,
): Promise<{ client: ImapFlow; settings: ConnectionSettings }> {
  const settings = settingsOf(c);
  const sealed = sealedPasswordOf(ctx.db, c.connector_id);
  if (!sealed) throw new Error(`mail connector ${c.connector_id} no longer exists`);
  return { client: await connectImap(settings, open(sealed, key)), settings };
}

/** One poll of each selected connector; a connector that fails is reported in its record and in `errors`. */
export async function pollOnce(
  ctx: MailContext,
  opts: MailRunOptions,
): Promise<{ reports: PollReport[]; errors: Array<{ connector_id: string; error: string }> }> {
  const reports: PollReport[] = [];
  const errors: Array<{ connector_id: string; error: string }> = [];
  for (const c of selected(ctx, opts)) {
    let client: ImapFlow | null = null;
    try {
      const conn = await connect(ctx, c, opts.secretKey);
      client = conn.client;
      const report = await pollMailbox(ctx, c, conn.settings, client);
      recordPoll(ctx.db, c.connector_id, isoAt(ctx.clock), null);
      reports.push(report);
      opts.onReport?.(report);
    } catch (err) {
      const error = describe(err);
      recordPoll(ctx.db, c.connector_id, isoAt(ctx.clock), error);
      errors.push({ connector_id: c.connector_id, error });
      ctx.log(`mail ${c.connector_id}: ${error}`);
    } finally {
      await client?.logout().catch(() => client?.close());
    }
  }
  return { reports, errors };
}

/**
 * Runs until `signal` aborts; resolves once every connector loop has closed its connection. Connectors added or
 * enabled later (through the API) are picked up within `rescanMs`; a deleted or disabled one stops after its
 * current wait.
 */
export async function runContinuously(
  ctx: MailContext,
  opts: MailRunOptions & { signal: AbortSignal; rescanMs?: number },
): Promise<void> {
  ctx = { ...ctx, signal: opts.signal };
  const running = new Map<string, Promise<void>>();
  const scan = () => {
    for (const c of selected(ctx, opts)) {
      if (!c.enabled || running.has(c.connector_id)) continue;
      running.set(
        c.connector_id,
        connectorLoop(ctx, c.connector_id, opts).finally(() => running.delete(c.connector_id)),
      );
    }
  };
  while (!opts.signal.aborted) {
    scan();
    await sleep(opts.rescanMs ?? 5000, opts.signal);
  }
  await Promise.all(running.values());
}

async function connectorLoop(
  ctx: MailContext,
  id: string,
  opts: MailRunOptions & { signal: AbortSignal },
): Promise<void> {
  const { signal } = opts;
  while (!signal.aborted) {
    const c = getMailConnector(ctx.db, id);
    if (!c || !c.enabled) return;
    let client: ImapFlow | null = null;
    let wait = settingsOf(c).poll_interval_seconds * 1000;
    try {
      const conn = await connect(ctx, c, opts.secretKey);
      client = conn.client;
      const useIdle = conn.settings.idle && client.capabilities.has("IDLE");
      // Settings changed through the API take effect at the next connection (updated_at moves).
      while (!signal.aborted && getMailConnector(ctx.db, id)?.updated_at === c.updated_at) {
        const report = await pollMailbox(ctx, c, conn.settings, client);
        recordPoll(ctx.db, id, isoAt(ctx.clock), null);
        opts.onReport?.(report);
        if (!client.usable) break;
        await waitForMail(client, wait, signal, useIdle);
      }
      wait = 0;
    } catch (err) {
      const error = describe(err);
      recordPoll(ctx.db, id, isoAt(ctx.clock), error);
      ctx.log(`mail ${id}: ${error}; retrying in ${Math.round(wait / 1000)} s`);
    } finally {
      await client?.logout().catch(() => client?.close());
    }
    if (wait > 0) await sleep(wait, signal);
  }
}

/** Until the poll interval passes, the server announces new mail (IDLE), the connection closes or `signal` aborts. */
function waitForMail(client: ImapFlow, ms: number, signal: AbortSignal, useIdle: boolean): Promise<void> {
  return new Promise((resolve) => {
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      client.off("exists", finish);
      client.off("close", finish);
      signal.removeEventListener("abort", finish);
      resolve();
    };
    if (signal.aborted) return resolve();
    const timer = setTimeout(finish, ms);
    client.on("exists", finish);
    client.on("close", finish);
    signal.addEventListener("abort", finish);
    // IDLE ends when the next command (the poll's SELECT) is sent; its promise only tells that it ended.
    if (useIdle) client.idle().catch(finish);
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    }
  });
}
