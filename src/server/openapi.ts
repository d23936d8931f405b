/**
 * The OpenAPI 3.1 document, generated from the app's route table: every route that its module documented
 * (route-doc.ts: documentRoutes, matched by bindDocs) becomes an operation, with its method, path and path
 * parameters taken from the route and its bodies, query parameters and responses from the zod schemas of its doc
 * (z.toJSONSchema; named schemas in schemas.ts become components). Nothing here lists routes: a new route without a
 * doc is missing from the document, and test/server/openapi.test.ts fails on it.
 */
import { z } from "zod";
import pkg from "../../package.json" with { type: "json" };
import { accessRuleOf } from "../auth/permissions";
import * as S from "./schemas";
import { addExamples, webhooksSection } from "./openapi-extras";
import { bindDocs, type AppRoute, type RouteDoc } from "./route-doc";

export type { AppRoute };

/** The tags in the order the explorer shows them (an operation's tag not listed here comes after these). */
const TAG_ORDER = [
  "Projects",
  "Transactions",
  "Status",
  "Results",
  "Review",
  "Capture",
  "Webhooks",
  "Mail",
  "Datasets",
  "Memory",
  "Auth",
  "Admin",
  "Service",
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
  if ("multipart" in body) {
    // A list field is sent as one form part per value (the server reads them aligned with the files), and says
    // so, so that clients and the explorer repeat the field instead of joining the values with commas.
    const isList = (f: unknown) =>
      f instanceof z.ZodArray || (f instanceof z.ZodOptional && f.unwrap() instanceof z.ZodArray);
    const lists = Object.entries(body.multipart.shape).filter(([, f]) => isList(f));
    const encoding = Object.fromEntries(lists.map(([name]) => [name, { style: "form", explode: true }]));
    return { required: true, content: { "multipart/form-data": { schema: schemaOf(body.multipart), encoding } } };
  }
  return { required: true, content: { "application/json": { schema: schemaOf(body) } } };
}

/** Path parameters from the route's own path (`:name`; a trailing `*` is named by the doc's last `{name}`). */
function pathParameters(route: AppRoute, doc: RouteDoc) {
  const names = [...route.path.matchAll(/:([^/]+)/g)].map((m) => m[1]!);
  if (route.path.endsWith("*")) names.push(/\{([^}]+)\}$/.exec(doc.path)![1]!);
  return names.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } }));
}

/** Query parameters from the doc's zod object: name, required, description (from `.meta()`), type. */
function queryParameters(query: RouteDoc["query"]) {
  if (!query) return [];
  const json = z.toJSONSchema(query, { io: "input", unrepresentable: "any" }) as {
    properties?: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(json.properties ?? {}).map(([name, p]) => ({
    name,
    in: "query",
    required: json.required?.includes(name) ?? false,
    description: p.description,
    schema: { type: p.type, ...(p.enum ? { enum: p.enum } : {}) },
  }));
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
  if (r.body && !("multipart" in r.body))
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

function operationOf(route: AppRoute, r: RouteDoc) {
  const parameters = [...pathParameters(route, r), ...queryParameters(r.query)];
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
  return {
    summary: r.summary,
    tags: [r.tag],
    operationId: `${r.method}_${r.path
      .replace(/[{}]/g, "")
      .replace(/[^A-Za-z0-9]+/g, "_")
      .replace(/^_|_$/g, "")}`,
    ...(r.security ? { security: r.security } : r.public ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(r.body ? { requestBody: bodyOf(r.body) } : {}),
    responses: { ...sharedResponses(r), ...responses },
  };
}

export function openApiDocument(routes: readonly AppRoute[], docs?: readonly RouteDoc[]): Record<string, unknown> {
  const documented = bindDocs(routes, docs).bound;
  const rank = (tag: string) => (TAG_ORDER.includes(tag) ? TAG_ORDER.indexOf(tag) : TAG_ORDER.length);
  // Grouped by tag (stable within a tag: the order the routes were defined in), as the explorer lists them.
  documented.sort((a, b) => rank(a.doc.tag) - rank(b.doc.tag));
  const paths: Record<string, Record<string, unknown>> = {};
  for (const { route, doc } of documented) (paths[doc.path] ??= {})[doc.method] = operationOf(route, doc);
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
