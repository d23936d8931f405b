/**
 * /tenants/{tenant_id}/projects/{project_id}/mail-connectors: the e-mail import connectors of a project
 * (docs/email.md). Every method needs project.manage (auth/permissions.ts). The password is write-only: views
 * carry `has_password`, never the password or its sealed form.
 */
import { Elysia } from "elysia";
import { z } from "zod";
import * as mail from "../../mail/connectors";
import { CreateConnectorSchema, UpdateConnectorSchema } from "../../mail/settings";
import type { ServerDeps } from "../deps";
import { q, documentRoutes, type RouteDoc } from "../route-doc";
import { ErrorSchema } from "../schemas";
import { readJson } from "../validation";

const BASE = "/tenants/:tenant_id/projects/:project_id/mail-connectors";

export function mailRoutes(deps: ServerDeps) {
  const svc = () => ({ db: deps.db, clock: deps.clock, secretKey: deps.secretKey ?? null });
  return new Elysia({ name: "mail-connectors" })
    .post(
      BASE,
      async ({ params, request, set }) => {
        const c = mail.createConnector(svc(), params.tenant_id, params.project_id, await readJson(request));
        set.status = 201;
        return mail.connectorView(deps.db, c);
      },
      { parse: "none" },
    )
    .get(BASE, ({ params }) => {
      mail.assertProject(deps.db, params.tenant_id, params.project_id);
      return {
        items: mail
          .listConnectors(deps.db, params.tenant_id, params.project_id)
          .map((c) => mail.connectorView(deps.db, c)),
      };
    })
    .get(`${BASE}/:connector_id`, ({ params }) =>
      mail.connectorView(
        deps.db,
        mail.requireConnector(deps.db, params.tenant_id, params.project_id, params.connector_id),
      ),
    )
    .patch(
      `${BASE}/:connector_id`,
      async ({ params, request }) =>
        mail.connectorView(
          deps.db,
          mail.updateConnector(
            svc(),
            params.tenant_id,
            params.project_id,
            params.connector_id,
            await readJson(request),
          ),
        ),
      { parse: "none" },
    )
    .delete(`${BASE}/:connector_id`, ({ params }) => {
      mail.deleteConnector(deps.db, params.tenant_id, params.project_id, params.connector_id);
      return { connector_id: params.connector_id, deleted: true };
    })
    .get(`${BASE}/:connector_id/messages`, ({ params, query }) =>
      mail.connectorMessages(
        deps.db,
        params.tenant_id,
        params.project_id,
        params.connector_id,
        query as { state?: string; limit?: string },
      ),
    );
}

const err = (description: string) => ({ description, schema: ErrorSchema });
const common = {
  401: err("Missing or invalid credentials"),
  403: err("Missing project.manage"),
  404: err("Unknown tenant, project or connector"),
};
const P = "/tenants/{tenant_id}/projects/{project_id}/mail-connectors";
const View = z
  .object({
    connector_id: z.string(),
    name: z.string(),
    enabled: z.boolean(),
    host: z.string(),
    port: z.number(),
    security: z.string(),
    has_password: z.literal(true),
  })
  .passthrough();

export const MAIL_ROUTE_DOCS: RouteDoc[] = [
  {
    method: "post",
    path: P,
    summary: "Add an e-mail import connector (IMAP); the password is stored encrypted and never returned (extension)",
    tag: "Mail",
    body: CreateConnectorSchema,
    responses: {
      201: { description: "Connector", schema: View },
      400: err("Invalid settings (every problem listed), plain IMAP to a non-loopback host, or no DOCPROC_SECRET_KEY"),
      ...common,
    },
  },
  {
    method: "get",
    path: P,
    summary: "List a project's mail connectors (extension)",
    tag: "Mail",
    responses: { 200: { description: "Connectors" }, ...common },
  },
  {
    method: "get",
    path: `${P}/{connector_id}`,
    summary: "Read a mail connector with its last poll, last error and message counts (extension)",
    tag: "Mail",
    responses: { 200: { description: "Connector", schema: View }, ...common },
  },
  {
    method: "patch",
    path: `${P}/{connector_id}`,
    summary: "Change a mail connector; fields given replace the stored ones (extension)",
    tag: "Mail",
    body: UpdateConnectorSchema,
    responses: { 200: { description: "Connector", schema: View }, 400: err("Invalid settings"), ...common },
  },
  {
    method: "delete",
    path: `${P}/{connector_id}`,
    summary: "Remove a mail connector and its import ledger (transactions stay) (extension)",
    tag: "Mail",
    responses: { 200: { description: "Deleted" }, ...common },
  },
  {
    method: "get",
    path: `${P}/{connector_id}/messages`,
    summary: "The import ledger: messages imported, pending or failed (failed ones stay in the mailbox) (extension)",
    tag: "Mail",
    query: z.object({
      state: q.string("claimed, imported, done or failed"),
      limit: q.integer("Default 100, at most 1000"),
    }),
    responses: {
      200: { description: "Messages, most recent first" },
      400: err("Unknown state or bad limit"),
      ...common,
    },
  },
];
documentRoutes(MAIL_ROUTE_DOCS);
