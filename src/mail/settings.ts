/**
 * Mail connector settings (docs/email.md): one zod schema for what the API and `docproc mail add` accept.
 * The password is write-only: it is sealed before it is stored and no view returns it.
 * Plain IMAP (`security: "none"`) MUST only be accepted for a loopback host: credentials never cross a network
 * in clear.
 */
import { isIP } from "node:net";
import { z } from "zod";
import { DocprocError } from "../core/errors";

export const SECURITY = ["tls", "starttls", "none"] as const;
export const AFTER_IMPORT = ["mark_seen", "move", "delete", "none"] as const;
export const DEFAULT_SKIP_INLINE_BELOW = 16 * 1024;
export const DEFAULT_MAX_MESSAGE_BYTES = 25 * 1024 * 1024;

/** 127.0.0.0/8, ::1 and `localhost`: the only hosts plain IMAP may talk to. */
export function isLoopbackHost(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, "");
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  if (isIP(h) === 4) return h.startsWith("127.");
  return h === "::1" || h === "0:0:0:0:0:0:0:1" || /^::ffff:127\./.test(h);
}

const Filter = z
  .object({
    from: z.string().min(1).max(500).optional(),
    subject: z.string().min(1).max(500).optional(),
    unseen: z.boolean().default(false),
  })
  .strict();

const AfterImport = z
  .object({ action: z.enum(AFTER_IMPORT).default("mark_seen"), folder: z.string().min(1).max(500).optional() })
  .strict()
  .refine((a) => a.action !== "move" || !!a.folder, {
    message: "folder is required when action is move",
    path: ["folder"],
  });

/** The stored part: everything but name, enabled and the password. */
export const ConnectionSettingsSchema = z
  .object({
    host: z.string().min(1).max(255),
    port: z.number().int().min(1).max(65535).optional(),
    security: z.enum(SECURITY).default("tls"),
    username: z.string().min(1).max(500),
    /** PEM of a CA (or a self-signed server certificate) to trust besides the system's. */
    ca_certificate: z.string().includes("BEGIN CERTIFICATE", { message: "must be a PEM certificate" }).optional(),
    folder: z.string().min(1).max(500).default("INBOX"),
    filter: Filter.default({ unseen: false }),
    after_import: AfterImport.default({ action: "mark_seen" }),
    poll_interval_seconds: z.number().int().min(1).max(86_400).default(60),
    idle: z.boolean().default(true),
    skip_inline_images_below_bytes: z.number().int().min(0).default(DEFAULT_SKIP_INLINE_BELOW),
    max_message_bytes: z.number().int().min(1024).default(DEFAULT_MAX_MESSAGE_BYTES),
  })
  .strict();

export type ConnectionSettings = z.infer<typeof ConnectionSettingsSchema>;

export const CreateConnectorSchema = ConnectionSettingsSchema.extend({
  name: z.string().min(1).max(200).default("mail"),
  enabled: z.boolean().default(true),
  password: z.string().min(1).max(1000),
}).strict();

export type CreateConnectorInput = z.infer<typeof CreateConnectorSchema>;

/** A PATCH: any field of the create body; nested objects replace the stored ones whole. */
export const UpdateConnectorSchema = ConnectionSettingsSchema.partial()
  .extend({
    name: z.string().min(1).max(200).optional(),
    enabled: z.boolean().optional(),
    password: z.string().min(1).max(1000).optional(),
  })
  .strict();

export type UpdateConnectorInput = z.infer<typeof UpdateConnectorSchema>;

export function portOf(s: Pick<ConnectionSettings, "port" | "security">): number {
  return s.port ?? (s.security === "tls" ? 993 : 143);
}

/** Parses with every problem listed at once; then the cross-field rules zod cannot see alone. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const res = schema.safeParse(value);
  if (!res.success) {
    const problems = res.error.issues.map((i) => `${i.path.length ? i.path.join(".") : "body"}: ${i.message}`);
    throw new DocprocError("invalid_input", `Invalid mail connector settings: ${problems.join("; ")}`);
  }
  return res.data;
}

export function checkConnection(s: ConnectionSettings): ConnectionSettings {
  if (s.security === "none" && !isLoopbackHost(s.host)) {
    throw new DocprocError(
      "invalid_input",
      `Invalid mail connector settings: security: "none" (plain IMAP) is only allowed for a loopback host, not ${s.host}; use "tls" or "starttls"`,
    );
  }
  if (s.after_import.action === "move" && s.after_import.folder === s.folder) {
    throw new DocprocError(
      "invalid_input",
      "Invalid mail connector settings: after_import.folder must differ from folder",
    );
  }
  return s;
}
