/** Mail connector parts without a server: sealed secrets, settings, the environment, the skip options of the expansion. */
import { describe, expect, test } from "bun:test";
import { randomBytes } from "node:crypto";
import { expandEmailSource } from "../../src/core/split/email";
import { parseMail } from "../../src/mail/message";
import { checkConnection, ConnectionSettingsSchema, isLoopbackHost } from "../../src/mail/settings";
import { loadEnvSettings } from "../../src/settings/env";
import { open, parseSecretKey, seal } from "../../src/storage/auth/secret-box";
import { message } from "./dovecot";
import { PDF as PDF_BYTES } from "./helpers";
import { wholeBytes } from "../../src/core/source-data";

describe("sealed secrets", () => {
  const key = parseSecretKey(randomBytes(32).toString("base64"));

  test("seal then open gives the secret back; the sealed text does not contain it and differs each time", () => {
    const a = seal("p@ss wörd", key);
    const b = seal("p@ss wörd", key);
    expect(open(a, key)).toBe("p@ss wörd");
    expect(a).not.toBe(b);
    expect(a).not.toContain("p@ss");
  });

  test("another key and a tampered value are refused with a clear reason", () => {
    const sealed = seal("secret", key);
    const other = parseSecretKey(randomBytes(32).toString("hex"));
    expect(() => open(sealed, other)).toThrow(/another DOCPROC_SECRET_KEY/);
    const parts = sealed.split(".");
    parts[4] = Buffer.from("XXXXXX").toString("base64url");
    expect(() => open(parts.join("."), key)).toThrow(/integrity/);
  });

  test("a key must be 32 bytes as base64 or hex; the environment names the variable", () => {
    expect(() => parseSecretKey("short")).toThrow(/32 random bytes/);
    expect(() => loadEnvSettings({ DOCPROC_SECRET_KEY: "short", DOCPROC_MAIL_MAX_ATTEMPTS: "0" })).toThrow(
      /DOCPROC_SECRET_KEY.*DOCPROC_MAIL_MAX_ATTEMPTS|DOCPROC_MAIL_MAX_ATTEMPTS.*DOCPROC_SECRET_KEY/,
    );
    const env = loadEnvSettings({
      DOCPROC_SECRET_KEY: randomBytes(32).toString("base64"),
      DOCPROC_MAIL_LEASE_SECONDS: "5",
    });
    expect(env.mail.secretKey?.key.length).toBe(32);
    expect(env.mail.leaseMs).toBe(5000);
    expect(loadEnvSettings({}).mail).toEqual({ secretKey: null, leaseMs: 120_000, maxAttempts: 3 });
  });
});

describe("connection settings", () => {
  test("plain IMAP only to loopback hosts", () => {
    for (const h of ["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"]) expect(isLoopbackHost(h)).toBe(true);
    for (const h of ["10.0.0.1", "imap.example.com", "128.0.0.1", "localhost.example.com"])
      expect(isLoopbackHost(h)).toBe(false);
    const base = { host: "imap.example.com", username: "u", security: "none" };
    expect(() => checkConnection(ConnectionSettingsSchema.parse(base))).toThrow(/loopback/);
    expect(checkConnection(ConnectionSettingsSchema.parse({ ...base, host: "127.0.0.1" })).security).toBe("none");
  });

  test("defaults: TLS, INBOX, mark seen, 60 s polls, IDLE, inline images under 16 KiB skipped", () => {
    expect(ConnectionSettingsSchema.parse({ host: "h", username: "u" })).toEqual({
      host: "h",
      username: "u",
      security: "tls",
      folder: "INBOX",
      filter: { unseen: false },
      after_import: { action: "mark_seen" },
      poll_interval_seconds: 60,
      idle: true,
      skip_inline_images_below_bytes: 16384,
      max_message_bytes: 25 * 1024 * 1024,
    });
  });
});

describe("what a message becomes", () => {
  const logo = new Uint8Array(2000).fill(1);
  const photo = new Uint8Array(20_000).fill(2);
  const raw = message({
    id: "abc",
    attachments: [
      { name: "invoice.pdf", type: "application/pdf", data: PDF_BYTES },
      { name: "logo.png", type: "image/png", data: logo, inline: true, cid: "logo" },
      { name: "photo.jpg", type: "image/jpeg", data: photo, inline: true, cid: "photo" },
      { name: "small-attached.png", type: "image/png", data: logo },
      { name: "smime.p7s", type: "application/pkcs7-signature", data: logo },
    ],
  });

  test("an uploaded .eml keeps every part; the connector skips small inline images and signatures only", async () => {
    const src = { index: 0, filename: "m.eml", data: new TextEncoder().encode(raw), split_policy: "inherit" as const };
    expect(expandEmailSource(src).map((s) => s.filename)).toEqual([
      "m.txt",
      "invoice.pdf",
      "logo.png",
      "photo.jpg",
      "small-attached.png",
      "smime.p7s",
    ]);
    const parsed = await parseMail(new TextEncoder().encode(raw), { skipInlineImagesBelow: 16384 });
    expect(parsed.sources.map((s) => [s.filename, s.split_policy])).toEqual([
      ["Invoice.txt", "single_document"],
      ["invoice.pdf", "inherit"],
      ["photo.jpg", "inherit"],
      ["small-attached.png", "inherit"],
    ]);
    // The body is the same rendering an uploaded .eml gets.
    expect(new TextDecoder().decode(wholeBytes(parsed.sources[0]!.data))).toBe(
      new TextDecoder().decode(wholeBytes(expandEmailSource(src)[0]!.data)),
    );
    expect(parsed.facts).toMatchObject({
      message_id: "abc@example.com",
      message_key: "mid:abc@example.com",
      from: "billing@example.com",
      subject: "Invoice",
    });
  });

  test("a message without Message-ID is identified by its content hash and has no correlation id", async () => {
    const parsed = await parseMail(new TextEncoder().encode(message({ id: null })), { skipInlineImagesBelow: 0 });
    expect(parsed.facts.message_id).toBeNull();
    expect(parsed.facts.message_key).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
