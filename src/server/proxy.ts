/**
 * Behind a reverse proxy (docs/operations.md): with DOCPROC_TRUST_PROXY set, `X-Forwarded-Proto`, `-Host` and
 * `-Prefix` say how clients reach this server, so links it builds (capture_url) and the pages it serves (/,
 * /api-docs, /capture, the review page) work at `https://public.example/<prefix>/…`. Off by default: anyone could
 * send these headers to a server that is reached directly.
 *
 * DOCPROC_TRUST_PROXY: `true` (trust the headers from any peer: the server is reachable through the proxy only) or
 * a comma list of addresses/CIDRs of the proxies (the headers count only when the TCP peer is one of them).
 */
import proxyaddr from "proxy-addr";
import { DocprocError } from "../core/errors";

/** Off, trust every peer, or the proxies' addresses/CIDRs/names as written (checked by proxy-addr when parsed). */
export type TrustProxy = false | true | string[];

/**
 * Parses DOCPROC_TRUST_PROXY; unset, empty, `0`, `false`, `off` and `no` mean off. A list is read by proxy-addr
 * (Express's trust-proxy parser): addresses, CIDRs (`10.0.0.0/8`, `fd00::/8`), netmasks (`10.0.0.0/255.0.0.0`) and
 * the names `loopback`, `linklocal`, `uniquelocal`. Every entry it cannot read is named in one error.
 */
export function parseTrustProxy(raw: string | undefined): TrustProxy {
  const v = raw?.trim().toLowerCase() ?? "";
  if (v === "" || ["0", "false", "off", "no"].includes(v)) return false;
  if (["1", "true", "on", "yes", "*"].includes(v)) return true;
  const entries = v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => {
    try {
      proxyaddr.compile(entry);
      return false;
    } catch {
      return true;
    }
  });
  if (bad.length || !entries.length) {
    throw new DocprocError(
      "invalid_settings",
      `DOCPROC_TRUST_PROXY must be true, false or a comma list of proxy addresses/CIDRs (or loopback, linklocal, uniquelocal); cannot read ${JSON.stringify(bad.join(",") || raw)}`,
    );
  }
  return entries;
}

export interface PublicBase {
  /** `https://docs.example.com` */
  origin: string;
  /** `` or `/docproc` (no trailing slash): prepend to every absolute path of a page or link. */
  prefix: string;
}

const bases = new WeakMap<Request, PublicBase>();

const first = (v: string | null) => v?.split(",")[0]!.trim() || null;
const HOST = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+)(:\d{1,5})?$/;
const PREFIX = /^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/;

const compiled = new WeakMap<string[], (addr: string, i: number) => boolean>();

/** Whether the TCP peer is a trusted proxy (an IPv4-mapped IPv6 peer matches its IPv4 entries: proxy-addr). */
function peerTrusted(trust: TrustProxy, peer: string | null | undefined): boolean {
  if (trust === true) return true;
  if (trust === false || !peer) return false;
  let check = compiled.get(trust);
  if (!check) compiled.set(trust, (check = proxyaddr.compile(trust)));
  return check(peer, 0);
}

/**
 * Records how the client reached this request (called once per request, before routing). Malformed forwarded
 * values are ignored one by one: a wrong prefix never breaks the request, it only loses the prefix. Of a
 * comma-separated header the first value counts, as Express reads X-Forwarded-Proto and -Host: the value the
 * outermost proxy set for the client. The HOST and PREFIX patterns stay hand-written: they only decide which
 * forwarded values are safe to echo into links and pages.
 */
export function notePublicBase(request: Request, trust: TrustProxy, peer: string | null | undefined): void {
  if (trust === false || !peerTrusted(trust, peer)) return;
  const proto = first(request.headers.get("x-forwarded-proto"))?.toLowerCase();
  const host = first(request.headers.get("x-forwarded-host"));
  const prefix = first(request.headers.get("x-forwarded-prefix"))?.replace(/\/+$/, "") ?? "";
  if (!proto && !host && !prefix) return;
  const own = new URL(request.url);
  bases.set(request, {
    origin: `${proto === "https" || proto === "http" ? proto : own.protocol.slice(0, -1)}://${host && HOST.test(host) ? host : own.host}`,
    prefix: PREFIX.test(prefix) ? prefix : "",
  });
}

/** How the client addressed this server: the forwarded origin and prefix when trusted, else the request's own. */
export function publicBaseOf(request: Request): PublicBase {
  return bases.get(request) ?? { origin: new URL(request.url).origin, prefix: "" };
}

/** The public URL of a path of this server, e.g. publicUrlOf(req, "/capture") → `https://x.example/docproc/capture`. */
export function publicUrlOf(request: Request, path: string): string {
  const b = publicBaseOf(request);
  return `${b.origin}${b.prefix}${path}`;
}
