/**
 * What the generated OpenAPI document gains for people reading it (docs/quickstart.md, the explorer):
 * - an `example` for every JSON request body and response: hand-written for the everyday operations (EXAMPLES),
 *   sampled from the schema for the rest (sampleOf), so no operation is left without one;
 * - the `webhooks:` section (OpenAPI 3.1) for the two events, with example bodies built by the very functions that
 *   build real payloads (core/notify/payload.ts), so the documented body cannot drift from the sent one.
 */
import { buildFailedPayload, buildReachedPayload, FAILED_EVENT, REACHED_EVENT } from "../core/notify/payload";

type Json = Record<string, unknown>;

const TX = "7f0c5d0e-2b1a-4c3d-9e8f-0a1b2c3d4e5f";
const AT = "2026-03-01T10:00:00.000Z";
const tx = { tenant_id: "default", project_id: "invoices", transaction_id: TX, transaction_name: null };
const manifest = {
  transaction_id: TX,
  total_files: 2,
  total_size_bytes: 18522,
  profiles: {
    json_default: {
      profile_id: "json_default",
      profile_name: "JSON",
      output_format: "json",
      files: [{ filename: `${TX}_data.json`, size_bytes: 18211 }],
    },
    csv_docs: {
      profile_id: "csv_docs",
      profile_name: "CSV per document",
      output_format: "csv",
      files: [{ filename: "invoices/invoice-1.csv", size_bytes: 311 }],
    },
  },
};
export const REACHED_EXAMPLE = buildReachedPayload({
  transaction: tx,
  manifest,
  eventName: null,
  apiBaseUrl: "https://docproc.example.com",
  occurredAt: new Date(AT),
});
export const FAILED_EXAMPLE = buildFailedPayload({
  transaction: tx,
  error: "corrupt_file: invoice.pdf is not a readable PDF",
  occurredAt: new Date(AT),
});

/** Hand-written examples: `<operationId> <status|request>` → body. */
const EXAMPLES: Record<string, unknown> = {
  "post_tenants_tenant_id_projects request": {
    name: "Invoices",
    description: "Supplier invoices from the shared inbox",
  },
  "post_tenants_tenant_id_projects_project_id_transactions_process request": {
    source_files: [{ filename: "invoice.pdf", base64_data: "JVBERi0xLjcK…", split_policy: "inherit" }],
    correlation_id: "erp-4711",
    metadata: { supplier: "ACME" },
  },
  "post_tenants_tenant_id_projects_project_id_transactions_process 202": {
    transaction_id: TX,
    status: "processing",
    estimated_completion_seconds: 12,
    status_url: `/transactions/${TX}`,
    poll_url: `/transactions/${TX}?timeout=30`,
  },
  "post_tenants_tenant_id_projects_project_id_transactions request": {
    correlation_id: "erp-4711",
    metadata: { supplier: "ACME" },
    priority: 0,
  },
  "post_transactions_batch_status request": { transaction_ids: [TX] },
  "get_transactions_transaction_id_exports 200": {
    ...manifest,
    profiles: Object.fromEntries(Object.entries(manifest.profiles).map(([k, p]) => [k, { ...p, status: "completed" }])),
  },
};

const ERROR_EXAMPLE = { detail: "Not found: transaction 7f0c5d0e-… does not exist" };

/** A plausible value for a JSON schema (components resolved), for operations without a hand-written example. */
export function sampleOf(schema: unknown, components: Json, name = "", depth = 0): unknown {
  if (!schema || typeof schema !== "object" || depth > 6) return null;
  const s = schema as Json;
  if (typeof s.$ref === "string") return sampleOf(components[s.$ref.split("/").pop()!], components, name, depth + 1);
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  if (s.example !== undefined) return s.example;
  if (s.const !== undefined) return s.const;
  if (s.default !== undefined && s.default !== null) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  for (const k of ["oneOf", "anyOf", "allOf"]) {
    const list = s[k] as unknown[] | undefined;
    if (Array.isArray(list)) {
      const pick = list.find((x) => (x as Json).type !== "null") ?? list[0];
      return sampleOf(pick, components, name, depth + 1);
    }
  }
  const type = Array.isArray(s.type) ? (s.type as string[]).find((t) => t !== "null") : (s.type as string | undefined);
  switch (type) {
    case "object": {
      const props = (s.properties ?? {}) as Json;
      const out: Json = {};
      for (const [k, v] of Object.entries(props)) out[k] = sampleOf(v, components, k, depth + 1);
      if (!Object.keys(props).length && s.additionalProperties && typeof s.additionalProperties === "object")
        out.key = sampleOf(s.additionalProperties, components, "", depth + 1);
      return out;
    }
    case "array":
      return [sampleOf(s.items, components, name.replace(/s$/, ""), depth + 1)];
    case "integer":
    case "number":
      // zod's .int() bounds every integer by ±(2^53 − 1): only a real lower bound makes a better example than 0.
      return typeof s.minimum === "number" && s.minimum > Number.MIN_SAFE_INTEGER ? s.minimum : 0;
    case "boolean":
      return false;
    case "string":
      if (s.format === "date-time" || /_at$|^date/.test(name)) return AT;
      if (/transaction_id$/.test(name)) return TX;
      if (/(^|_)id$/.test(name)) return `${name.replace(/_id$/, "")}-1`;
      if (/url$/.test(name)) return `/transactions/${TX}`;
      return name ? `<${name}>` : "string";
    default:
      return null;
  }
}

