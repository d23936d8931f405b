/**
 * Response shapes, as zod schemas: named ones become components/schemas of the OpenAPI document (openapi.ts). The
 * request shapes, which also validate requests, are in schemas.ts.
 */
import { z } from "zod";
import { apiRegistry, STATUSES } from "./schemas";

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
