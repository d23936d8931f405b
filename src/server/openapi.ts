/**
 * The OpenAPI 3.1 document, generated from the zod schemas in schemas.ts. Every route the app answers MUST have an
 * entry in ROUTES (a test compares this list with the app's routes).
 */
import { z } from "zod";
import pkg from "../../package.json" with { type: "json" };
import { ADMIN_ROUTE_DOCS } from "./routes/admin";
import { AUTH_ROUTE_DOCS } from "./routes/auth";
import { DELIVERY_ROUTE_DOCS } from "./routes/deliveries";
import { CAPTURE_ROUTE_DOCS } from "./routes/capture";
import { REVIEW_ROUTE_DOCS } from "./routes/review";
import { MAIL_ROUTE_DOCS } from "./routes/mail";
import { LEARNING_ROUTE_DOCS } from "./routes/learning";
import { accessRuleOf } from "../auth/permissions";
import * as S from "./schemas";
import { addExamples, webhooksSection } from "./openapi-extras";
import type { RouteDoc, RouteResponseDoc as Resp } from "./route-doc";

const err = (description: string): Resp => ({ description, schema: S.ErrorSchema });
const common = { 401: err("Missing or invalid X-API-Key") };
const notFound = { 404: err("Unknown tenant, project or transaction") };
const bad = { 400: err("Validation failed; detail names the offending fields") };
const badSettings = {
  400: {
    description: "Validation failed; invalid settings list every problem in detail and problems",
    schema: S.SettingsErrorSchema,
  },
};
const tooLarge = { 413: err("Body, file or file count above the configured limits") };
const fieldsQuery = {
  fields: {
    type: "string" as const,
    description: "Comma-separated fields with dot notation, e.g. status,metadata.step_progress",
  },
};

