/**
 * Self-hosted administration (admin key only, never rate limited): tenants, clients, API keys, users, reload,
 * endpoint health. The access guard has already refused every other principal before these handlers run.
 */
import { Elysia } from "elysia";
import { accessSync, constants, mkdirSync } from "node:fs";
import { z } from "zod";
import * as clients from "../../auth/clients";
import type { Guard } from "../../auth/guard";
import { createTenant, listTenants } from "../../auth/tenants";
import { createUser, listUsers } from "../../auth/users";
import { configurationCounts } from "../../storage/projects/deployment";
import { ping } from "../../storage/schema/db";
import { queueDepth } from "../../storage/jobs/jobs";
import type { ServerDeps } from "../deps";
import { q, documentRoutes, type RouteDoc } from "../route-doc";
import { ErrorSchema } from "../schemas";
import { readJson } from "../validation";

const asObject = (v: unknown): Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const body = async (request: Request) => asObject(await readJson(request));

export function adminRoutes(deps: ServerDeps, guard: Guard) {
  const { db, clock } = deps;
  return new Elysia({ name: "admin" })
    .post(
      "/admin/tenants",
      async ({ request, set }) => ((set.status = 201), createTenant(db, clock, await body(request))),
      { parse: "none" },
    )
    .get("/admin/tenants", () => ({ items: listTenants(db) }))
    .post(
      "/admin/clients",
      async ({ request, set }) => ((set.status = 201), clients.createClient(db, clock, await body(request))),
      { parse: "none" },
    )
    .get("/admin/clients", ({ query }) => ({ items: clients.listClients(db, query.tenant_id || undefined) }))
    .get("/admin/clients/:client_id", ({ params }) => clients.getClientDetail(db, params.client_id))
    .patch(
      "/admin/clients/:client_id",
      async ({ params, request }) => clients.updateClient(db, clock, params.client_id, await body(request)),
      { parse: "none" },
    )
    .delete("/admin/clients/:client_id", ({ params }) => clients.deleteClient(db, params.client_id))
    .post(
      "/admin/clients/:client_id/keys",
      async ({ params, request, set }) => (
        (set.status = 201), clients.createKey(db, clock, params.client_id, await body(request))
      ),
      { parse: "none" },
    )
    .get("/admin/clients/:client_id/keys", ({ params }) => ({ items: clients.listKeys(db, params.client_id) }))
    .delete("/admin/clients/:client_id/keys/:key_id", ({ params }) =>
      clients.revokeKey(db, clock, params.client_id, params.key_id),
    )
    .post(
      "/admin/users",
      async ({ request, set }) => {
        const u = await createUser(db, clock, await body(request));
        set.status = 201;
        return u;
      },
      { parse: "none" },
    )
    .get("/admin/users", ({ query }) => ({ items: listUsers(db, query.tenant_id || undefined) }))
    .post("/admin/reload-configs", () => reloadConfigs(deps, guard))
    .get("/admin/endpoints/health", async ({ set }) => {
      const out = await endpointHealth(deps);
      if (out.status !== "ok") set.status = 503;
      return out;
    });
}

/**
 * Keys, clients, users and projects are read from the database on every request, so there is no cached
 * configuration to drop: reloading writes the rate-limit counters and reports what is in effect.
 */
function reloadConfigs(deps: ServerDeps, guard: Guard) {
  guard.limiter.flush();
  const s = guard.settings;
  return {
    reloaded: true,
    reloaded_at: new Date(deps.clock.now()).toISOString(),
    ...configurationCounts(deps.db),
    rate_limits: { per_minute: s.ratePerMinute, per_hour: s.ratePerHour, async_per_hour: s.asyncPerHour },
    sessions: { lifetime_seconds: s.sessionLifetimeMs / 1000, idle_timeout_seconds: s.sessionIdleMs / 1000 },
  };
}

type Check = { name: string; status: "ok" | "error" | "loading" | "idle" | "ready"; detail?: string } & Record<
  string,
  unknown
>;

async function endpointHealth(deps: ServerDeps) {
  const checks: Check[] = [];
  const t0 = performance.now();
  try {
    ping(deps.db);
    checks.push({ name: "database", status: "ok", latency_ms: +(performance.now() - t0).toFixed(3) });
    checks.push({
      name: "queue",
      status: "ok",
      depth: queueDepth(deps.db),
      max_depth: deps.config.maxQueueDepth,
      running: deps.running(),
      workers: deps.workers,
    });
  } catch (err) {
    checks.push({ name: "database", status: "error", detail: (err as Error).message });
  }
  checks.push(await storageHealth(deps));
  const ocr = deps.ocrStatus();
  checks.push({
    name: "ocr",
    status: ocr.status,
    ...(ocr.engine ? { engine: ocr.engine } : {}),
    ...(ocr.error ? { detail: ocr.error } : {}),
  });
  const status = checks.some((c) => c.status === "error") ? "degraded" : "ok";
  return { status, checked_at: new Date(deps.clock.now()).toISOString(), endpoints: checks };
}

/** The blob store answers: the data directory's export folder is writable, or the bucket answers a list request. */
async function storageHealth(deps: ServerDeps): Promise<Check> {
  const t0 = performance.now();
  try {
    if (deps.blobs.config.kind === "fs") {
      mkdirSync(deps.exportsRoot, { recursive: true });
      accessSync(deps.exportsRoot, constants.W_OK);
      return { name: "export_storage", status: "ok" };
    }
    await deps.blobs.check();
    return { name: "export_storage", status: "ok", kind: "s3", latency_ms: +(performance.now() - t0).toFixed(3) };
  } catch (err) {
    return { name: "export_storage", status: "error", detail: (err as Error).message };
  }
}

