/**
 * How a route describes itself for the OpenAPI document (server/openapi.ts assembles them). Its own module so the
 * route modules that export their docs do not import the assembler that imports them.
 */
import type { z } from "zod";

export interface RouteResponseDoc {
  description: string;
  schema?: z.ZodType;
  content?: string;
}

export interface RouteDoc {
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  summary: string;
  tag: string;
  public?: boolean;
  /** Overrides the document's security (a public route with its own credential, e.g. /metrics). */
  security?: Array<Record<string, string[]>>;
  body?: z.ZodType | "multipart" | "settings";
  query?: Record<string, { type: "string" | "integer" | "boolean"; description: string }>;
  responses: Record<number, RouteResponseDoc>;
}
