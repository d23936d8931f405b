/** Format detection by content (magic bytes), never by file name or declared content type. */

export type SniffedFormat = "pdf" | "png" | "jpeg" | "tiff" | "webp" | "gif" | "bmp" | "unknown";

export const CONTENT_TYPES: Record<Exclude<SniffedFormat, "unknown">, string> = {
  pdf: "application/pdf",
  png: "image/png",
  jpeg: "image/jpeg",
  tiff: "image/tiff",
  webp: "image/webp",
  gif: "image/gif",
  bmp: "image/bmp",
};

function startsWith(data: Uint8Array, bytes: number[], at = 0): boolean {
  if (data.length < at + bytes.length) return false;
  return bytes.every((b, i) => data[at + i] === b);
}

const ascii = (s: string) => Array.from(s, (c) => c.charCodeAt(0));

export function sniffFormat(data: Uint8Array): SniffedFormat {
  // PDF readers accept "%PDF-" anywhere in the first 1 KB (some files carry a junk prefix).
  const head = new TextDecoder("latin1").decode(data.subarray(0, 1024));
  if (head.includes("%PDF-")) return "pdf";
  if (startsWith(data, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(data, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(data, [0x49, 0x49, 0x2a, 0x00]) || startsWith(data, [0x4d, 0x4d, 0x00, 0x2a])) return "tiff";
  if (startsWith(data, [0x49, 0x49, 0x2b, 0x00]) || startsWith(data, [0x4d, 0x4d, 0x00, 0x2b])) return "tiff"; // BigTIFF
  if (startsWith(data, ascii("RIFF")) && startsWith(data, ascii("WEBP"), 8)) return "webp";
  if (startsWith(data, ascii("GIF87a")) || startsWith(data, ascii("GIF89a"))) return "gif";
  if (startsWith(data, ascii("BM")) && data.length >= 26) return "bmp";
  return "unknown";
}

/** A short human description of unknown content, for the error message. */
export function describeUnknown(data: Uint8Array): string {
  if (startsWith(data, [0x7f, 0x45, 0x4c, 0x46])) return "an ELF executable";
  if (startsWith(data, ascii("MZ"))) return "a Windows executable";
  if (startsWith(data, [0x50, 0x4b, 0x03, 0x04])) return "a ZIP archive (or an Office document)";
  if (startsWith(data, [0xd0, 0xcf, 0x11, 0xe0])) return "an old Office document";
  return "not a PDF or a supported image (PNG, JPEG, TIFF, WebP, GIF, BMP)";
}

/** Namespaces of the e-invoice syntaxes docproc reads, by root element (local name). */
const EINVOICE_ROOTS: Record<string, { syntax: "UBL" | "CII"; namespace: RegExp }> = {
  Invoice: { syntax: "UBL", namespace: /^urn:oasis:names:specification:ubl:schema:xsd:Invoice-2$/ },
  CreditNote: { syntax: "UBL", namespace: /^urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2$/ },
  CrossIndustryInvoice: { syntax: "CII", namespace: /^urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:\d+$/ },
  // ZUGFeRD 1.0
  CrossIndustryDocument: { syntax: "CII", namespace: /^urn:ferd:CrossIndustryDocument:invoice:\dp\d$/ },
};

export type XmlSniff = { syntax: "UBL" | "CII"; root: string } | { syntax: null; reason: string };

/**
 * Whether bytes are a UBL or CII e-invoice, from the root element and its namespace (read from the first 8 KB, no
 * parse): how a folder walk tells an invoice `.xml` from any other XML (a config file, an SVG, a sitemap). Says why
 * when it is not one.
 */
export function sniffEInvoiceXml(data: Uint8Array): XmlSniff {
  const head = decodeHead(data.subarray(0, 8192));
  // Skip the declaration, comments, processing instructions and a DOCTYPE before the root element.
  const body = head.replace(/^\uFEFF/, "").replace(/^(?:\s+|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*/, "");
  if (!body.startsWith("<")) return { syntax: null, reason: "not XML" };
  const m = /^<([\p{L}_][\p{L}\p{N}_.-]*)(?::([\p{L}_][\p{L}\p{N}_.-]*))?([^>]*)>?/u.exec(body);
  if (!m) return { syntax: null, reason: "not XML" };
  const [prefix, local] = m[2] ? [m[1]!, m[2]] : ["", m[1]!];
  const attrs = m[3] ?? "";
  const nsAttr = prefix ? `xmlns:${prefix}` : "xmlns";
  const ns =
    new RegExp(`(?:^|\\s)${nsAttr.replace(/[.-]/g, "\\$&")}\\s*=\\s*["']([^"']*)["']`).exec(attrs)?.[1] ?? null;
  const known = EINVOICE_ROOTS[local];
  if (known && ns !== null && known.namespace.test(ns.trim())) return { syntax: known.syntax, root: local };
  const named = `root element <${m[1]}${m[2] ? `:${m[2]}` : ""}>${ns ? ` in ${ns}` : ""}`;
  return { syntax: null, reason: `XML that is no UBL or CII e-invoice (${named})` };
}

function decodeHead(head: Uint8Array): string {
  if (startsWith(head, [0xff, 0xfe])) return new TextDecoder("utf-16le").decode(head);
  if (startsWith(head, [0xfe, 0xff])) return new TextDecoder("utf-16be").decode(head);
  return new TextDecoder("utf-8").decode(head);
}