/** Adds `example` to every JSON request body and response of the document (in place) and returns it. */
export function addExamples(doc: Json): Json {
  const components = ((doc.components as Json | undefined)?.schemas ?? {}) as Json;
  for (const ops of Object.values(doc.paths as Record<string, Json>)) {
    for (const op of Object.values(ops) as Json[]) {
      const id = op.operationId as string;
      const body = ((op.requestBody as Json | undefined)?.content as Json | undefined)?.["application/json"] as
        | Json
        | undefined;
      if (body) body.example ??= EXAMPLES[`${id} request`] ?? sampleOf(body.schema, components);
      for (const [code, resp] of Object.entries((op.responses ?? {}) as Record<string, Json>)) {
        const json = (resp.content as Json | undefined)?.["application/json"] as Json | undefined;
        if (!json) continue;
        const isError = Number(code) >= 400;
        json.example ??=
          EXAMPLES[`${id} ${code}`] ??
          (isError && (json.schema as Json)?.$ref === "#/components/schemas/Error"
            ? ERROR_EXAMPLE
            : sampleOf(json.schema, components));
      }
    }
  }
  return doc;
}

const PAYLOAD_BASE = {
  event: { type: "string" },
  tenant_id: { type: "string" },
  project_id: { type: "string" },
  transaction_id: { type: "string" },
  transaction_name: { type: ["string", "null"], description: "metadata.transaction_name when it is a string" },
  occurred_at: { type: "string", format: "date-time" },
};
const FILE_LINK = {
  type: "object",
  properties: {
    profile_id: { type: "string" },
    profile_name: { type: "string" },
    output_format: { type: "string" },
    filename: { type: "string" },
    size_bytes: { type: "integer" },
    download_url: { type: "string", format: "uri" },
  },
};
const deliveryHeaders = [
  {
    name: "webhook-id",
    in: "header",
    required: true,
    description: "msg_<uuid>; the same for every retry of one delivery (deduplicate on it)",
    schema: { type: "string" },
  },
  {
    name: "webhook-timestamp",
    in: "header",
    required: true,
    description: "Unix seconds of this attempt",
    schema: { type: "integer" },
  },
  {
    name: "webhook-signature",
    in: "header",
    required: false,
    description: "v1,<base64> Standard Webhooks signature (with hmac_secret)",
    schema: { type: "string" },
  },
  {
    name: "X-Service-Signature",
    in: "header",
    required: false,
    description: "sha256=<hex> HMAC-SHA256 of the raw body (with hmac_secret)",
    schema: { type: "string" },
  },
];
const receiverAnswers = {
  "2XX": {
    description:
      "Delivered. Any other answer (or none within timeout_seconds) is retried with backoff (docs/webhooks.md)",
  },
};

/** The OpenAPI 3.1 `webhooks` section: what docproc sends to a Notification step's webhook_url. */
export function webhooksSection(): Json {
  const op = (summary: string, schema: Json, example: unknown) => ({
    post: {
      summary,
      description:
        "Sent to the Notification step's webhook_url (POST, or PUT when configured). Body: compact JSON with keys sorted; verify the signature on the raw bytes (docs/webhooks.md).",
      parameters: deliveryHeaders,
      requestBody: { required: true, content: { "application/json": { schema, example } } },
      responses: receiverAnswers,
    },
  });
  return {
    [REACHED_EVENT]: op(
      "The workflow reached a Notification step (event may be renamed by event_name)",
      {
        type: "object",
        required: [...Object.keys(PAYLOAD_BASE), "exports"],
        properties: {
          ...PAYLOAD_BASE,
          exports: {
            type: "object",
            properties: {
              manifest_url: { type: "string", format: "uri" },
              total_files: { type: "integer" },
              total_size_bytes: { type: "integer" },
              files: { type: "array", items: FILE_LINK },
            },
          },
        },
      },
      REACHED_EXAMPLE,
    ),
    [FAILED_EVENT]: op(
      "The workflow aborted before reaching the Notification step",
      {
        type: "object",
        required: [...Object.keys(PAYLOAD_BASE), "error", "exports"],
        properties: {
          ...PAYLOAD_BASE,
          event: { const: FAILED_EVENT },
          error: { type: "string", maxLength: 2000 },
          exports: { type: "object", maxProperties: 0 },
        },
      },
      FAILED_EXAMPLE,
    ),
  };
}
