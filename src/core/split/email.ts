/**
 * E-mail import connector (spec rule 9): an .eml file becomes its rendered body, uploaded with split policy
 * `single_document`, plus each attachment with `inherit`.
 */
import { DocprocError } from "../errors";
import type { SourceInput } from "../model";
import {
  decodeCharset,
  decodeEncodedWords,
  latin1String,
  type MimePart,
  parseMime,
  parseParams,
  rawUtf8,
} from "./mime";
import { wholeBytes } from "../source-data";

const MAX_NESTING = 3;

/** What an importer may leave out of an e-mail (the mail connector does; an uploaded `.eml` keeps everything). */
export interface EmailExpandOptions {
  /** Inline images (not `attachment` disposition: logos, signature images) smaller than this are skipped. */
  skipInlineImagesBelow?: number;
  /** Skips S/MIME and PGP signature parts (`application/pkcs7-signature`, `application/pgp-signature`). */
  skipSignatures?: boolean;
}

const SIGNATURE_TYPES = new Set([
  "application/pkcs7-signature",
  "application/x-pkcs7-signature",
  "application/pgp-signature",
]);

/** True for message/rfc822 content or a `.eml` file name. */
export function isEmailSource(src: SourceInput): boolean {
  const type = (src.content_type ?? "").split(";")[0].trim().toLowerCase();
  return type === "message/rfc822" || /\.eml$/i.test(src.filename);
}

/**
 * Expands an e-mail source; any other source comes back unchanged as `[src]`.
 * MUST give the body source (From/To/Cc/Subject/Date + body text, text/plain UTF-8) policy single_document and
 * every attachment policy inherit, in message order; attached e-mails are expanded the same way.
 * The returned sources keep `src.index` on the body and number attachments after it: callers that hold several
 * sources MUST renumber them. Throws DocprocError("empty_file") for an empty message.
 */
export function expandEmailSource(src: SourceInput, opts: EmailExpandOptions = {}, depth = 0): SourceInput[] {
  if (!isEmailSource(src)) return [src];
  const data = wholeBytes(src.data);
  if (data.length === 0)
    throw new DocprocError("empty_file", `${src.filename}: the e-mail is empty`, { stage: "convert" });
  const root = parseMime(latin1String(data));
  const stem = src.filename.replace(/\.eml$/i, "") || "email";
  const bodyPart = findBody(root);
  const body: SourceInput = {
    index: src.index,
    filename: `${stem}.txt`,
    content_type: "text/plain; charset=utf-8",
    data: new TextEncoder().encode(renderEmail(root, bodyPart)),
    split_policy: "single_document",
  };
  const out: SourceInput[] = [body];
  for (const [i, att] of attachmentsOf(root, bodyPart).entries()) {
    if (skipped(att, opts)) continue;
    const name = attachmentName(att) ?? `attachment-${i + 1}${att.contentType === "message/rfc822" ? ".eml" : ".bin"}`;
    const source: SourceInput = {
      index: src.index + out.length,
      filename: name,
      content_type: att.contentType,
      data: att.body,
      split_policy: "inherit",
    };
    // An attached e-mail is expanded like the message itself: its body single_document, its attachments inherit.
    // An empty attached e-mail stays as it is: conversion reports it for that file alone.
    const expanded = depth < MAX_NESTING && att.body.length > 0 ? expandEmailSource(source, opts, depth + 1) : [source];
    for (const s of expanded) out.push({ ...s, index: src.index + out.length });
  }
  return out;
}

function skipped(p: MimePart, opts: EmailExpandOptions): boolean {
  if (opts.skipSignatures && SIGNATURE_TYPES.has(p.contentType)) return true;
  const limit = opts.skipInlineImagesBelow ?? 0;
  return limit > 0 && p.contentType.startsWith("image/") && !isAttachment(p) && p.body.length < limit;
}

/** The header block and body text of the message, as the body document shows them. */
export function renderEmail(root: MimePart, bodyPart: MimePart | null): string {
  const lines: string[] = [];
  for (const [name, label] of [
    ["from", "From"],
    ["to", "To"],
    ["cc", "Cc"],
    ["subject", "Subject"],
    ["date", "Date"],
  ] as const) {
    const value = root.headers.get(name);
    if (value !== undefined) lines.push(`${label}: ${headerText(value)}`);
  }
  const text = bodyPart ? partText(bodyPart) : "";
  return `${lines.join("\n")}\n\n${text.trim()}\n`;
}

function headerText(raw: string): string {
  // Raw 8-bit header bytes (RFC 6532) are UTF-8; encoded words (RFC 2047) carry their own charset.
  return decodeEncodedWords(rawUtf8(raw)).replace(/\s+/g, " ").trim();
}

function partText(part: MimePart): string {
  const text = decodeCharset(part.body, part.params.charset).replace(/\r\n/g, "\n");
  return part.contentType === "text/html" ? htmlToText(text) : text;
}

/** The body to show: the first text/plain that is not an attachment, else the first text/html. */
function findBody(root: MimePart): MimePart | null {
  const leaves = leafParts(root).filter((p) => !isAttachment(p));
  return (
    leaves.find((p) => p.contentType === "text/plain") ?? leaves.find((p) => p.contentType === "text/html") ?? null
  );
}

function attachmentsOf(root: MimePart, body: MimePart | null): MimePart[] {
  // Unnamed inline text parts are alternatives of the body (the HTML version) or footers, not attachments.
  return leafParts(root).filter(
    (p) => p !== body && (isAttachment(p) || attachmentName(p) !== null || !p.contentType.startsWith("text/")),
  );
}

function leafParts(part: MimePart): MimePart[] {
  return part.parts.length > 0
    ? part.parts.flatMap(leafParts)
    : part.contentType.startsWith("multipart/")
      ? []
      : [part];
}

function isAttachment(p: MimePart): boolean {
  return /^\s*attachment/i.test(p.headers.get("content-disposition") ?? "");
}

function attachmentName(p: MimePart): string | null {
  const disposition = p.headers.get("content-disposition");
  const fromDisposition = disposition ? parseDispositionName(disposition) : undefined;
  const name = fromDisposition ?? p.params.name;
  if (!name) return null;
  // Never let a path through: the name becomes a file name downstream.
  return (
    name
      .replace(/^.*[\\/]/, "")
      .replace(/[\x00-\x1f]/g, "")
      .trim() || null
  );
}

function parseDispositionName(disposition: string): string | undefined {
  return parseParams(disposition)[1].filename; // same syntax as Content-Type, including RFC 2231
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: " " };

export function htmlToText(html: string): string {
  return html
    .replace(/<(script|style|head)[\s\S]*?<\/\1>/gi, "")
    .replace(/<br\s*\/?>/gi, "\n")
    .replace(/<\/(p|div|tr|h[1-6]|li|table)>/gi, "\n")
    .replace(/<td[^>]*>/gi, " ")
    .replace(/<[^>]+>/g, "")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
      if (e[0] === "#") {
        const code = e[1].toLowerCase() === "x" ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
      }
      return ENTITIES[e.toLowerCase()] ?? m;
    })
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n");
}
