/**
 * Notification activity configuration (spec "Notification activity configuration").
 *
 * A project workflow MAY hold any number of Notification activities; each is validated with this schema, which
 * carries every field and default of the spec table. Unknown keys are rejected so a typo such as
 * `retry_max_attempt` is reported instead of silently ignored.
 */
import { z } from "zod";
import { DocprocError } from "../errors.ts";

/** Headers docproc sets itself; a custom header MUST NOT replace them (the signature would no longer hold). */
export const RESERVED_HEADER_NAMES: readonly string[] = [
  "content-type",
  "content-length",
  "host",
  "transfer-encoding",
  "connection",
  "x-service-signature",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
];

export const NOTIFICATION_EVENTS = ["reached", "failed"] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

const httpUrl = z.string().min(1).refine(isHttpUrl, { message: "must be an absolute http or https URL" });

const customHeaders = z.record(z.string(), z.string()).superRefine((headers, ctx) => {
  for (const [name, value] of Object.entries(headers)) {
    if (!HEADER_NAME.test(name))
      ctx.addIssue({ code: "custom", message: `invalid header name "${name}"`, path: [name] });
    else if (RESERVED_HEADER_NAMES.includes(name.toLowerCase()))
      ctx.addIssue({
        code: "custom",
        message: `header "${name}" is set by docproc and cannot be overridden`,
        path: [name],
      });
    if (/[\r\n\0]/.test(value))
      ctx.addIssue({ code: "custom", message: `header "${name}" has a control character`, path: [name] });
  }
});

export const NotificationActivitySchema = z.strictObject({
  /** Required. Checked again before every delivery by the SSRF guard (must reach a public host). */
  webhook_url: httpUrl,
  /** Which triggers fire: `reached` (workflow reaches the node) and/or `failed` (workflow aborts before it). */
  events: z.array(z.enum(NOTIFICATION_EVENTS)).default(["reached", "failed"]),
  /** Overrides the `event` value of the success payload (default `transaction.step_reached`). */
  event_name: z.string().min(1).max(200).nullable().default(null),
  http_method: z.enum(["POST", "PUT"]).default("POST"),
  custom_headers: customHeaders.default({}),
  /** When set, the body is signed (X-Service-Signature and Standard Webhooks headers). */
  hmac_secret: z.string().min(1).nullable().default(null),
  /** Per attempt. */
  timeout_seconds: z.number().positive().max(300).default(15),
  /** Total attempts; 1 means no retry. */
  retry_max_attempts: z.number().int().min(1).max(20).default(3),
  /** Base delay before the second attempt; doubles for each further attempt. */
  retry_backoff_seconds: z.number().min(0).max(3600).default(2.0),
  /** Base for absolute download links; null means the deployment's public URL. */
  api_base_url: httpUrl.nullable().default(null),
  /** When true, a delivery that finally fails fails the workflow step and the transaction. */
  fail_workflow_on_error: z.boolean().default(false),
});

/** A validated activity with every default filled in. */
export type NotificationActivity = z.output<typeof NotificationActivitySchema>;
/** What a project file may write (defaults optional). */
export type NotificationActivityInput = z.input<typeof NotificationActivitySchema>;

/** Parses one activity; MUST throw `DocprocError("invalid_settings")` listing every problem. */
export function parseNotificationActivity(raw: unknown): NotificationActivity {
  const parsed = NotificationActivitySchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `${i.path.map(String).join(".") || "(activity)"}: ${i.message}`);
  throw new DocprocError("invalid_settings", `invalid notification activity: ${problems.join("; ")}`, {
    stage: "notify",
    details: { problems },
  });
}