export const ROUTES: RouteDoc[] = [
  {
    method: "post",
    path: "/tenants/{tenant_id}/projects",
    summary: "Create a project",
    tag: "Projects",
    body: S.CreateProjectBody,
    responses: { 201: { description: "Created", schema: S.ProjectSchema }, ...badSettings, ...common },
  },
  {
    method: "get",
    path: "/tenants/{tenant_id}/projects",
    summary: "List projects (extension)",
    tag: "Projects",
    responses: { 200: { description: "Projects", schema: S.ProjectListResponse }, ...common, ...notFound },
  },
  {
    method: "get",
    path: "/tenants/{tenant_id}/projects/{project_id}",
    summary: "Read a project and its settings (extension)",
    tag: "Projects",
    responses: { 200: { description: "Project", schema: S.ProjectSchema }, ...common, ...notFound },
  },
  {
    method: "get",
    path: "/tenants/{tenant_id}/projects/{project_id}/history",
    summary:
      "Changes made to a project's stored settings by an upgrade (settings migrations): items of kind, note, project_version, created_at (extension)",
    tag: "Projects",
    responses: { 200: { description: "History entries, oldest first" }, ...common, ...notFound },
  },
  {
    method: "patch",
    path: "/tenants/{tenant_id}/projects/{project_id}",
    summary:
      "Update name, description or settings (partial settings merge over the default project); increments project_version (extension)",
    tag: "Projects",
    body: S.UpdateProjectBody,
    responses: { 200: { description: "Updated", schema: S.ProjectSchema }, ...badSettings, ...common, ...notFound },
  },
  {
    method: "put",
    path: "/tenants/{tenant_id}/projects/{project_id}/settings",
    summary:
      "Replace the settings (partial settings merge over the default project); increments project_version (extension)",
    tag: "Projects",
    body: "settings",
    responses: { 200: { description: "Updated", schema: S.ProjectSchema }, ...badSettings, ...common, ...notFound },
  },
  {
    method: "post",
    path: "/tenants/{tenant_id}/projects/{project_id}/transactions",
    summary: "Create a transaction (not idempotent)",
    tag: "Transactions",
    body: S.CreateTransactionBody,
    responses: { 201: { description: "Created", schema: S.CreateTransactionResponse }, ...bad, ...common, ...notFound },
  },
  {
    method: "post",
    path: "/tenants/{tenant_id}/projects/{project_id}/transactions/process",
    summary: "Submit files, text or OCR data and start processing in one step",
    tag: "Transactions",
    body: S.ProcessBody,
    responses: {
      202: { description: "Accepted; processing", schema: S.ProcessResponse },
      ...bad,
      ...common,
      ...notFound,
      ...tooLarge,
    },
  },
  {
    method: "post",
    path: "/transactions/{transaction_id}/source-files",
    summary: "Upload source files (multipart)",
    tag: "Transactions",
    body: "multipart",
    query: { file_index: { type: "integer", description: "0-based index of this request's first file" } },
    responses: {
      200: { description: "Upload result", schema: S.UploadResponse },
      400: err(
        "Invalid split policy (lists allowed values), no files, more tokens/policies/passwords than files, malformed multipart, or transaction not in created state",
      ),
      ...common,
      ...notFound,
      ...tooLarge,
      415: err("Not multipart/form-data"),
    },
  },
  {
    method: "get",
    path: "/transactions/{transaction_id}/source-files",
    summary: "List the uploaded source files in index order (extension)",
    tag: "Transactions",
    responses: { 200: { description: "Source files", schema: S.SourceFileListResponse }, ...common, ...notFound },
  },
  {
    method: "post",
    path: "/transactions/{transaction_id}/start",
    summary: "Start processing",
    tag: "Transactions",
    responses: {
      200: { description: "Started", schema: S.StartResponse },
      400: err("Cannot start transaction in <state> state, or no files"),
      ...common,
      ...notFound,
    },
  },
  {
    method: "post",
    path: "/transactions/{transaction_id}/rerun",
    summary:
      "Re-run a completed or failed transaction from a workflow step with its stored pages (extension; no conversion or OCR again)",
    tag: "Transactions",
    body: S.RerunBody,
    responses: {
      202: { description: "Queued; the workflow runs again from from_step", schema: S.RerunResponse },
      400: err("Cannot rerun transaction in <state> state, no stored pages, or from_step not in the workflow"),
      ...common,
      ...notFound,
    },
  },
  {
    method: "get",
    path: "/transactions/{transaction_id}",
    summary: "Get a transaction (status, not results); long poll with timeout",
    tag: "Status",
    query: {
      timeout: { type: "integer", description: "Long poll: hold up to N seconds, return at once on a status change" },
      ...fieldsQuery,
      include_request: { type: "boolean", description: "Include the original request (completed transactions)" },
    },
    responses: { 200: { description: "Transaction", schema: S.TransactionSchema }, ...bad, ...common, ...notFound },
  },
  {
    method: "post",
    path: "/transactions/batch-status",
    summary: "Status of up to 100 transactions",
    tag: "Status",
    body: S.BatchStatusBody,
    responses: {
      200: { description: "Statuses keyed by transaction id", schema: S.BatchStatusResponse },
      ...bad,
      ...common,
    },
  },
  {
    method: "get",
    path: "/transactions",
    summary: "List transactions",
    tag: "Status",
    query: {
      dataset_id: { type: "string", description: "Default production" },
      status: { type: "string", description: "One status or several, comma-separated" },
      limit: { type: "integer", description: "Default 100, at most 1000" },
      offset: { type: "integer", description: "Default 0" },
      search: {
        type: "string",
        description: "Free text over transaction id, correlation id, file names, document types, index fields",
      },
      sort_by: {
        type: "string",
        description:
          "created_at, status, processing_time_seconds, transaction_id, priority, completed_at, or idx_<name>",
      },
      sort_order: { type: "string", description: "asc or desc (default)" },
      step: { type: "string", description: "Current workflow step id" },
      date_from: { type: "string", description: "Inclusive lower bound on created_at (ISO 8601)" },
      date_to: {
        type: "string",
        description: "Inclusive upper bound on created_at; a date-only value covers the whole day",
      },
      index_filter: { type: "string", description: 'JSON object: {"<index field>": ["value", ...]}' },
      filter_expression: {
        type: "string",
        description: "JSON expression tree (docs/api.md); overrides status, step, dates and index_filter",
      },
      ...fieldsQuery,
    },
    responses: { 200: { description: "Page of transactions", schema: S.ListResponse }, ...bad, ...common },
  },
  {
    method: "get",
    path: "/transactions/{transaction_id}/exports",
    summary: "Export manifest",
    tag: "Results",
    responses: { 200: { description: "Manifest", schema: S.ManifestSchema }, ...common, ...notFound },
  },
  {
    method: "get",
    path: "/transactions/{transaction_id}/exports/download/{filename}",
    summary: "Download an export file (filename may contain subfolders)",
    tag: "Results",
    query: { inline: { type: "boolean", description: "true: Content-Disposition inline; default attachment" } },
    responses: {
      200: { description: "File bytes; Content-Type by extension", content: "application/octet-stream" },
      ...common,
      ...notFound,
    },
  },
  {
    method: "get",
    path: "/transactions/{transaction_id}/documents",
    summary: "Documents with classification and fields (as in the results file)",
    tag: "Results",
    responses: { 200: { description: "Documents", schema: S.DocumentsResponse }, ...common, ...notFound },
  },
  {
    method: "get",
    path: "/health",
    summary: "Health: database, queue depth, OCR readiness",
    tag: "Service",
    public: true,
    responses: {
      200: { description: "Healthy or degraded", schema: S.HealthResponse },
      503: { description: "Database unavailable", schema: S.HealthResponse },
    },
  },
  {
    method: "get",
    path: "/api-docs",
    summary: "API explorer (HTML, served locally)",
    tag: "Service",
    public: true,
    responses: { 200: { description: "HTML", content: "text/html" } },
  },
  {
    method: "get",
    path: "/api-docs/openapi.json",
    summary: "This OpenAPI document",
    tag: "Service",
    public: true,
    responses: { 200: { description: "OpenAPI 3.1", content: "application/json" } },
  },
  {
    method: "get",
    path: "/api-docs/explorer.js",
    summary: "Explorer script",
    tag: "Service",
    public: true,
    responses: { 200: { description: "JavaScript", content: "text/javascript" } },
  },
  {
    method: "get",
    path: "/api-docs/swagger-ui-bundle.js",
    summary: "Swagger UI (swagger-ui-dist), served locally",
    tag: "Service",
    public: true,
    responses: { 200: { description: "JavaScript", content: "text/javascript" } },
  },
  {
    method: "get",
    path: "/api-docs/swagger-ui.css",
    summary: "Swagger UI's style sheet, served locally",
    tag: "Service",
    public: true,
    responses: { 200: { description: "CSS", content: "text/css" } },
  },
  {
    method: "get",
    path: "/docs",
    summary: "API reference (HTML of docs/api.md)",
    tag: "Service",
    public: true,
    responses: { 200: { description: "HTML", content: "text/html" } },
  },
  {
    method: "get",
    path: "/",
    summary: "Start page: version and links (HTML; JSON with Accept: application/json)",
    tag: "Service",
    public: true,
    responses: { 200: { description: "HTML", content: "text/html" } },
  },
  {
    method: "get",
    path: "/metrics",
    summary: "Prometheus metrics of this process (text format; docs/operations.md)",
    tag: "Service",
    public: true,
    security: [{ metricsToken: [] }, { apiKey: [] }, { adminKey: [] }],
    responses: {
      200: { description: "Prometheus text exposition format 0.0.4", content: "text/plain" },
      401: err("Neither the admin key nor the metrics token"),
    },
  },
  ...DELIVERY_ROUTE_DOCS,
  ...ADMIN_ROUTE_DOCS,
  ...AUTH_ROUTE_DOCS,
  ...CAPTURE_ROUTE_DOCS,
  ...REVIEW_ROUTE_DOCS,
  ...MAIL_ROUTE_DOCS,
  ...LEARNING_ROUTE_DOCS,
];

