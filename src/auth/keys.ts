/**
 * Secrets: API keys and session tokens. Both are 32 random bytes (base62) behind a recognisable prefix, so a leaked
 * key is easy to spot in logs and by secret scanners. Only SHA-256 digests are stored: the values have 190 bits of
 * entropy, so a fast hash is right (a slow password hash would only add latency to every request).
 *
 * MUST NOT log or persist a key or token value; MUST compare digests in constant time.
 */
import { randomBytes } from "node:crypto";

export const API_KEY_PREFIX = "dp_live_";
export const SESSION_TOKEN_PREFIX = "dp_sess_";
/** Characters of a key shown in lists (`key_suffix`). */
export const KEY_SUFFIX_LENGTH = 4;

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export function base62(bytes: Uint8Array): string {
  let n = BigInt(`0x${Buffer.from(bytes).toString("hex") || "0"}`);
  let out = "";
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  // Fixed width so every key has the same length: 32 bytes → 43 characters.
  const width = Math.ceil((bytes.length * 8) / Math.log2(62));
  return out.padStart(width, "0");
}

/** Runs on every authenticated request: Bun's one-shot hasher is twice as fast as node:crypto's createHash. */
export function sha256Hex(value: string): string {
  return Bun.SHA256.hash(value, "hex") as unknown as string;
}

/** Constant-time equality of two hex digests (lower-case hex, as sha256Hex gives; digests are not secret-length). */
export function sameDigest(a: string, b: string): boolean {
  if (a.length !== b.length || a.length === 0) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export interface NewSecret {
  /** The value handed to the caller, once. */
  value: string;
  /** What is stored. */
  hash: string;
  suffix: string;
}

function newSecret(prefix: string): NewSecret {
  const value = prefix + base62(randomBytes(32));
  return { value, hash: sha256Hex(value), suffix: value.slice(-KEY_SUFFIX_LENGTH) };
}

export const newApiKey = (): NewSecret => newSecret(API_KEY_PREFIX);
export const newSessionToken = (): NewSecret => newSecret(SESSION_TOKEN_PREFIX);

/** Short public identifier (key_id, session_id). */
export function newId(prefix: string): string {
  return prefix + base62(randomBytes(12));
}
