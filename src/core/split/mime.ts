/**
 * A small MIME reader for e-mail import (RFC 5322 headers, RFC 2045/2046 multipart, base64, quoted-printable,
 * RFC 2047 encoded words, RFC 2231 parameters). Works on a latin1 string (one char per byte) so binary parts stay
 * byte-exact. Lenient: a malformed part is read as well as it can be, never thrown on.
 */

export interface MimePart {
  headers: Map<string, string>;
  contentType: string;
  params: Record<string, string>;
  /** Decoded bytes of a leaf part (empty for multiparts). */
  body: Uint8Array;
  parts: MimePart[];
}

const MAX_DEPTH = 20;

export function parseMime(raw: string, depth = 0): MimePart {
  const split = /\r?\n\r?\n/.exec(raw);
  // Without a header block (a bare text saved as .eml), everything is body.
  const hasHeaders = /^[\x21-\x39\x3b-\x7e]+:/.test(raw);
  const headerText = !hasHeaders ? "" : split ? raw.slice(0, split.index) : raw;
  const bodyText = !hasHeaders ? raw : split ? raw.slice(split.index + split[0].length) : "";
  const headers = parseHeaders(headerText);
  const [contentType, params] = parseParams(headers.get("content-type") ?? "text/plain; charset=us-ascii");
  const part: MimePart = { headers, contentType: contentType.toLowerCase(), params, body: new Uint8Array(), parts: [] };
  if (part.contentType.startsWith("multipart/") && params.boundary && depth < MAX_DEPTH) {
    part.parts = splitMultipart(bodyText, params.boundary).map((p) => parseMime(p, depth + 1));
  } else {
    part.body = decodeTransfer(bodyText, headers.get("content-transfer-encoding") ?? "7bit");
  }
  return part;
}

/** Header names lower-cased; folded lines joined; the first occurrence wins. */
export function parseHeaders(text: string): Map<string, string> {
  const headers = new Map<string, string>();
  const unfolded = text.replace(/\r?\n[ \t]+/g, " ");
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    if (!headers.has(name)) headers.set(name, line.slice(colon + 1).trim());
  }
  return headers;
}

/** `type/subtype; a=b; c="d"` → ["type/subtype", {a: "b", c: "d"}], with RFC 2231 `name*` and `name*0*` forms. */
export function parseParams(value: string): [string, Record<string, string>] {
  const segments = splitOutsideQuotes(value, ";");
  const params: Record<string, string> = {};
  const extended: Record<string, Array<{ n: number; v: string; encoded: boolean }>> = {};
  for (const seg of segments.slice(1)) {
    const eq = seg.indexOf("=");
    if (eq <= 0) continue;
    const key = seg.slice(0, eq).trim().toLowerCase();
    let v = seg.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"') && v.length >= 2) v = v.slice(1, -1).replace(/\\(.)/g, "$1");
    const m = /^([^*]+)\*(?:(\d+)\*?|)$/.exec(key);
    if (m && key.includes("*")) {
      const encoded = key.endsWith("*");
      (extended[m[1]] ??= []).push({ n: m[2] === undefined ? 0 : Number(m[2]), v, encoded });
    } else {
      // Mailers put RFC 2047 words and raw UTF-8 into file names although neither is allowed there.
      params[key] = key === "name" || key === "filename" ? decodeEncodedWords(rawUtf8(v)) : v;
    }
  }
  for (const [key, pieces] of Object.entries(extended)) {
    pieces.sort((a, b) => a.n - b.n);
    let charset = "utf-8";
    const bytes: string[] = [];
    pieces.forEach((p, i) => {
      let v = p.v;
      if (i === 0 && p.encoded) {
        const parts = v.split("'");
        if (parts.length >= 3) {
          charset = parts[0] || charset;
          v = parts.slice(2).join("'");
        }
      }
      bytes.push(p.encoded ? v.replace(/%([0-9a-f]{2})/gi, (_, h) => String.fromCharCode(parseInt(h, 16))) : v);
    });
    params[key] = decodeCharset(latin1Bytes(bytes.join("")), charset);
  }
  return [segments[0].trim(), params];
}

function splitOutsideQuotes(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"' && s[i - 1] !== "\\") quoted = !quoted;
    if (c === sep && !quoted) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function splitMultipart(body: string, boundary: string): string[] {
  const delimiter = "--" + boundary;
  const parts: string[] = [];
  const lines = body.split(/\r?\n/);
  let current: string[] | null = null;
  for (const line of lines) {
    const trimmed = line.trimEnd();
    if (trimmed === delimiter + "--") break;
    if (trimmed === delimiter) {
      if (current) parts.push(current.join("\r\n"));
      current = [];
    } else if (current) current.push(line);
  }
  if (current) parts.push(current.join("\r\n"));
  return parts;
}

function decodeTransfer(text: string, encoding: string): Uint8Array {
  const enc = encoding.trim().toLowerCase();
  if (enc === "base64") return base64Bytes(text);
  if (enc === "quoted-printable") return latin1Bytes(decodeQuotedPrintable(text));
  return latin1Bytes(text);
}

function base64Bytes(text: string): Uint8Array {
  const clean = text.replace(/[^A-Za-z0-9+/]/g, "");
  return new Uint8Array(Buffer.from(clean, "base64"));
}

export function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, "").replace(/=([0-9A-Fa-f]{2})/g, (_, h) => String.fromCharCode(parseInt(h, 16)));
}

/** RFC 2047: `=?utf-8?B?...?=` and `=?iso-8859-1?Q?...?=`; whitespace between adjacent encoded words is dropped. */
export function decodeEncodedWords(value: string): string {
  const joined = value.replace(/(=\?[^?]+\?[BbQq]\?[^?]*\?=)\s+(?==\?[^?]+\?[BbQq]\?[^?]*\?=)/g, "$1");
  return joined.replace(
    /=\?([^?*]+)(?:\*[^?]*)?\?([BbQq])\?([^?]*)\?=/g,
    (_, charset: string, kind: string, data: string) => {
      const bytes =
        kind.toUpperCase() === "B"
          ? base64Bytes(data)
          : latin1Bytes(
              data.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (__, h) => String.fromCharCode(parseInt(h, 16))),
            );
      return decodeCharset(bytes, charset);
    },
  );
}

/** A latin1 string holding raw 8-bit bytes (RFC 6532 headers) read as UTF-8; plain ASCII passes unchanged. */
export function rawUtf8(s: string): string {
  return /[\x80-\xff]/.test(s) ? decodeCharset(latin1Bytes(s), "utf-8") : s;
}

export function decodeCharset(bytes: Uint8Array, charset: string | undefined): string {
  const label = (charset ?? "utf-8")
    .trim()
    .toLowerCase()
    .replace(/^us-ascii$/, "utf-8");
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder("utf-8").decode(bytes); // unknown charset label: UTF-8 is the best guess
  }
}

export function latin1Bytes(s: string): Uint8Array {
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i) & 0xff;
  return out;
}

export function latin1String(bytes: Uint8Array): string {
  let s = "";
  // stack-safe: 8,192 bytes per call.
  for (let i = 0; i < bytes.length; i += 8192) s += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return s;
}
