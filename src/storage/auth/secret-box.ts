/**
 * Secrets at rest (the mail connectors' IMAP passwords): AES-256-GCM with a 32-byte key the operator gives in the
 * environment (DOCPROC_SECRET_KEY, `openssl rand -base64 32`). A sealed value is
 * `v1.<key id>.<iv>.<tag>.<ciphertext>` (base64url); the key id (first 8 bytes of SHA-256 of the key) lets
 * `open` say "sealed with another key" instead of a bare authentication failure.
 * MUST never write a secret in clear; MUST refuse to work without a key rather than fall back to storing plain text.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { DocprocError } from "../../core/errors";

export interface SecretKey {
  key: Buffer;
  id: string;
}

/** Reads a key given as 64 hex digits or as base64 of 32 bytes; anything else is a clear error. */
export function parseSecretKey(text: string, name = "DOCPROC_SECRET_KEY"): SecretKey {
  const t = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(t)
    ? Buffer.from(t, "hex")
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(t)
      ? Buffer.from(t, "base64")
      : null;
  if (!key || key.length !== 32) {
    throw new DocprocError(
      "invalid_settings",
      `${name} must be 32 random bytes as base64 or 64 hex digits (e.g. \`openssl rand -base64 32\`)`,
    );
  }
  return { key, id: createHash("sha256").update(key).digest().subarray(0, 8).toString("base64url") };
}

export function seal(secret: string, k: SecretKey): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", k.key, iv);
  const ct = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
  return [
    "v1",
    k.id,
    iv.toString("base64url"),
    cipher.getAuthTag().toString("base64url"),
    ct.toString("base64url"),
  ].join(".");
}

export function open(sealed: string, k: SecretKey): string {
  const [version, id, iv, tag, ct] = sealed.split(".");
  if (version !== "v1" || iv === undefined || tag === undefined || ct === undefined) {
    throw new DocprocError("invalid_settings", "a stored secret is not in the v1 sealed format");
  }
  if (id !== k.id)
    throw new DocprocError(
      "invalid_settings",
      "a stored secret was sealed with another DOCPROC_SECRET_KEY: set the key it was saved with, or save the password again",
    );
  try {
    const decipher = createDecipheriv("aes-256-gcm", k.key, Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
  } catch (err) {
    throw new DocprocError("invalid_settings", "a stored secret failed its integrity check (damaged or altered)", {
      cause: err,
    });
  }
}
