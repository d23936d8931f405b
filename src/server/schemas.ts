/**
 * Request and response shapes, as zod schemas: requests are validated with them, and the OpenAPI document is
 * generated from them (z.toJSONSchema), so the two cannot drift apart.
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

export const ProjectSchema = z
  .object({
    project_id: z.string(),
    tenant_id: z.string(),
    name: z.string(),
    description: z.string(),
    project_version: z.number().int(),
    settings: z.record(z.string(), z.unknown()),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .register(apiRegistry, { id: "Project" });

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

export const CreateTransactionResponse = z
  .object({
    transaction_id: z.string(),
    tenant_id: z.string(),
    project_id: z.string(),
    status: z.literal("created"),
    correlation_id: z.string().nullable(),
    created_at: z.string(),
    files_url: z.string(),
    start_url: z.string(),
  })
  .register(apiRegistry, { id: "CreatedTransaction" });

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

export const ProcessResponse = z
  .object({
    transaction_id: z.string(),
    status: z.literal("processing"),
    estimated_completion_seconds: z.number().int(),
    status_url: z.string(),
    poll_url: z.string(),
  })
  .register(apiRegistry, { id: "ProcessStarted" });

export const StartResponse = z
  .object({
    transaction_id: z.string(),
    status: z.literal("processing"),
    message: z.string(),
    status_url: z.string(),
    poll_url: z.string(),
  })
  .register(apiRegistry, { id: "StartedTransaction" });

export const RerunResponse = z
  .object({
    transaction_id: z.string(),
    status: z.literal("queued"),
    from_step: z.string(),
    message: z.string(),
    status_url: z.string(),
    poll_url: z.string(),
  })
  .register(apiRegistry, { id: "RerunQueued" });

export const UploadedFileSchema = z
  .object({
    file_name: z.string(),
    filename: z.string(),
    content_type: z.string(),
    index: z.number().int(),
    size: z.number().int(),
    uploaded_at: z.string(),
    split_policy: z.string(),
    upload_token: z.string().nullable(),
    has_password: z
      .boolean()
      .meta({ description: "A password was given for this file (the password itself is never returned)" }),
    duplicate: z.boolean().meta({ description: "true when the upload token was already recorded (nothing stored)" }),
  })
  .register(apiRegistry, { id: "UploadedFile" });

export const UploadResponse = z
  .object({
    transaction_id: z.string(),
    total_files: z.number().int(),
    uploaded_count: z.number().int(),
    failed_count: z.number().int(),
    uploaded_files: z.array(UploadedFileSchema),
    failed_files: z.array(z.object({ filename: z.string(), index: z.number().int().nullable(), error: z.string() })),
  })
  .register(apiRegistry, { id: "UploadResult" });

export const TransactionSchema = z
  .object({
    transaction_id: z.string(),
    tenant_id: z.string(),
    project_id: z.string(),
    status: z.enum(STATUSES),
    correlation_id: z.string().nullable(),
    metadata: z.record(z.string(), z.unknown()),
    created_at: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    processing_time_seconds: z.number().nullable(),
    error_message: z.string().optional(),
    review_metadata: z.record(z.string(), z.unknown()).optional(),
    dataset_id: z.string(),
    page_limit: z.number().int().nullable(),
    priority: z.number().int(),
    request: z
      .record(z.string(), z.unknown())
      .optional()
      .meta({ description: "Original request (include_request=true, completed only)" }),
  })
  .partial()
  .register(apiRegistry, { id: "Transaction", description: "All fields, or those named by `fields`" });

export const BatchStatusBody = z
  .object({
    transaction_ids: z
      .array(z.string().min(1))
      .min(1, "give at least one transaction id")
      .max(100, "at most 100 transaction ids per call"),
    fields: z.string().optional(),
  })
  .register(apiRegistry, { id: "BatchStatusRequest" });

export const BatchStatusResponse = z
  .object({ statuses: z.record(z.string(), TransactionSchema) })
  .register(apiRegistry, { id: "BatchStatus" });

export const ListResponse = z
  .object({
    items: z.array(TransactionSchema),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .register(apiRegistry, { id: "TransactionList" });

const ManifestFileSchema = z.object({
  filename: z.string(),
  path: z.string(),
  size_bytes: z.number().int(),
  document_ids: z.array(z.string()),
  created_at: z.string(),
});

export const ManifestSchema = z
  .object({
    transaction_id: z.string(),
    profiles: z.record(
      z.string(),
      z.object({
        profile_id: z.string(),
        profile_name: z.string(),
        output_format: z.string(),
        scope_mode: z.string(),
        files: z.array(ManifestFileSchema),
        error: z.string().optional(),
        status: z.string().optional(),
      }),
    ),
    total_files: z.number().int(),
    total_size_bytes: z.number().int(),
  })
  .register(apiRegistry, { id: "ExportManifest" });

export const DocumentsResponse = z
  .object({ transaction_id: z.string(), status: z.string(), documents: z.array(z.record(z.string(), z.unknown())) })
  .register(apiRegistry, { id: "Documents", description: "documents[] exactly as in the JSON results file" });

export const HealthResponse = z
  .object({
    status: z.enum(["ok", "degraded"]),
    version: z.string(),
    database: z.object({ status: z.enum(["ok", "error"]), error: z.string().optional() }),
    queue: z.object({
      depth: z.number().int(),
      max_depth: z.number().int(),
      running: z.number().int(),
      workers: z.number().int(),
    }),
    ocr: z.object({
      status: z.string(),
      engine: z.string().optional(),
      error: z.string().optional(),
      engines: z.array(z.string()).optional(),
    }),
  })
  .register(apiRegistry, { id: "Health" });

export const ProjectListResponse = z
  .object({ items: z.array(ProjectSchema) })
  .register(apiRegistry, { id: "ProjectList" });

export const SourceFileListResponse = z
  .object({
    transaction_id: z.string(),
    total_files: z.number().int(),
    files: z.array(UploadedFileSchema.omit({ duplicate: true })),
  })
  .register(apiRegistry, { id: "SourceFileList" });
