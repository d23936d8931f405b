/**
 * Authentication, in one module so the clients/keys/permissions issue replaces only this file.
 * For now: the ADMIN_API_KEY value in `X-API-Key` authorises everything; anything else is 401.
 * Public (no key): GET /health, /docs, /api-docs and its assets.
 */
import { timingSafeEqual } from "node:crypto";
import { DocprocError } from "../core/errors";

const PUBLIC = [/^\/health\/?$/, /^\/docs(\/.*)?$/, /^\/api-docs(\/.*)?$/];

export function isPublicPath(pathname: string): boolean {
  return PUBLIC.some((re) => re.test(pathname));
}

function sameKey(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Throws `unauthorized` unless the request may proceed. */
export function authenticate(request: Request, pathname: string, adminApiKey: string): void {
  if (isPublicPath(pathname)) return;
  const key = request.headers.get("x-api-key") ?? request.headers.get("x-admin-key");
  if (!key) throw new DocprocError("unauthorized", "Missing API key: send it in the X-API-Key header");
  if (!sameKey(key, adminApiKey)) throw new DocprocError("unauthorized", "Invalid API key");
}
