/**
 * Opening an IMAP connection for a connector with imapflow. `tls`: TLS from the first byte (993); `starttls`:
 * plain then STARTTLS, which MUST succeed (a server that does not offer it is an error, never a silent downgrade);
 * `none`: plain text, only for a loopback host (checked again here, whatever the stored settings say).
 * Certificates are always verified; `ca_certificate` adds a trusted CA for self-signed servers.
 */
import { rootCertificates } from "node:tls";
import { ImapFlow } from "imapflow";
import { DocprocError } from "../core/errors";
import { isLoopbackHost, portOf, type ConnectionSettings } from "./settings";

export async function connectImap(s: ConnectionSettings, password: string, timeoutMs = 30_000): Promise<ImapFlow> {
  if (s.security === "none" && !isLoopbackHost(s.host)) {
    throw new DocprocError("invalid_settings", `plain IMAP is only allowed to a loopback host, not ${s.host}`);
  }
  const client = new ImapFlow({
    host: s.host,
    port: portOf(s),
    secure: s.security === "tls",
    doSTARTTLS: s.security === "starttls" ? true : s.security === "none" ? false : undefined,
    auth: { user: s.username, pass: password },
    // `ca` replaces Node's trusted roots, so the system's are passed along with the extra one.
    tls: { rejectUnauthorized: true, ...(s.ca_certificate ? { ca: [...rootCertificates, s.ca_certificate] } : {}) },
    logger: false,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: 10 * 60_000,
    // The importer drives IDLE itself (runner.ts) so a poll never races an automatic IDLE.
    disableAutoIdle: true,
  });
  // imapflow emits `error` on socket problems; without a listener that would throw out of the event loop.
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (err) {
    throw new DocprocError(
      "invalid_settings",
      `cannot connect to IMAP ${s.host}:${portOf(s)} (${s.security}): ${describe(err)}`,
      { cause: err, retryable: true },
    );
  }
  return client;
}

export function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  if (err instanceof DocprocError) return err.message;
  const e = err as Error & { responseText?: string; authenticationFailed?: boolean; code?: string };
  if (e.authenticationFailed) return "authentication failed (check username and password)";
  return [e.message, e.responseText, e.code].filter(Boolean).join(": ");
}
