/**
 * Datasets and memories of a project (docs/datasets.md, docs/memory.md):
 * - POST/GET /tenants/{t}/projects/{p}/datasets: evaluation datasets, created with a name (the UUID is returned);
 * - GET .../datasets/{id}/evaluation: `docproc eval` over the dataset's completed transactions that carry expected
 *   values in `metadata.expected` (JSON report, or the HTML report with `?format=html`);
 * - GET /tenants/{t}/projects/{p}/memories (summaries), GET .../memories/{id} (everything remembered),
 *   DELETE .../memories/{id} (forget). Memories live in the project settings and travel with them.
 */
import { Elysia } from "elysia";
import { z } from "zod";
import { DocprocError } from "../../core/errors";
import { summaryOf } from "../../core/project/memory";
import { isoAt } from "../../core/clock";
import { completedTransactions, countByStatus, createDataset, listDatasets } from "../../storage/learning/datasets";
import { forgetMemory, listMemories } from "../../storage/learning/memories";
import type { ServerDeps } from "../deps";
import { requireProject } from "../services/projects";
import { parseInput, readJson } from "../validation";
import { q, documentRoutes, type RouteDoc } from "../route-doc";
import { ErrorSchema } from "../schemas";
import { parseProjectSettings } from "../../core/project";
import { listDocuments } from "../../storage/transactions/documents";
import { getDataset } from "../../storage/learning/datasets";
import { parseExpected } from "../../eval/folder";
import { producedOf } from "../../eval/run";
import { scoreOutcomes, type FileOutcome } from "../../eval/score";
import { renderHtml } from "../../eval/report-html";

const CreateDatasetBody = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(5000).default(""),
});

export function learningRoutes(deps: ServerDeps) {
  return new Elysia({ name: "learning" })
    .post(
      "/tenants/:tenant_id/projects/:project_id/datasets",
      async ({ params, request, set }) => {
        const body = parseInput(CreateDatasetBody, await readJson(request));
        const p = requireProject(deps.db, params.tenant_id, params.project_id);
        const d = createDataset(deps.db, {
          dataset_id: crypto.randomUUID(),
          tenant_id: p.tenant_id,
          project_id: p.project_id,
          name: body.name,
          description: body.description,
          created_at: isoAt(deps.clock),
        });
        if (!d)
          throw new DocprocError(
            "conflict",
            `Project ${p.project_id} already has a dataset named ${JSON.stringify(body.name)}`,
          );
        set.status = 201;
        return { ...d, kind: "evaluation" };
      },
      { parse: "none" },
    )
    .get("/tenants/:tenant_id/projects/:project_id/datasets", ({ params }) => {
      const p = requireProject(deps.db, params.tenant_id, params.project_id);
      return {
        items: listDatasets(deps.db, p.project_id).map((d) => ({
          ...d,
          kind: "evaluation",
          transactions: countByStatus(deps.db, p.project_id, d.dataset_id),
        })),
      };
    })
    .get("/tenants/:tenant_id/projects/:project_id/datasets/:dataset_id/evaluation", ({ params, query, set }) => {
      const p = requireProject(deps.db, params.tenant_id, params.project_id);
      const d = getDataset(deps.db, p.project_id, params.dataset_id);
      if (!d) throw new DocprocError("not_found", `Dataset ${params.dataset_id} not found in project ${p.project_id}`);
      const settings = parseProjectSettings(p.settings);
      const { outcomes, without } = datasetOutcomes(deps.db, p.project_id, d.dataset_id, settings);
      const report = {
        dataset_id: d.dataset_id,
        name: d.name,
        transactions_without_expected: without,
        ...scoreOutcomes(outcomes, settings.review_thresholds.field),
      };
      if (query.format === "html") {
        set.headers["content-type"] = "text/html; charset=utf-8";
        return renderHtml(report, `docproc evaluation · ${d.name}`, new Date(deps.clock.now()));
      }
      return report;
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
      const gone = deps.db
        .transaction(() => forgetMemory(deps.db, p.project_id, params.memory_id, isoAt(deps.clock)))
        .immediate();
      if (!gone) throw new DocprocError("not_found", `Memory ${params.memory_id} not found in project ${p.project_id}`);
      set.status = 204;
      return "";
    });
}

