/**
 * The importer's IMAP side (importer.ts): fetch and parse one message within the limits, search a connector's
 * folder, create a move target, and run the after-import action.
 */
import type { ImapFlow } from "imapflow";
import { DocprocError } from "../core/errors";
import { describe } from "./imap";
import { parseMail, type ParsedMail } from "./message";
import type { ConnectionSettings } from "./settings";

/** The message's bytes, parsed; throws a DocprocError naming why a message cannot be imported (its size, its parts). */
export async function fetchAndParse(
  ctx: { maxFiles: number; maxFileBytes: number },
  s: ConnectionSettings,
  client: ImapFlow,
  uid: number,
): Promise<ParsedMail> {
  const head = await client.fetchOne(String(uid), { uid: true, size: true }, { uid: true });
  if (!head) throw new DocprocError("not_found", "the message is no longer in the folder");
  if ((head.size ?? 0) > s.max_message_bytes) {
    throw new DocprocError(
      "too_large",
      `the message is ${head.size} bytes; max_message_bytes is ${s.max_message_bytes}`,
    );
  }
  const msg = await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
  if (!msg || !msg.source) throw new DocprocError("not_found", "the message is no longer in the folder");
  let parsed: ParsedMail;
  try {
    parsed = await parseMail(new Uint8Array(msg.source), { skipInlineImagesBelow: s.skip_inline_images_below_bytes });
  } catch (err) {
    if (err instanceof DocprocError) throw err;
    throw new DocprocError("corrupt_file", `the message cannot be read: ${describe(err)}`, { cause: err });
  }
  if (parsed.sources.length > ctx.maxFiles)
    throw new DocprocError(
      "too_large",
      `the message has ${parsed.sources.length} parts; at most ${ctx.maxFiles} files per transaction`,
    );
  const big = parsed.sources.find((src) => src.data.byteLength > ctx.maxFileBytes);
  if (big)
    throw new DocprocError(
      "too_large",
      `${big.filename} is ${big.data.byteLength} bytes; the limit is ${ctx.maxFileBytes} bytes per file`,
    );
  return parsed;
}

/** The connector's after-import action (seen, move, delete), once the import is committed. */
export async function afterImport(s: ConnectionSettings, client: ImapFlow, uid: number): Promise<void> {
  const range = String(uid);
  switch (s.after_import.action) {
    case "mark_seen":
      await client.messageFlagsAdd(range, ["\\Seen"], { uid: true });
      return;
    case "move":
      await client.messageMove(range, s.after_import.folder!, { uid: true });
      return;
    case "delete":
      await client.messageDelete(range, { uid: true });
      return;
    case "none":
      return;
  }
}

/** The IMAP search of the connector's filter. */
export function searchOf(s: ConnectionSettings): Record<string, unknown> {
  const q: Record<string, unknown> = { all: true };
  if (s.filter.from) q.from = s.filter.from;
  if (s.filter.subject) q.subject = s.filter.subject;
  if (s.filter.unseen) q.seen = false;
  return q;
}

/** Creates the move target when the server lacks it. */
export async function ensureFolder(client: ImapFlow, folder: string): Promise<void> {
  const boxes = await client.list();
  if (!boxes.some((b) => b.path === folder)) await client.mailboxCreate(folder);
}
