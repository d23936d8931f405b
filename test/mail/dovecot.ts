/**
 * A private dovecot for the mail tests: its own generated config, base/state dirs, log and maildir in a temp
 * directory, a passwd-file test user, plain IMAP and IMAPS (self-signed certificate made with openssl) on free
 * loopback ports. Never the system service. Started with `dovecot -F` as a child process and stopped with SIGTERM.
 *
 * Root (CI runs as root): dovecot refuses to run its login processes as root and to give mail access to UID 0,
 * so the login processes run as Debian's `dovenull`, internal ones as `dovecot`, and the mail user as `nobody`
 * (the maildir is chowned to it). Not root: everything runs as the current user.
 */
import type { Subprocess } from "bun";
import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { userInfo } from "node:os";
import path from "node:path";
import { ImapFlow } from "imapflow";
import { makeTempDir } from "../support/temp";
import { freePort } from "../support/process";
import { waitFor } from "../support/wait";

export const DOVECOT = ["/usr/sbin/dovecot", "/usr/local/sbin/dovecot"].find((p) => existsSync(p)) ?? null;
export const OPENSSL = ["/usr/bin/openssl", "/usr/local/bin/openssl"].find((p) => existsSync(p)) ?? null;

export interface Dovecot {
  dir: string;
  host: "127.0.0.1";
  port: number;
  tlsPort: number;
  user: string;
  password: string;
  /** The server's self-signed certificate (PEM): what a connector's ca_certificate trusts. */
  certPem: string;
  log(): string;
  /** An IMAP client logged in as the test user (plain, loopback). */
  client(): Promise<ImapFlow>;
  /** Delivers a message by IMAP APPEND; returns its UID. */
  append(raw: string | Uint8Array, folder?: string, flags?: string[]): Promise<number>;
  stop(): Promise<void>;
}

