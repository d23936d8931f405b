/**
 * Outbound URL guard for webhook deliveries (spec "Events", delivery rule 6).
 *
 * `checkWebhookUrl` MUST be called before every delivery attempt. It accepts only http and https, resolves the host
 * (an injectable resolver; default `node:dns` lookup of all addresses) and rejects the URL when ANY address is not
 * public, unless the address is in the explicit allow-list. It returns the address it checked; the caller MUST
 * connect to exactly that address (see deliver.ts) so a second DNS answer (rebinding) is never used.
 */
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import { DocprocError } from "../errors.ts";
import {
  classifyAddress,
  formatIp,
  inCidr,
  parseCidr,
  parseIPv4,
  parseIPv6,
  unmapIPv4,
  type Cidr,
  type IpAddress,
} from "./ip.ts";

/** Resolves a host name to its IP addresses (text form). */
export type Resolver = (host: string) => Promise<string[]>;

/**
 * `false` (default): only public addresses. `true`: anything (local development only). A list of CIDR blocks
 * (`["127.0.0.0/8", "::1/128"]`): those addresses are allowed in addition to public ones.
 */
export type AllowPrivate = boolean | string[];

export interface UrlCheckOptions {
  resolve?: Resolver;
  allowPrivate?: AllowPrivate;
}

export interface CheckedUrl {
  url: URL;
  /** Host name as written in the URL (no brackets), used for the Host header and TLS server name. */
  hostname: string;
  /** The checked address the connection MUST go to. */
  address: string;
  family: 4 | 6;
  /** Every address the host resolved to, all checked. */
  addresses: string[];
}

export const defaultResolver: Resolver = async (host) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Parses an allow-list such as the value of `DOCPROC_WEBHOOK_ALLOW` ("127.0.0.0/8,::1/128"; "*" allows all).
 * Throws `invalid_settings` on a malformed entry. An empty or missing value means no allow-list (the default).
 */
export function parseAllowList(text: string | undefined | null): AllowPrivate {
  const entries = (text ?? "").split(/[\s,]+/).filter(Boolean);
  if (entries.includes("*")) return true;
  for (const entry of entries) {
    if (!parseCidr(entry))
      throw new DocprocError("invalid_settings", `webhook allow-list: "${entry}" is not an IP address or CIDR block`);
  }
  return entries.length > 0 ? entries : false;
}

function blocked(url: string, reason: string): DocprocError {
  return new DocprocError("ssrf_blocked", `webhook URL ${redact(url)} rejected: ${reason}`, {
    stage: "notify",
    details: { reason },
  });
}

/** Drops any userinfo so error messages and logs never echo a password. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    u.username = "";
    u.password = "";
    return u.toString();
  } catch {
    return "(unparsable URL)";
  }
}

/** Host literal of a URL hostname: bracketed IPv6 or an IPv4 in any inet_aton spelling; null for a name. */
function literalAddress(hostname: string): IpAddress | null {
  if (hostname.startsWith("[")) return parseIPv6(hostname);
  // The WHATWG parser already turns 2130706433 / 0x7f.1 / 012.0.0.1 / 127.1 into dotted decimal; parsing again here
  // keeps the guard correct even for a host that reached us without that normalisation.
  return /^[0-9a-fx.]+$/i.test(hostname) ? parseIPv4(hostname) : null;
}

export async function checkWebhookUrl(raw: string, opts: UrlCheckOptions = {}): Promise<CheckedUrl> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw blocked(raw, "not a valid absolute URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw blocked(raw, `scheme ${url.protocol} is not allowed (only http and https)`);
  // Credentials in the URL are refused: they would travel in clear logs, and `user@host` is a classic way to
  // disguise the real host. Receivers wanting auth use custom_headers (Authorization).
  if (url.username || url.password) throw blocked(raw, "credentials in the URL are not allowed; use custom_headers");
  const hostname = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  if (!hostname) throw blocked(raw, "no host");

  const literal = literalAddress(url.hostname);
  let addresses: string[];
  if (literal) {
    addresses = [formatIp(literal)];
  } else {
    try {
      addresses = await (opts.resolve ?? defaultResolver)(hostname.replace(/\.$/, ""));
    } catch (err) {
      throw new DocprocError("delivery_failed", `could not resolve ${hostname}: ${(err as Error).message}`, {
        stage: "notify",
        retryable: true,
        cause: err,
      });
    }
    if (addresses.length === 0)
      throw new DocprocError("delivery_failed", `${hostname} has no address`, { stage: "notify", retryable: true });
  }

  const allow = allowCidrs(opts.allowPrivate);
  const checked: IpAddress[] = [];
  for (const text of addresses) {
    const bytes = parseIPv6(text) ?? parseStrictIPv4(text);
    if (!bytes) throw blocked(raw, `resolver returned "${text}", which is not an IP address`);
    const verdict = verdictOf(bytes, allow);
    if (verdict) throw blocked(raw, `${hostname} resolves to ${text} (${verdict})`);
    checked.push(bytes);
  }
  const target = unmapIPv4(checked[0]!);
  return { url, hostname, address: formatIp(target), family: target.kind() === "ipv4" ? 4 : 6, addresses };
}

/** Resolver answers must be plain dotted decimal: no inet_aton tricks from a hostile DNS server. */
function parseStrictIPv4(text: string): IpAddress | null {
  return ipaddr.IPv4.isValidFourPartDecimal(text) ? parseIPv4(text) : null;
}

function allowCidrs(allow: AllowPrivate | undefined): Cidr[] | "all" {
  if (allow === true) return "all";
  if (!allow) return [];
  return allow.map((entry) => {
    const c = parseCidr(entry);
    if (!c)
      throw new DocprocError("invalid_settings", `webhook allow-list: "${entry}" is not an IP address or CIDR block`);
    return c;
  });
}

function verdictOf(bytes: IpAddress, allow: Cidr[] | "all"): string | null {
  const cls = classifyAddress(bytes);
  if (!cls || allow === "all") return null;
  const plain = unmapIPv4(bytes);
  if (allow.some((c) => inCidr(plain, c) || inCidr(bytes, c))) return null;
  return `${cls.replace("_", "-")} address not allowed`;
}
