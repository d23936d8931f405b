/**
 * Datasets and memories of a project (docs/datasets.md, docs/memory.md):
 * - POST/GET /tenants/{t}/projects/{p}/datasets: evaluation datasets, created with a name (the UUID is returned);
 * - GET /tenants/{t}/projects/{p}/memories (summaries), GET .../memories/{id} (everything remembered),
 *   DELETE .../memories/{id} (forget). Memories live in the project settings and travel with them.
 */
import { Elysia } from "elysia";
import { z } from "zod";
import { DocprocError } from "../../core/errors";
import { summaryOf } from "../../core/memory/model";
import { isoAt } from "../../storage/clock";
import { countByStatus, createDataset, listDatasets } from "../../storage/datasets";
import { forgetMemory, listMemories } from "../../storage/memories";
import type { ServerDeps } from "../deps";
import { requireProject } from "../services/projects";
import { parseInput, readJson } from "../validation";

const CreateDatasetBody = z.object({ name: z.string().trim().min(1).max(200), description: z.string().max(5000).default("") });

export function learningRoutes(deps: ServerDeps) {
  return new Elysia({ name: "learning" })
    .post(
      "/tenants/:tenant_id/projects/:project_id/datasets",
      async ({ params, request, set }) => {
        const body = parseInput(CreateDatasetBody, await readJson(request));
        const p = requireProject(deps.db, params.tenant_id, params.project_id);
        const d = createDataset(deps.db, { dataset_id: crypto.randomUUID(), tenant_id: p.tenant_id, project_id: p.project_id, name: body.name, description: body.description, created_at: isoAt(deps.clock) });
        if (!d) throw new DocprocError("conflict", `Project ${p.project_id} already has a dataset named ${JSON.stringify(body.name)}`);
        set.status = 201;
        return { ...d, kind: "evaluation" };
      },
      { parse: "none" },
    )
    .get("/tenants/:tenant_id/projects/:project_id/datasets", ({ params }) => {
      const p = requireProject(deps.db, params.tenant_id, params.project_id);
      return { items: listDatasets(deps.db, p.project_id).map((d) => ({ ...d, kind: "evaluation", transactions: countByStatus(deps.db, p.project_id, d.dataset_id) })) };
    })
    .get("/tenants/:tenant_id/projects/:project_id/memories", ({ params }) => {
      const p = requireProject(deps.db, params.tenant_id, params.project_id);
      return { items: listMemories(deps.db, p.project_id).map(summaryOf) };
    })
    .get("/tenants/:tenant_id/projects/:project_id/memories/:memory_id", ({ params }) => {
      const p = requireProject(deps.db, params.tenant_id, params.project_id);
      const m = listMemories(deps.db, p.project_id).find((x) => x.memory_id === params.memory_id);
      if (!m) throw new DocprocError("not_found", `Memory ${params.memory_id} not found in project ${p.project_id}`);
      return m;
    })
    .delete("/tenants/:tenant_id/projects/:project_id/memories/:memory_id", ({ params, set }) => {
      const p = requireProject(deps.db, params.tenant_id, params.project_id);
      const gone = deps.db.transaction(() => forgetMemory(deps.db, p.project_id, params.memory_id, isoAt(deps.clock))).immediate();
      if (!gone) throw new DocprocError("not_found", `Memory ${params.memory_id} not found in project ${p.project_id}`);
      set.status = 204;
      return "";
    });
}
