/**
 * How a route describes itself for the OpenAPI document. Each route module lists its routes' docs right after the
 * routes and registers them (documentRoutes). server/openapi.ts builds the document from the app's route table,
 * each route matched with its doc (bindDocs): methods, paths and path parameters come from the routes themselves,
 * request bodies, query parameters and responses from the zod schemas a doc names. A route without a doc, or a doc
 * without a route, is reported by bindDocs (test/server/openapi.test.ts fails on either).
 */
import { z } from "zod";
import { ErrorSchema, SettingsErrorSchema } from "./schemas";

export interface RouteResponseDoc {
  description: string;
  schema?: z.ZodType;
  content?: string;
}

export interface RouteDoc {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** The route's path in OpenAPI form: `{name}` for Elysia's `:name`, and for a trailing `*` the name it is given. */
  path: string;
  summary: string;
  tag: string;
  public?: boolean;
  /** Overrides the document's security (a public route with its own credential, e.g. /metrics). */
  security?: Array<Record<string, string[]>>;
  /** A JSON body (zod), or a multipart form described by a zod object (one property per form field). */
  body?: z.ZodType | { multipart: z.ZodObject };
  /** Query parameters: one optional property per parameter, its `description` from `.meta()`. */
  query?: z.ZodObject;
  responses: Record<number, RouteResponseDoc>;
}

/** Shared answers, for the route modules' docs. */
export const err = (description: string): RouteResponseDoc => ({ description, schema: ErrorSchema });
export const common = { 401: err("Missing or invalid X-API-Key") };
export const notFound = { 404: err("Unknown tenant, project or transaction") };
export const bad = { 400: err("Validation failed; detail names the offending fields") };
export const badSettings = {
  400: {
    description: "Validation failed; invalid settings list every problem in detail and problems",
    schema: SettingsErrorSchema,
  },
};
export const tooLarge = { 413: err("Body, file or file count above the configured limits") };

/** A query parameter of the given type, with its description. */
export const q = {
  string: (description: string) => z.string().optional().meta({ description }),
  integer: (description: string) => z.number().int().optional().meta({ description }),
  boolean: (description: string) => z.boolean().optional().meta({ description }),
};
export const FieldsQuery = {
  fields: q.string("Comma-separated fields with dot notation, e.g. status,metadata.step_progress"),
};

/** `/a/:id/b/*` → a key that ignores parameter names: `GET /a/{}/b/{}`; OpenAPI paths give the same key. */
const keyOf = (method: string, path: string) => `${method.toUpperCase()} ${path.replace(/:[^/]+|\{[^}]+\}|\*/g, "{}")}`;

/** A route as Elysia lists it (`app.routes`). */
export interface AppRoute {
  method: string;
  path: string;
}

/** Every route module's docs, registered when the module loads (documentRoutes). */
const REGISTERED: RouteDoc[] = [];

/** Registers a route module's docs: called once, at the module's top level, right after the docs it lists. */
export function documentRoutes(docs: readonly RouteDoc[]): void {
  for (const doc of docs) REGISTERED.push(doc);
}

export interface BoundDocs {
  /** Each documented route with its doc, in the app's route order. */
  bound: Array<{ route: AppRoute; doc: RouteDoc }>;
  /** Routes without a doc (`GET /x/:id`): missing from the document. */
  undocumented: string[];
  /** Docs that name no route of the app, or name a path parameter unlike the route. */
  unmatched: string[];
}

/**
 * Matches the app's routes with the docs (by method and path, parameter names aside), and checks that a doc names
 * the route's path parameters as the route does (a trailing `*` is named by the doc's last `{name}`).
 */
export function bindDocs(routes: readonly AppRoute[], docs: readonly RouteDoc[] = REGISTERED): BoundDocs {
  const byKey = new Map(docs.map((d) => [keyOf(d.method, d.path), d]));
  const used = new Set<RouteDoc>();
  const out: BoundDocs = { bound: [], undocumented: [], unmatched: [] };
  for (const route of routes) {
    const doc = byKey.get(keyOf(route.method, route.path));
    if (!doc) {
      out.undocumented.push(`${route.method} ${route.path}`);
      continue;
    }
    used.add(doc);
    const named = route.path.replace(/:([^/]+)/g, "{$1}");
    const same = route.path.endsWith("*") ? named === doc.path.replace(/\{[^}]+\}$/, "*") : named === doc.path;
    if (same) out.bound.push({ route, doc });
    else out.unmatched.push(`${doc.method.toUpperCase()} ${doc.path} names its parameters unlike ${route.path}`);
  }
  for (const doc of docs)
    if (!used.has(doc)) out.unmatched.push(`${doc.method.toUpperCase()} ${doc.path} names no route`);
  return out;
}
