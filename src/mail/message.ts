/**
 * One fetched message → what its transaction is made of. The sources come from the same expansion an uploaded
 * `.eml` goes through (core/split/email.ts: rendered body `single_document`, each attachment `inherit`, attached
 * e-mails expanded alike), less the small inline images and signature parts the connector is told to skip.
 * The header facts (Message-ID, From, Subject, Date) come from postal-mime, which parses addresses and dates.
 */
import { createHash } from "node:crypto";
import PostalMime from "postal-mime";
import { DocprocError } from "../core/errors";
import type { SourceInput } from "../core/model";
import { expandEmailSource } from "../core/split/email";

export interface MailFacts {
  /** Message-ID without angle brackets, or null when the message has none. */
  message_id: string | null;
  /** The ledger's identity of the message: `mid:<Message-ID>`, else `sha256:<hash of the raw message>`. */
  message_key: string;
  from: string | null;
  from_name: string | null;
  subject: string | null;
  /** ISO 8601 when the Date header parses, else its raw text. */
  date: string | null;
}

export interface ParsedMail {
  facts: MailFacts;
  sources: SourceInput[];
}

export function normalizeMessageId(raw: string | undefined | null): string | null {
  const v = (raw ?? "")
    .trim()
    .replace(/^<+|>+$/g, "")
    .trim();
  return v ? v.slice(0, 995) : null;
}

export async function parseMail(raw: Uint8Array, opts: { skipInlineImagesBelow: number }): Promise<ParsedMail> {
  if (raw.byteLength === 0) throw new DocprocError("empty_file", "the message is empty");
  const email = await PostalMime.parse(raw, { attachmentEncoding: "arraybuffer" });
  const messageId = normalizeMessageId(email.messageId);
  const facts: MailFacts = {
    message_id: messageId,
    message_key: messageId ? `mid:${messageId}` : `sha256:${createHash("sha256").update(raw).digest("hex")}`,
    from: email.from?.address || null,
    from_name: email.from?.name || null,
    subject: email.subject ?? null,
    date: email.date ?? null,
  };
  const src: SourceInput = {
    index: 0,
    filename: `${stemOf(facts.subject)}.eml`,
    content_type: "message/rfc822",
    data: raw,
    split_policy: "inherit",
  };
  const sources = expandEmailSource(src, { skipInlineImagesBelow: opts.skipInlineImagesBelow, skipSignatures: true });
  return { facts, sources };
}

/** A file name stem from the subject (the body document is `<subject>.txt`), safe on every file system. */
function stemOf(subject: string | null): string {
  const s = (subject ?? "")
    .replace(/[\\/:*?"<>|\u0000-\u001f\u007f]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 80)
    .trim();
  return s && !/^\.+$/.test(s) ? s : "message";
}