const err = (description: string) => ({ description, schema: ErrorSchema });
const adminErrors = { 401: err("Missing or invalid credentials"), 403: err("Not the admin key") };
const Obj = z.record(z.string(), z.unknown());
const Limit = z.number().int().min(1).nullable();
const ClientBody = z.object({
  client_id: z.string().optional(),
  name: z.string().optional(),
  tenant_id: z.string().optional().meta({ description: "Defaults to `default`" }),
  permissions: z.array(z.string()).optional(),
  rate_limit_per_minute: Limit.optional(),
  rate_limit_per_hour: Limit.optional(),
  async_limit_per_hour: Limit.optional(),
});
const ok = (description: string, status = 200) => ({ [status]: { description, schema: Obj } });

/** OpenAPI entries for the routes above (src/server/openapi.ts lists them). */
export const ADMIN_ROUTE_DOCS: RouteDoc[] = [
  {
    method: "post",
    path: "/admin/tenants",
    summary: "Create a tenant",
    tag: "Admin",
    body: z.object({ tenant_id: z.string(), name: z.string().optional() }),
    responses: { ...ok("Created", 201), 400: err("Invalid or duplicate tenant_id"), ...adminErrors },
  },
  {
    method: "get",
    path: "/admin/tenants",
    summary: "List tenants",
    tag: "Admin",
    responses: { ...ok("Tenants"), ...adminErrors },
  },
  {
    method: "post",
    path: "/admin/clients",
    summary: "Create a client",
    tag: "Admin",
    body: ClientBody,
    responses: {
      ...ok("Client", 201),
      400: err("Invalid fields, unknown permission or duplicate client_id"),
      404: err("Unknown tenant"),
      ...adminErrors,
    },
  },
  {
    method: "get",
    path: "/admin/clients",
    summary: "List clients",
    tag: "Admin",
    query: z.object({ tenant_id: q.string("Only this tenant's clients") }),
    responses: { ...ok("Clients"), ...adminErrors },
  },
  {
    method: "get",
    path: "/admin/clients/{client_id}",
    summary: "Read a client and its keys (never the key values)",
    tag: "Admin",
    responses: { ...ok("Client"), 404: err("Unknown client"), ...adminErrors },
  },
  {
    method: "patch",
    path: "/admin/clients/{client_id}",
    summary: "Update name, permissions or rate-limit overrides (null: default)",
    tag: "Admin",
    body: ClientBody.omit({ client_id: true, tenant_id: true }),
    responses: { ...ok("Client"), 400: err("Invalid fields"), 404: err("Unknown client"), ...adminErrors },
  },
  {
    method: "delete",
    path: "/admin/clients/{client_id}",
    summary: "Delete a client and its keys",
    tag: "Admin",
    responses: { ...ok("Deleted"), 404: err("Unknown client"), ...adminErrors },
  },
  {
    method: "post",
    path: "/admin/clients/{client_id}/keys",
    summary: "Generate an API key (the value is returned once only)",
    tag: "Admin",
    body: z.object({ description: z.string().optional() }),
    responses: {
      ...ok("Generated key: api_key, key_id, key_suffix, client_id, client_name, description", 201),
      404: err("Unknown client"),
      ...adminErrors,
    },
  },
  {
    method: "get",
    path: "/admin/clients/{client_id}/keys",
    summary: "List a client's keys (ids and suffixes only)",
    tag: "Admin",
    responses: { ...ok("Keys"), 404: err("Unknown client"), ...adminErrors },
  },
  {
    method: "delete",
    path: "/admin/clients/{client_id}/keys/{key_id}",
    summary: "Revoke a key (effective on the next request)",
    tag: "Admin",
    responses: { ...ok("Revoked"), 404: err("Unknown client or key"), ...adminErrors },
  },
  {
    method: "post",
    path: "/admin/users",
    summary: "Create a user who signs in with a password",
    tag: "Admin",
    body: z.object({
      tenant_id: z.string().optional(),
      username: z.string(),
      password: z.string(),
      permissions: z.array(z.string()).optional(),
    }),
    responses: {
      ...ok("User", 201),
      400: err("Invalid fields or duplicate user"),
      404: err("Unknown tenant"),
      ...adminErrors,
    },
  },
  {
    method: "get",
    path: "/admin/users",
    summary: "List users",
    tag: "Admin",
    query: z.object({ tenant_id: q.string("Only this tenant's users") }),
    responses: { ...ok("Users"), ...adminErrors },
  },
  {
    method: "post",
    path: "/admin/reload-configs",
    summary: "Flush rate-limit counters and report the configuration in effect",
    tag: "Admin",
    responses: { ...ok("Reloaded"), ...adminErrors },
  },
  {
    method: "get",
    path: "/admin/endpoints/health",
    summary: "Health of the database, queue, export storage and OCR engine",
    tag: "Admin",
    responses: { ...ok("Healthy"), 503: { description: "Degraded", schema: Obj }, ...adminErrors },
  },
];
documentRoutes(ADMIN_ROUTE_DOCS);
