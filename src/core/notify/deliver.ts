/**
 * One webhook delivery attempt, the retry plan, and a blocking retry loop for the CLI.
 *
 * Contract (spec "Events", delivery rules):
 * - A 2xx response within timeout_seconds is success; anything else is a failed attempt.
 * - 5xx and 429 (and timeouts, network errors, DNS failures) are retried up to retry_max_attempts in total, the delay
 *   doubling from retry_backoff_seconds; Retry-After is honoured (capped at MAX_RETRY_AFTER_SECONDS).
 * - Other 4xx, 3xx (redirects are never followed) and SSRF rejections end the delivery at once.
 * - Every attempt MUST re-run the SSRF guard and connect to the address it checked (no second DNS lookup).
 */
import type http from "node:http";
import { randomUUID } from "node:crypto";
import type { LookupAddress } from "node:dns";
import { DocprocError } from "../errors.ts";
import { RESERVED_HEADER_NAMES, type NotificationActivity } from "../project/notify.ts";
import type { WebhookPayload } from "./payload.ts";
import { canonicalJson, signatureHeaders } from "./sign.ts";
import { formatIp, parseIp, unmapIPv4 } from "./ip.ts";
import { checkWebhookUrl, redact, type AllowPrivate, type CheckedUrl, type Resolver } from "./ssrf.ts";

export const MAX_RETRY_AFTER_SECONDS = 600;
const MAX_RESPONSE_EXCERPT = 2048;
export const USER_AGENT = "docproc-webhooks/1";

/** Everything needed to send one delivery; JSON-serialisable so a queue can store it (it holds the secret). */
export interface DeliveryRequest {
  /** Same for every attempt: `webhook-id`, and the key receivers deduplicate on. */
  delivery_id: string;
  method: "POST" | "PUT";
  url: string;
  /** Canonical JSON: exactly the bytes sent and signed. */
  body: string;
  custom_headers: Record<string, string>;
  hmac_secret: string | null;
  timeout_seconds: number;
}

export type OutcomeKind = "success" | "http_status" | "redirect" | "timeout" | "network" | "dns" | "ssrf_blocked";

export interface AttemptOutcome {
  ok: boolean;
  kind: OutcomeKind;
  /** HTTP status when a response arrived. */
  status: number | null;
  retryable: boolean;
  retry_after_seconds?: number;
  error?: string;
  duration_ms: number;
  /** ISO time the attempt started. */
  started_at: string;
  /** The checked address the connection went to. */
  address?: string;
  /** First bytes of the response body, for the delivery log. */
  response_excerpt?: string;
}

export interface AttemptRecord extends AttemptOutcome {
  attempt: number;
}

export interface SendOptions {
  resolve?: Resolver;
  /** Allow-list (see ssrf.ts); off by default. */
  allowPrivate?: AllowPrivate;
  /** Same as allowPrivate (shorter name used by callers); allowPrivate wins when both are set. */
  allow?: AllowPrivate;
  now?: () => Date;
  signal?: AbortSignal;
  /** Extra trust roots for https (tests with a self-signed receiver). */
  ca?: string | Buffer;
}

export function buildDeliveryRequest(
  activity: NotificationActivity,
  payload: WebhookPayload,
  deliveryId: string = newDeliveryId(),
): DeliveryRequest {
  return {
    delivery_id: deliveryId,
    method: activity.http_method,
    url: activity.webhook_url,
    body: canonicalJson(payload),
    custom_headers: activity.custom_headers,
    hmac_secret: activity.hmac_secret,
    timeout_seconds: activity.timeout_seconds,
  };
}

export function newDeliveryId(): string {
  return `msg_${randomUUID()}`;
}

/** Custom headers first, then ours: a custom header can never replace the signature or content headers. */
export function requestHeaders(req: DeliveryRequest, timestampSeconds: number): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.custom_headers)) {
    if (!RESERVED_HEADER_NAMES.includes(name.toLowerCase()) && !/[\r\n\0]/.test(value)) headers[name] = value;
  }
  const hasAgent = Object.keys(headers).some((name) => name.toLowerCase() === "user-agent");
  return {
    ...headers,
    ...(hasAgent ? {} : { "User-Agent": USER_AGENT }),
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(req.body)),
    ...signatureHeaders(req.hmac_secret, req.delivery_id, timestampSeconds, req.body),
  };
}

/** Seconds from a Retry-After header (delta-seconds or HTTP-date), capped; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | undefined {
  if (!value) return undefined;
  const seconds = /^\s*\d+\s*$/.test(value) ? Number(value) : (Date.parse(value) - now.getTime()) / 1000;
  if (!Number.isFinite(seconds)) return undefined;
  return Math.min(Math.max(0, seconds), MAX_RETRY_AFTER_SECONDS);
}

/**
 * node:http and node:https load with the first delivery: every `docproc process` imports this module (through the
 * notify stage) and most never deliver anything; loading both took ~9 ms of each start-up.
 */
type Transports = { http: typeof import("node:http"); https: typeof import("node:https") };
let transports: Promise<Transports> | null = null;
const loadTransports = () =>
  (transports ??= Promise.all([import("node:http"), import("node:https")]).then(([http, https]) => ({ http, https })));

