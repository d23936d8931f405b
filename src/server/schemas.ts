/**
 * Request shapes, as zod schemas: requests are validated with them, and the OpenAPI document is generated from them
 * (z.toJSONSchema), so the two cannot drift apart. Response shapes are in schemas-responses.ts.
 */
import { z } from "zod";
import { SPLIT_POLICIES } from "../core/model";

/** Named schemas: they become components/schemas of the OpenAPI document. */
export const apiRegistry = z.registry<{ id: string; description?: string }>();

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const DATASETS = ["production", "playground", "memory"] as const;
export const STATUSES = ["created", "queued", "processing", "awaiting_input", "completed", "failed"] as const;

export const SplitPolicySchema = z.enum(SPLIT_POLICIES as [string, ...string[]], {
  error: () => `invalid split policy; allowed values: ${SPLIT_POLICIES.join(", ")}`,
});

export const DatasetIdSchema = z
  .string()
  .refine((v) => (DATASETS as readonly string[]).includes(v) || UUID.test(v), {
    message: `must be ${DATASETS.join(", ")} or an evaluation dataset UUID`,
  })
  .meta({ description: "production (default), playground, memory, or an evaluation dataset UUID" });

const Metadata = z.record(z.string(), z.unknown()).meta({ description: "Client key-value data" });
const CorrelationId = z.string().max(500).nullable();
const Priority = z.number().int().min(-1000).max(1000);
const PageLimit = z.number().int().min(1).nullable();
const Detail = z.object({ detail: z.string() });

export const ErrorSchema = Detail.register(apiRegistry, { id: "Error" });
export const QueueFullSchema = z
  .object({
    error: z.literal("queue_full"),
    message: z.string(),
    current_depth: z.number().int(),
    max_depth: z.number().int(),
    detail: z.string(),
  })
  .register(apiRegistry, { id: "QueueFull" });

export const SettingsErrorSchema = z
  .object({
    detail: z.string(),
    problems: z
      .array(z.string())
      .optional()
      .meta({ description: "Invalid project settings: one entry per problem, with its path" }),
  })
  .register(apiRegistry, { id: "ValidationError" });

export const AsyncRateLimitSchema = z
  .object({
    error: z.literal("rate_limit_exceeded"),
    message: z.string(),
    detail: z.string(),
    retry_after: z.number().int(),
    limit: z.number().int(),
    window: z.string(),
    reset_at: z.string(),
  })
  .register(apiRegistry, { id: "AsyncRateLimited", description: "Task submission limit exceeded (docs/auth.md)" });

export const CreateProjectBody = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().max(5000).default(""),
    settings: z.record(z.string(), z.unknown()).optional().meta({
      description:
        "Project settings (docs/project-settings.md); the embedded default when absent; may be partial (top-level keys merged over the default project)",
    }),
  })
  .register(apiRegistry, { id: "CreateProject" });

export const UpdateProjectBody = z
  .object({
    name: z.string().min(1).max(200).optional(),
    description: z.string().max(5000).optional(),
    settings: z.record(z.string(), z.unknown()).optional().meta({
      description:
        "Replaces the settings; may be partial (top-level keys merged over the default project, not over the current settings)",
    }),
  })
  .refine((v) => v.name !== undefined || v.description !== undefined || v.settings !== undefined, {
    message: "give at least one of name, description, settings",
  })
  .register(apiRegistry, { id: "UpdateProject" });

/** `POST /transactions/{id}/rerun`: the workflow step to run again from (docs/api.md, "Re-running"). */
export const RerunBody = z
  .object({
    from_step: z.enum(["split", "classify", "extract", "validate", "review", "export", "notify"]).default("split"),
  })
  .register(apiRegistry, { id: "RerunTransaction" });

export const CreateTransactionBody = z
  .object({
    dataset_id: DatasetIdSchema.default("production"),
    correlation_id: CorrelationId.optional(),
    metadata: Metadata.default({}),
    page_limit: PageLimit.optional(),
    priority: Priority.default(0),
  })
  .register(apiRegistry, { id: "CreateTransaction" });

export const ProcessBody = z
  .object({
    source_files: z
      .array(
        z.object({
          filename: z.string().min(1).max(255),
          base64_data: z.string(),
          split_policy: SplitPolicySchema.default("inherit"),
          password: z.string().min(1).max(1024).optional().meta({
            description:
              "Password of an encrypted PDF; used for processing, wiped when the transaction ends, never returned",
          }),
        }),
      )
      .optional(),
    documentText: z.string().optional().meta({ description: "Plain text; pages separated by form feed (\\f)" }),
    ocrData: z.record(z.string(), z.unknown()).optional().meta({ description: "Supplied OCR data (docs/inputs.md)" }),
    correlation_id: CorrelationId.optional(),
    metadata: Metadata.default({}),
    priority: Priority.default(0),
    page_limit: PageLimit.optional(),
  })
  .refine((v) => (v.source_files?.length ?? 0) > 0 || !!v.documentText || v.ocrData !== undefined, {
    message: "give at least one of source_files, documentText, ocrData",
  })
  .register(apiRegistry, { id: "ProcessTransaction" });

export const BatchStatusBody = z
  .object({
    transaction_ids: z
      .array(z.string().min(1))
      .min(1, "give at least one transaction id")
      .max(100, "at most 100 transaction ids per call"),
    fields: z.string().optional(),
  })
  .register(apiRegistry, { id: "BatchStatusRequest" });

/** `PUT …/settings`: the settings object itself (validated by the settings loader, so any object here). */
export const SettingsBody = z.record(z.string(), z.unknown()).meta({
  description:
    "Project settings (docs/project-settings.md); may be partial: the given top-level keys replace those of the default project",
  examples: [{ locale: "en-US", review_thresholds: { classification: 0.6, field: 0.7, split: 0.7 } }],
});

/** `POST /transactions/{id}/source-files` (multipart/form-data): one property per form field. */
export const UploadForm = z.object({
  // format: binary as well: Swagger UI (the explorer) offers a file picker for it, not for contentMediaType alone.
  files: z.array(z.string().meta({ contentMediaType: "application/octet-stream", format: "binary" })),
  upload_tokens: z
    .array(z.string())
    .optional()
    .meta({ description: "Idempotency token per file, aligned by position" }),
  split_policies: z.array(z.enum(SPLIT_POLICIES as [string, ...string[]])).optional(),
  passwords: z
    .array(z.string().meta({ format: "password" }))
    .optional()
    .meta({
      description:
        "Password of an encrypted PDF per file, aligned by position (empty for none); used for processing, wiped when the transaction ends, never returned",
    }),
});