/** A named schema becomes a $ref into components; anything else is inlined. */
function schemaOf(s: z.ZodType): Record<string, unknown> {
  const meta = S.apiRegistry.get(s);
  if (meta) return { $ref: `#/components/schemas/${meta.id}` };
  return strip(
    z.toJSONSchema(s, { target: "draft-2020-12", io: "input", unrepresentable: "any" }) as Record<string, unknown>,
  );
}

function strip(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _s, $id: _i, ...rest } = schema;
  return rest;
}

function components(): Record<string, unknown> {
  const out = z.toJSONSchema(S.apiRegistry, {
    uri: (id) => `#/components/schemas/${id}`,
    target: "draft-2020-12",
    io: "input",
    unrepresentable: "any",
  });
  return Object.fromEntries(
    Object.entries(out.schemas).map(([id, sch]) => [id, strip(sch as Record<string, unknown>)]),
  );
}

function bodyOf(body: RouteDoc["body"]) {
  if (!body) return undefined;
  if (body === "multipart") {
    return {
      required: true,
      content: {
        "multipart/form-data": {
          schema: {
            type: "object",
            required: ["files"],
            properties: {
              files: { type: "array", items: { type: "string", contentMediaType: "application/octet-stream" } },
              upload_tokens: {
                type: "array",
                items: { type: "string" },
                description: "Idempotency token per file, aligned by position",
              },
              split_policies: {
                type: "array",
                items: { type: "string", enum: ["inherit", "single_document", "self_contained"] },
              },
              passwords: {
                type: "array",
                items: { type: "string" },
                description:
                  "Password of an encrypted PDF per file, aligned by position (empty for none); used for processing, wiped when the transaction ends, never returned",
              },
            },
          },
        },
      },
    };
  }
  if (body === "settings")
    return {
      required: true,
      content: {
        "application/json": {
          schema: {
            type: "object",
            description:
              "Project settings (docs/project-settings.md); may be partial: the given top-level keys replace those of the default project",
          },
        },
      },
    };
  return { required: true, content: { "application/json": { schema: schemaOf(body) } } };
}

