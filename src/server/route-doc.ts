/**
 * How a route describes itself for the OpenAPI document. Each route module lists its routes' docs beside the routes
 * and passes its Elysia instance through `documented()`, which binds every doc to the route it names (Elysia's
 * `detail` hook) and refuses a doc that names no route. server/openapi.ts then builds the document from the app's
 * route table: methods, paths and path parameters come from the routes themselves, request bodies, query
 * parameters and responses from the zod schemas named here. A route without a doc is missing from the document
 * (test/server/openapi.test.ts fails on it).
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

interface DocumentedRoute {
  method: string;
  path: string;
  hooks: { detail?: unknown };
}

/**
 * Binds each doc to its route (the route's `detail`) and returns the instance. Throws when a doc names no route of
 * this instance, or a path parameter by another name: a doc cannot outlive or misname its route.
 */
export function documented<T>(instance: T, docs: RouteDoc[]): T {
  const routes = (instance as { routes: DocumentedRoute[] }).routes;
  const byKey = new Map(routes.map((r) => [keyOf(r.method, r.path), r]));
  for (const doc of docs) {
    const route = byKey.get(keyOf(doc.method, doc.path));
    if (!route) throw new Error(`route doc ${doc.method.toUpperCase()} ${doc.path} names no route`);
    const named = route.path.replace(/:([^/]+)/g, "{$1}");
    const docNames = doc.path.replace(/\{[^}]+\}$/, "*");
    if (!route.path.endsWith("*") ? named !== doc.path : named !== docNames)
      throw new Error(`route doc ${doc.path} names its parameters unlike the route ${route.path}`);
    route.hooks.detail = doc;
  }
  return instance;
}

/** The doc bound to a route by documented(), if any. */
export function docOf(route: { hooks?: unknown }): RouteDoc | undefined {
  const detail = (route.hooks as { detail?: unknown } | undefined)?.detail;
  return detail && typeof detail === "object" && "responses" in detail ? (detail as RouteDoc) : undefined;
}
