/**
 * What `docproc serve` settles before and right after it starts listening: the admin key when ADMIN_API_KEY is
 * unset, and whether the links it hands out (capture QR codes, webhook download links) can be opened by anyone else.
 *
 * The admin key: a key generated at every start broke every client at the next restart. So the first start without
 * ADMIN_API_KEY writes a random key to `<data>/admin-api-key` (mode 0600, created exclusively so two servers starting
 * at once agree) and shows it once; later starts read it and say where it is, never the key itself (docs/auth.md).
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { networkInterfaces } from "node:os";
import path from "node:path";
import { DocprocError } from "../core/errors";

export const ADMIN_KEY_FILE = "admin-api-key";

export interface StoredAdminKey {
  key: string;
  file: string;
  /** True when this start generated it: the only time it is shown. */
  created: boolean;
}

/** The data directory's admin key, generated and stored on first use. */
export function storedAdminKey(dataDir: string): StoredAdminKey {
  const file = path.resolve(dataDir, ADMIN_KEY_FILE);
  mkdirSync(path.dirname(file), { recursive: true });
  const key = randomBytes(24).toString("base64url");
  try {
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
    return { key, file, created: true };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST")
      throw new DocprocError("invalid_settings", `Cannot store the admin key in ${file}: ${(err as Error).message}`);
  }
  const stored = readFileSync(file, "utf8").trim();
  if (!stored)
    throw new DocprocError(
      "invalid_settings",
      `${file} is empty: delete it to generate a new admin key, or set ADMIN_API_KEY`,
    );
  return { key: stored, file, created: false };
}

/** What serve prints about the key when ADMIN_API_KEY is unset (the key itself only when just generated). */
export function adminKeyNotice(k: StoredAdminKey): string {
  return k.created
    ? `ADMIN_API_KEY not set; generated an admin key, stored in ${k.file} (readable by you only) and used at every start until ADMIN_API_KEY is set. It is shown this once:\n  ${k.key}\n`
    : `ADMIN_API_KEY not set; using the admin key stored in ${k.file}\n`;
}

/** Whether a URL names this machine only (a phone or another host cannot open it). */
export function isLoopbackUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const host = new URL(url).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return (
    host === "localhost" ||
    host.endsWith(".localhost") ||
    /^127\./.test(host) ||
    host === "::1" ||
    host === "0.0.0.0" ||
    host === "::"
  );
}

/** This machine's first non-internal IPv4 address, for an example others could reach; null when it has none. */
export function lanAddress(): string | null {
  for (const list of Object.values(networkInterfaces())) {
    for (const a of list ?? []) if (a.family === "IPv4" && !a.internal) return a.address;
  }
  return null;
}

/**
 * The warning when the base of capture and webhook links is loopback while capture or webhooks are in use, with the
 * setting that fixes it; null when there is nothing to say.
 */
export function publicUrlWarning(
  base: string,
  inUse: { capture: boolean; webhooks: boolean },
  lan = lanAddress(),
): string | null {
  if (!isLoopbackUrl(base) || (!inUse.capture && !inUse.webhooks)) return null;
  const what = [inUse.capture ? "capture QR codes" : "", inUse.webhooks ? "webhook download links" : ""]
    .filter(Boolean)
    .join(" and ");
  const port = new URL(base).port || "8080";
  const example = `http://${lan ?? "<this machine's address>"}:${port}`;
  return `${what} point at ${base}, which a phone or another host cannot open: set DOCPROC_PUBLIC_URL to an address they reach, e.g. DOCPROC_PUBLIC_URL=${example} docproc serve --host 0.0.0.0 (docs/capture.md)`;
}