const ref = (s: z.ZodType) => schemaOf(s);
const rateHeaders = {
  "Retry-After": { description: "Seconds to wait", schema: { type: "integer" } },
  "X-RateLimit-Limit": { description: "Requests allowed in the window", schema: { type: "integer" } },
  "X-RateLimit-Remaining": { description: "Requests left in the window", schema: { type: "integer" } },
  "X-RateLimit-Reset": { description: "Unix time the window resets", schema: { type: "integer" } },
  "X-RateLimit-Window": { description: "Window length in seconds", schema: { type: "integer" } },
};

/**
 * Answers every credentialed route can give besides its own (derived from the access rules, so they cannot
 * drift): 403 naming the permission, the 429s of the rate limits (task submissions also the async limit and a full
 * queue), and 415 for a body that is not JSON.
 */
function sharedResponses(r: RouteDoc): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (r.body && r.body !== "multipart")
    out[415] = {
      description: "Body is not JSON (Content-Type: application/json)",
      content: { "application/json": { schema: ref(S.ErrorSchema) } },
    };
  if (r.public) return out;
  const rule = accessRuleOf(r.method.toUpperCase(), r.path.replace(/\{(\w+)\}/g, "$1"));
  if (rule.kind === "admin") return out;
  if (rule.permission) {
    out[403] = {
      description: `Missing permission: ${rule.permission}${rule.submitsWork ? " (or split/classify/extract for the steps the project's workflow runs)" : ""}`,
      content: { "application/json": { schema: ref(S.ErrorSchema) } },
    };
  }
  const limits = rule.submitsWork
    ? [ref(S.ErrorSchema), ref(S.AsyncRateLimitSchema), ref(S.QueueFullSchema)]
    : [ref(S.ErrorSchema)];
  out[429] = {
    description: rule.submitsWork
      ? "Rate limit exceeded (requests: detail; task submissions: rate_limit_exceeded body) or queue full (queue_full body, Retry-After: 30)"
      : "Rate limit exceeded: detail says the limit and the seconds to wait",
    headers: rateHeaders,
    content: { "application/json": { schema: limits.length === 1 ? limits[0] : { oneOf: limits } } },
  };
  return out;
}

export function openApiDocument(): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of ROUTES) {
    const params = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const query = Object.entries(r.query ?? {}).map(([name, q]) => ({
      name,
      in: "query",
      required: false,
      description: q.description,
      schema: { type: q.type },
    }));
    const responses = Object.fromEntries(
      Object.entries(r.responses).map(([code, resp]) => [
        code,
        {
          description: resp.description,
          ...(resp.schema
            ? { content: { "application/json": { schema: schemaOf(resp.schema) } } }
            : resp.content
              ? { content: { [resp.content]: {} } }
              : {}),
        },
      ]),
    );
    (paths[r.path] ??= {})[r.method] = {
      summary: r.summary,
      tags: [r.tag],
      operationId: `${r.method}_${r.path
        .replace(/[{}]/g, "")
        .replace(/[^A-Za-z0-9]+/g, "_")
        .replace(/^_|_$/g, "")}`,
      ...(r.security ? { security: r.security } : r.public ? { security: [] } : {}),
      ...(params.length + query.length ? { parameters: [...params, ...query] } : {}),
      ...(r.body ? { requestBody: bodyOf(r.body) } : {}),
      responses: { ...sharedResponses(r), ...responses },
    };
  }
  return addExamples({
    openapi: "3.1.0",
    info: {
      title: "docproc API",
      version: pkg.version,
      description: "Document processing: submit, track, and download export files. See /docs.",
    },
    servers: [{ url: "/" }],
    components: {
      schemas: components(),
      securitySchemes: {
        apiKey: {
          type: "apiKey",
          in: "header",
          name: "X-API-Key",
          description: "A client's API key, or the admin key (docs/auth.md)",
        },
        adminKey: { type: "apiKey", in: "header", name: "X-Admin-Key", description: "The admin key (ADMIN_API_KEY)" },
        sessionToken: {
          type: "apiKey",
          in: "header",
          name: "X-Session-Token",
          description: "A session from POST /auth/login",
        },
        metricsToken: {
          type: "http",
          scheme: "bearer",
          description: "DOCPROC_METRICS_TOKEN (GET /metrics only), or the admin key",
        },
      },
    },
    security: [{ apiKey: [] }, { adminKey: [] }, { sessionToken: [] }],
    paths,
    webhooks: webhooksSection(),
  });
}