/** Sends one attempt. Never throws: every failure is an outcome. */
export async function deliverOnce(req: DeliveryRequest, opts: SendOptions = {}): Promise<AttemptOutcome> {
  const now = opts.now ?? (() => new Date());
  const startedAt = now();
  const t0 = performance.now();
  const done = (o: Omit<AttemptOutcome, "duration_ms" | "started_at">): AttemptOutcome => ({
    ...o,
    duration_ms: Math.round(performance.now() - t0),
    started_at: startedAt.toISOString(),
  });
  let checked: CheckedUrl;
  try {
    checked = await checkWebhookUrl(req.url, { resolve: opts.resolve, allowPrivate: opts.allowPrivate ?? opts.allow });
  } catch (err) {
    const e = err instanceof DocprocError ? err : new DocprocError("internal", String(err));
    const kind: OutcomeKind = e.code === "ssrf_blocked" ? "ssrf_blocked" : "dns";
    return done({ ok: false, kind, status: null, retryable: e.retryable, error: e.message });
  }
  const headers = requestHeaders(req, Math.floor(startedAt.getTime() / 1000));
  const result = await send(await loadTransports(), checked, req, headers, opts);
  return done({ ...classify(result, now()), address: checked.address });
}

interface RawResult {
  status?: number;
  location?: string;
  retryAfter?: string;
  excerpt?: string;
  error?: string;
  timedOut?: boolean;
}

function classify(r: RawResult, now: Date): Omit<AttemptOutcome, "duration_ms" | "started_at"> {
  if (r.timedOut) return { ok: false, kind: "timeout", status: r.status ?? null, retryable: true, error: r.error };
  if (r.status === undefined) return { ok: false, kind: "network", status: null, retryable: true, error: r.error };
  const base = { status: r.status, response_excerpt: r.excerpt };
  if (r.status >= 200 && r.status < 300) return { ...base, ok: true, kind: "success", retryable: false };
  if (r.status >= 300 && r.status < 400) {
    const where = r.location ? ` to ${redact(r.location)}` : "";
    return {
      ...base,
      ok: false,
      kind: "redirect",
      retryable: false,
      error: `HTTP ${r.status}: redirect${where} not followed`,
    };
  }
  const retryable = r.status === 429 || r.status >= 500;
  const retryAfter = retryable ? parseRetryAfter(r.retryAfter, now) : undefined;
  return {
    ...base,
    ok: false,
    kind: "http_status",
    retryable,
    ...(retryAfter === undefined ? {} : { retry_after_seconds: retryAfter }),
    error: `HTTP ${r.status}`,
  };
}

/** A `lookup` that answers every query with the checked address: the runtime never asks DNS again. */
function pinnedLookup(checked: CheckedUrl) {
  const entry: LookupAddress = { address: checked.address, family: checked.family };
  return (_host: string, options: { all?: boolean } | number, cb: (...args: unknown[]) => void) => {
    if (typeof options === "object" && options?.all) cb(null, [entry]);
    else cb(null, entry.address, entry.family);
  };
}

/**
 * The request goes to the host name of the URL (Host header and TLS server name stay right) but the socket is
 * opened to the checked address through `pinnedLookup`. Keep-alive agents are not used, so no socket opened for
 * another check can be reused.
 */
function openRequest(
  { http, https }: Transports,
  checked: CheckedUrl,
  req: DeliveryRequest,
  headers: Record<string, string>,
  ca?: string | Buffer,
): http.ClientRequest {
  const url = checked.url;
  const isHttps = url.protocol === "https:";
  return (isHttps ? https : http).request({
    protocol: url.protocol,
    hostname: checked.hostname,
    port: url.port || (isHttps ? 443 : 80),
    path: `${url.pathname}${url.search}`,
    method: req.method,
    headers,
    agent: false,
    lookup: pinnedLookup(checked) as never,
    ...(isHttps && ca ? { ca } : {}),
  });
}

/** Defence in depth: a runtime that ignored `lookup` would show here, and the attempt is dropped. */
export function remoteMismatch(remote: string | undefined, checked: CheckedUrl): string | null {
  if (!remote) return null;
  const bytes = parseIp(remote);
  if (bytes && formatIp(unmapIPv4(bytes)) === checked.address) return null;
  return `connected to ${remote}, not the checked address ${checked.address}`;
}

function headerOf(res: http.IncomingMessage, name: string): string | undefined {
  const v = res.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function send(
  transports: Transports,
  checked: CheckedUrl,
  req: DeliveryRequest,
  headers: Record<string, string>,
  opts: SendOptions,
): Promise<RawResult> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (r: RawResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", onAbort);
      resolve(r);
    };
    const request = openRequest(transports, checked, req, headers, opts.ca);
    // Once the status line is in, the response has arrived "within the timeout"; a body that trickles on past it
    // is cut off but does not turn a 2xx into a failure.
    let respond: (() => void) | null = null;
    const timer = setTimeout(() => {
      request.destroy();
      if (respond) respond();
      else finish({ timedOut: true, error: `no response within ${req.timeout_seconds}s` });
    }, req.timeout_seconds * 1000);
    const onAbort = () => {
      request.destroy();
      finish({ error: "aborted" });
    };
    opts.signal?.addEventListener("abort", onAbort, { once: true });
    request.on("socket", (socket) => {
      socket.once("connect", () => {
        const mismatch = remoteMismatch(socket.remoteAddress, checked);
        if (mismatch) {
          request.destroy();
          finish({ error: mismatch });
        }
      });
    });
    request.on("response", (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on("data", (chunk: Buffer) => {
        if (size < MAX_RESPONSE_EXCERPT) chunks.push(chunk);
        size += chunk.length;
      });
      respond = () =>
        finish({
          status: res.statusCode ?? 0,
          location: headerOf(res, "location"),
          retryAfter: headerOf(res, "retry-after"),
          excerpt: Buffer.concat(chunks).toString("utf8").slice(0, MAX_RESPONSE_EXCERPT),
        });
      res.on("end", respond);
      res.on("error", respond);
    });
    request.on("error", (err) => finish({ error: err.message }));
    request.end(req.body);
  });
}