function idOf(name: string): { uid: number; gid: number } | null {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${name}:`));
  if (!line) return null;
  const f = line.split(":");
  return { uid: Number(f[2]), gid: Number(f[3]) };
}

function userName(uid: number): string {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.split(":")[2] === String(uid));
  return line?.split(":")[0] ?? userInfo().username;
}

function groupName(gid: number): string {
  const line = readFileSync("/etc/group", "utf8")
    .split("\n")
    .find((l) => l.split(":")[2] === String(gid));
  return line?.split(":")[0] ?? String(gid);
}

export async function startDovecot(): Promise<Dovecot> {
  if (!DOVECOT || !OPENSSL) throw new Error("dovecot (Debian dovecot-imapd) and openssl are needed for the mail tests");
  const dir = makeTempDir("dovecot");
  chmodSync(dir, 0o755); // the unprivileged login/auth processes must reach their sockets and the passwd file
  const [port, tlsPort] = [await freePort(), await freePort()];
  const root = process.getuid?.() === 0;
  const me = userInfo();
  const mailUser = root ? idOf("nobody") : { uid: me.uid, gid: me.gid };
  if (!mailUser) throw new Error("no `nobody` user to own the test maildir");
  const loginUser = root ? "dovenull" : userName(me.uid);
  const internalUser = root ? "dovecot" : userName(me.uid);
  const internalGroup = root ? "dovecot" : groupName(me.gid);
  if (root && (!idOf("dovenull") || !idOf("dovecot")))
    throw new Error("the dovecot-imapd package's users dovenull and dovecot are missing");

  const home = path.join(dir, "mail", "test");
  mkdirSync(home, { recursive: true });
  if (root) {
    chownSync(path.join(dir, "mail"), mailUser.uid, mailUser.gid);
    chownSync(home, mailUser.uid, mailUser.gid);
  }
  execFileSync(
    OPENSSL,
    [
      "req",
      "-x509",
      "-newkey",
      "ec",
      "-pkeyopt",
      "ec_paramgen_curve:prime256v1",
      "-nodes",
      "-days",
      "2",
      "-keyout",
      path.join(dir, "key.pem"),
      "-out",
      path.join(dir, "cert.pem"),
      "-subj",
      "/CN=localhost",
      "-addext",
      "subjectAltName=DNS:localhost,IP:127.0.0.1",
    ],
    { stdio: "ignore" },
  );
  const user = "test";
  const password = "test-password";
  writeFileSync(path.join(dir, "passwd"), `${user}:{PLAIN}${password}:${mailUser.uid}:${mailUser.gid}::${home}::\n`, {
    mode: 0o644,
  });
  const conf = `
base_dir = ${dir}/run
state_dir = ${dir}/state
instance_name = docproc-test-${path.basename(dir)}
protocols = imap
listen = 127.0.0.1
log_path = ${dir}/dovecot.log
ssl = yes
ssl_cert = <${dir}/cert.pem
ssl_key = <${dir}/key.pem
disable_plaintext_auth = no
auth_mechanisms = plain login
first_valid_uid = ${Math.min(mailUser.uid, 1)}
mail_location = maildir:~/Maildir
default_login_user = ${loginUser}
default_internal_user = ${internalUser}
default_internal_group = ${internalGroup}
passdb {
  driver = passwd-file
  args = ${dir}/passwd
}
userdb {
  driver = passwd-file
  args = ${dir}/passwd
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    address = 127.0.0.1
    port = ${tlsPort}
  }
}
service anvil {
  chroot =
}
`;
  mkdirSync(path.join(dir, "state"), { recursive: true });
  writeFileSync(path.join(dir, "dovecot.conf"), conf);
  const proc: Subprocess = Bun.spawn([DOVECOT, "-F", "-c", path.join(dir, "dovecot.conf")], {
    stdout: "pipe",
    stderr: "pipe",
  });
  const log = () =>
    existsSync(path.join(dir, "dovecot.log")) ? readFileSync(path.join(dir, "dovecot.log"), "utf8") : "";
  try {
    await waitForPort(port, proc, log);
    await waitForPort(tlsPort, proc, log);
  } catch (err) {
    proc.kill("SIGKILL");
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }

  const client = async () => {
    const c = new ImapFlow({
      host: "127.0.0.1",
      port,
      secure: false,
      doSTARTTLS: false,
      auth: { user, pass: password },
      logger: false,
    });
    c.on("error", () => {});
    await c.connect();
    return c;
  };
  const stop = async () => {
    proc.kill("SIGTERM");
    const timer = setTimeout(() => proc.kill("SIGKILL"), 5000);
    await proc.exited;
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
  };
  return {
    dir,
    host: "127.0.0.1",
    port,
    tlsPort,
    user,
    password,
    certPem: readFileSync(path.join(dir, "cert.pem"), "utf8"),
    log,
    client,
    async append(raw, folder = "INBOX", flags = []) {
      const c = await client();
      try {
        const boxes = await c.list();
        if (!boxes.some((b) => b.path === folder)) await c.mailboxCreate(folder);
        const r = await c.append(
          folder,
          typeof raw === "string" ? Buffer.from(raw, "latin1") : Buffer.from(raw),
          flags,
        );
        if (!r || !r.uid) throw new Error("APPEND gave no UID");
        return r.uid;
      } finally {
        await c.logout();
      }
    },
    stop,
  };
}

async function waitForPort(port: number, proc: Subprocess, log: () => string): Promise<void> {
  const listening = async () => {
    if (proc.exitCode !== null)
      throw new Error(
        `dovecot exited (${proc.exitCode}): ${await new Response(proc.stderr as ReadableStream).text()} ${log()}`,
      );
    return new Promise<boolean>((resolve) => {
      const s = net.connect({ host: "127.0.0.1", port }, () => (s.destroy(), resolve(true)));
      s.on("error", () => resolve(false));
    });
  };
  await waitFor(`dovecot on port ${port}`, listening, { timeoutMs: 15_000, everyMs: 50 }).catch((err: Error) => {
    throw err.message.startsWith("timed out")
      ? new Error(`dovecot did not listen on ${port} within 15 s: ${log()}`)
      : err;
  });
}

/** A message as a mail client would send it. */
export function message(opts: {
  id?: string | null;
  from?: string;
  subject?: string;
  body?: string;
  attachments?: Array<{ name: string; type: string; data: Uint8Array; inline?: boolean; cid?: string }>;
}): string {
  const boundary = "b0undary-docproc";
  const head = [
    `From: ${opts.from ?? "Billing <billing@example.com>"}`,
    "To: invoices@example.org",
    `Subject: ${opts.subject ?? "Invoice"}`,
    "Date: Mon, 02 Mar 2026 09:30:00 +0100",
    ...(opts.id === null ? [] : [`Message-ID: <${opts.id ?? crypto.randomUUID()}@example.com>`]),
    "MIME-Version: 1.0",
  ];
  const body = opts.body ?? "Please find the invoice attached.";
  if (!opts.attachments?.length) return [...head, "Content-Type: text/plain; charset=utf-8", "", body, ""].join("\r\n");
  const parts = [
    `--${boundary}`,
    "Content-Type: text/plain; charset=utf-8",
    "",
    body,
    ...opts.attachments.flatMap((a) => [
      `--${boundary}`,
      `Content-Type: ${a.type}; name="${a.name}"`,
      `Content-Disposition: ${a.inline ? "inline" : "attachment"}; filename="${a.name}"`,
      ...(a.cid ? [`Content-ID: <${a.cid}>`] : []),
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from(a.data).toString("base64").replace(/.{76}/g, "$&\r\n"),
    ]),
    `--${boundary}--`,
    "",
  ];
  return [...head, `Content-Type: multipart/mixed; boundary="${boundary}"`, "", ...parts].join("\r\n");
}
