/**
 * Body serialisation and signatures (spec "Events", Signature; plus Standard Webhooks).
 *
 * - The body MUST be serialised compactly with object keys sorted recursively, and the exact bytes signed are the
 *   bytes sent.
 * - `X-Service-Signature: sha256=<hex>`: HMAC-SHA256 of the body bytes, key = the UTF-8 bytes of `hmac_secret`.
 * - Standard Webhooks (https://www.standardwebhooks.com): `webhook-id`, `webhook-timestamp` (Unix seconds) and
 *   `webhook-signature: v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">`. Key: when `hmac_secret` starts with
 *   `whsec_`, the base64 decoding of the rest (the Standard Webhooks convention, so the same string works in the
 *   `standardwebhooks` library as-is); otherwise the UTF-8 bytes of `hmac_secret` (a receiver passes
 *   `"whsec_" + base64(utf8(hmac_secret))` to the library).
 */
import { createHmac } from "node:crypto";

/** Compact JSON with object keys sorted recursively (arrays keep their order; undefined members are dropped). */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === "object" && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[key];
      if (member !== undefined) out[key] = sortKeys(member);
    }
    return out;
  }
  return value;
}

/** `sha256=<hex>` over the exact body bytes. */
export function serviceSignature(secret: string, body: string | Uint8Array): string {
  return `sha256=${createHmac("sha256", Buffer.from(secret, "utf8")).update(body).digest("hex")}`;
}

/** The HMAC key used for Standard Webhooks signatures (see the module comment). */
export function standardWebhooksKey(secret: string): Buffer {
  if (secret.startsWith("whsec_")) {
    const decoded = Buffer.from(secret.slice("whsec_".length), "base64");
    if (decoded.length > 0) return decoded;
  }
  return Buffer.from(secret, "utf8");
}

/** The `whsec_…` string a receiver passes to `new Webhook(...)` of the standardwebhooks package. */
export function standardWebhooksSecretFor(secret: string): string {
  return `whsec_${standardWebhooksKey(secret).toString("base64")}`;
}

/** `v1,<base64>` over `{id}.{timestamp}.{body}`. */
export function standardWebhookSignature(secret: string, id: string, timestampSeconds: number, body: string): string {
  const mac = createHmac("sha256", standardWebhooksKey(secret))
    .update(`${id}.${timestampSeconds}.${body}`)
    .digest("base64");
  return `v1,${mac}`;
}

/**
 * Signature headers for one attempt. `webhook-id` stays the same for every attempt of one delivery (receivers
 * deduplicate on it); the timestamp is the attempt's own, so a replayed old request fails the receiver's window.
 * `webhook-id`/`webhook-timestamp` are sent even without a secret so receivers can still deduplicate.
 */
export function signatureHeaders(
  secret: string | null,
  deliveryId: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const headers: Record<string, string> = {
    "webhook-id": deliveryId,
    "webhook-timestamp": String(timestampSeconds),
  };
  if (secret) {
    headers["X-Service-Signature"] = serviceSignature(secret, body);
    headers["webhook-signature"] = standardWebhookSignature(secret, deliveryId, timestampSeconds, body);
  }
  return headers;
}