/** A dataset's completed transactions as scored outcomes; `without`: those whose metadata has no `expected`. */
function datasetOutcomes(
  db: ServerDeps["db"],
  projectId: string,
  datasetId: string,
  settings: ReturnType<typeof parseProjectSettings>,
): { outcomes: FileOutcome[]; without: number } {
  const rows = completedTransactions(db, projectId, datasetId);
  const outcomes: FileOutcome[] = [];
  let without = 0;
  for (const r of rows) {
    const expected = (JSON.parse(r.metadata || "{}") as { expected?: unknown }).expected;
    if (expected === undefined) {
      without++;
      continue;
    }
    const produced = listDocuments(db, r.transaction_id).map((doc) => producedOf(doc, settings));
    try {
      outcomes.push({ file: r.transaction_id, expected: parseExpected(expected), produced });
    } catch (err) {
      outcomes.push({
        file: r.transaction_id,
        expected: [],
        produced,
        error: `metadata.expected: ${(err as Error).message}`,
      });
    }
  }
  return { outcomes, without };
}

const err = (description: string) => ({ description, schema: ErrorSchema });
const P = "/tenants/{tenant_id}/projects/{project_id}";
const json = (description: string) => ({ description, schema: z.record(z.string(), z.unknown()) });

export const LEARNING_ROUTE_DOCS: RouteDoc[] = [
  {
    method: "post",
    path: `${P}/datasets`,
    summary: "Create an evaluation dataset with a name; answers its UUID for dataset_id (extension, docs/datasets.md)",
    tag: "Datasets",
    body: CreateDatasetBody,
    responses: {
      201: json("The dataset: dataset_id, name, description, project_id, created_at"),
      400: err("Invalid body, or the name is taken"),
      401: err("Missing or invalid credentials"),
      404: err("Unknown project"),
    },
  },
  {
    method: "get",
    path: `${P}/datasets`,
    summary: "Evaluation datasets of the project with their transactions by status (extension)",
    tag: "Datasets",
    responses: { 200: json("items"), 401: err("Missing or invalid credentials"), 404: err("Unknown project") },
  },
  {
    method: "get",
    path: `${P}/datasets/{dataset_id}/evaluation`,
    summary:
      "docproc eval over the dataset: completed transactions with metadata.expected scored (per-field accuracy, confusion matrix, split F1, calibration); ?format=html for the report with charts (extension, docs/eval.md)",
    tag: "Datasets",
    query: z.object({ format: q.string("html for the HTML report") }),
    responses: {
      200: json("The evaluation report"),
      401: err("Missing or invalid credentials"),
      404: err("Unknown project or dataset"),
    },
  },
  {
    method: "get",
    path: `${P}/memories`,
    summary: "What the project learned from confirmed documents: one summary per memory (extension, docs/memory.md)",
    tag: "Memory",
    responses: { 200: json("items"), 401: err("Missing or invalid credentials"), 404: err("Unknown project") },
  },
  {
    method: "get",
    path: `${P}/memories/{memory_id}`,
    summary: "One memory: issuer identity and, per field, label, position, shape (extension)",
    tag: "Memory",
    responses: {
      200: json("The memory"),
      401: err("Missing or invalid credentials"),
      404: err("Unknown project or memory"),
    },
  },
  {
    method: "delete",
    path: `${P}/memories/{memory_id}`,
    summary: "Forget a memory (extension)",
    tag: "Memory",
    responses: {
      204: { description: "Forgotten" },
      401: err("Missing or invalid credentials"),
      404: err("Unknown project or memory"),
    },
  },
];
documentRoutes(LEARNING_ROUTE_DOCS);
