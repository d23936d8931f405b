/** /tenants/{tenant_id}/projects: create (spec) plus the documented list, read and update extensions. */
import { Elysia } from "elysia";
import type { ProjectRecord } from "../../storage/projects/projects";
import { listProjectHistory } from "../../storage/schema/settings-migrate";
import type { ServerDeps } from "../deps";
import { CreateProjectBody, SettingsBody, UpdateProjectBody } from "../schemas";
import { ProjectListResponse, ProjectSchema } from "../schemas-responses";
import * as projects from "../services/projects";
import { parseInput, readJson } from "../validation";
import { badSettings, common, notFound, documentRoutes, type RouteDoc } from "../route-doc";

const view = (p: ProjectRecord) => ({
  project_id: p.project_id,
  tenant_id: p.tenant_id,
  name: p.name,
  description: p.description,
  project_version: p.project_version,
  settings: p.settings,
  created_at: p.created_at,
  updated_at: p.updated_at,
});

export function projectRoutes(deps: ServerDeps) {
  return (
    new Elysia({ name: "projects" })
      .post(
        "/tenants/:tenant_id/projects",
        async ({ params, request, set }) => {
          const body = parseInput(CreateProjectBody, await readJson(request));
          set.status = 201;
          return view(projects.createProject(deps.db, deps.clock, params.tenant_id, body));
        },
        { parse: "none" },
      )
      .get("/tenants/:tenant_id/projects", ({ params }) => ({
        items: projects.listProjects(deps.db, params.tenant_id).map(view),
      }))
      .get("/tenants/:tenant_id/projects/:project_id", ({ params }) =>
        view(projects.requireProject(deps.db, params.tenant_id, params.project_id)),
      )
      // Why stored settings changed without anyone updating them (settings migrations, docs/api-stability.md).
      .get("/tenants/:tenant_id/projects/:project_id/history", ({ params }) => ({
        items: listProjectHistory(
          deps.db,
          projects.requireProject(deps.db, params.tenant_id, params.project_id).project_id,
        ),
      }))
      .patch(
        "/tenants/:tenant_id/projects/:project_id",
        async ({ params, request }) => {
          const body = parseInput(UpdateProjectBody, await readJson(request));
          return view(projects.updateProject(deps.db, deps.clock, params.tenant_id, params.project_id, body, "merge"));
        },
        { parse: "none" },
      )
      .put(
        "/tenants/:tenant_id/projects/:project_id/settings",
        async ({ params, request }) => {
          const settings = await readJson(request);
          return view(projects.updateProject(deps.db, deps.clock, params.tenant_id, params.project_id, { settings }));
        },
        { parse: "none" },
      )
  );
}

/** OpenAPI entries for the routes above (bound to them by documented(); server/openapi.ts builds the document). */
export const PROJECT_ROUTE_DOCS: RouteDoc[] = [
  {
    method: "post",
    path: "/tenants/{tenant_id}/projects",
    summary: "Create a project",
    tag: "Projects",
    body: CreateProjectBody,
    responses: { 201: { description: "Created", schema: ProjectSchema }, ...badSettings, ...common },
  },
  {
    method: "get",
    path: "/tenants/{tenant_id}/projects",
    summary: "List projects (extension)",
    tag: "Projects",
    responses: { 200: { description: "Projects", schema: ProjectListResponse }, ...common, ...notFound },
  },
  {
    method: "get",
    path: "/tenants/{tenant_id}/projects/{project_id}",
    summary: "Read a project and its settings (extension)",
    tag: "Projects",
    responses: { 200: { description: "Project", schema: ProjectSchema }, ...common, ...notFound },
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
    body: UpdateProjectBody,
    responses: { 200: { description: "Updated", schema: ProjectSchema }, ...badSettings, ...common, ...notFound },
  },
  {
    method: "put",
    path: "/tenants/{tenant_id}/projects/{project_id}/settings",
    summary:
      "Replace the settings (partial settings merge over the default project); increments project_version (extension)",
    tag: "Projects",
    body: SettingsBody,
    responses: { 200: { description: "Updated", schema: ProjectSchema }, ...badSettings, ...common, ...notFound },
  },
];
documentRoutes(PROJECT_ROUTE_DOCS);
