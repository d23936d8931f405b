/** Submitting work: create, one-step process, upload source files, start. */
import { Elysia } from "elysia";
import { DocprocError } from "../../core/errors";
import type { ServerDeps } from "../deps";
import { CreateTransactionBody, ProcessBody, RerunBody, UploadForm } from "../schemas";
import {
  CreateTransactionResponse,
  ProcessResponse,
  RerunResponse,
  SourceFileListResponse,
  StartResponse,
  UploadResponse,
} from "../schemas-responses";
import * as transactions from "../services/transactions";
import { listUploads, uploadFiles } from "../services/uploads";
import { parseInput, queryInt, readJson } from "../validation";
import { z } from "zod";
import { bad, common, err, notFound, q, tooLarge, documentRoutes, type RouteDoc } from "../route-doc";

async function readForm(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) {
    throw new DocprocError("unsupported_format", "Upload must be multipart/form-data with one or more `files` fields");
  }
  try {
    return await request.formData();
  } catch {
    throw new DocprocError("invalid_input", "Malformed multipart body");
  }
}

const strings = (form: FormData, name: string) => form.getAll(name).map((v) => (typeof v === "string" ? v.trim() : ""));

export function transactionRoutes(deps: ServerDeps) {
  const base = "/tenants/:tenant_id/projects/:project_id/transactions";
  return new Elysia({ name: "transactions" })
    .post(
      base,
      async ({ params, request, set }) => {
        const body = parseInput(CreateTransactionBody, await readJson(request));
        set.status = 201;
        return transactions.createTransaction(deps, params.tenant_id, params.project_id, body);
      },
      { parse: "none" },
    )
    .post(
      `${base}/process`,
      async ({ params, request, set }) => {
        const body = parseInput(ProcessBody, await readJson(request));
        const out = await transactions.processNow(deps, params.tenant_id, params.project_id, body);
        set.status = 202;
        return out;
      },
      { parse: "none" },
    )
    .post(
      "/transactions/:transaction_id/source-files",
      async ({ params, request, query }) => {
        const fileIndex = queryInt(query.file_index, "file_index", { min: 0, max: 100_000 });
        transactions.requireTransaction(deps, params.transaction_id); // 404 before reading a body that cannot be used
        const form = await readForm(request);
        const files = form.getAll("files").filter((v): v is File => typeof v !== "string");
        return uploadFiles(deps, params.transaction_id, {
          files,
          uploadTokens: strings(form, "upload_tokens"),
          splitPolicies: strings(form, "split_policies"),
          // Not trimmed: a password may begin or end with a space.
          passwords: form.getAll("passwords").map((v) => (typeof v === "string" ? v : "")),
          fileIndex,
        });
      },
      { parse: "none" },
    )
    .get("/transactions/:transaction_id/source-files", ({ params }) => listUploads(deps, params.transaction_id))
    .post(
      "/transactions/:transaction_id/start",
      ({ params }) => transactions.startTransaction(deps, params.transaction_id),
      { parse: "none" },
    )
    .post(
      "/transactions/:transaction_id/rerun",
      async ({ params, request, set }) => {
        // An empty body re-runs from Split (spec rule 4: the stored split policies apply again).
        const body = parseInput(RerunBody, await readJson(request));
        const out = await transactions.rerunFromStep(deps, params.transaction_id, body.from_step);
        set.status = 202;
        return out;
      },
      { parse: "none" },
    );
}

/** OpenAPI entries for the routes above (bound to them by documented(); server/openapi.ts builds the document). */
export const TRANSACTION_ROUTE_DOCS: RouteDoc[] = [
  {
    method: "post",
    path: "/tenants/{tenant_id}/projects/{project_id}/transactions",
    summary: "Create a transaction (not idempotent)",
    tag: "Transactions",
    body: CreateTransactionBody,
    responses: { 201: { description: "Created", schema: CreateTransactionResponse }, ...bad, ...common, ...notFound },
  },
  {
    method: "post",
    path: "/tenants/{tenant_id}/projects/{project_id}/transactions/process",
    summary: "Submit files, text or OCR data and start processing in one step",
    tag: "Transactions",
    body: ProcessBody,
    responses: {
      202: { description: "Accepted; processing", schema: ProcessResponse },
      ...bad,
      ...common,
      ...notFound,
      ...tooLarge,
    },
  },
  {
    method: "post",
    path: "/transactions/{transaction_id}/source-files",
    summary: "Upload source files (multipart)",
    tag: "Transactions",
    body: { multipart: UploadForm },
    query: z.object({ file_index: q.integer("0-based index of this request's first file") }),
    responses: {
      200: { description: "Upload result", schema: UploadResponse },
      400: err(
        "Invalid split policy (lists allowed values), no files, more tokens/policies/passwords than files, malformed multipart, or transaction not in created state",
      ),
      ...common,
      ...notFound,
      ...tooLarge,
      415: err("Not multipart/form-data"),
    },
  },
  {
    method: "get",
    path: "/transactions/{transaction_id}/source-files",
    summary: "List the uploaded source files in index order (extension)",
    tag: "Transactions",
    responses: { 200: { description: "Source files", schema: SourceFileListResponse }, ...common, ...notFound },
  },
  {
    method: "post",
    path: "/transactions/{transaction_id}/start",
    summary: "Start processing",
    tag: "Transactions",
    responses: {
      200: { description: "Started", schema: StartResponse },
      400: err("Cannot start transaction in <state> state, or no files"),
      ...common,
      ...notFound,
    },
  },
  {
    method: "post",
    path: "/transactions/{transaction_id}/rerun",
    summary:
      "Re-run a completed or failed transaction from a workflow step with its stored pages (extension; no conversion or OCR again)",
    tag: "Transactions",
    body: RerunBody,
    responses: {
      202: { description: "Queued; the workflow runs again from from_step", schema: RerunResponse },
      400: err("Cannot rerun transaction in <state> state, no stored pages, or from_step not in the workflow"),
      ...common,
      ...notFound,
    },
  },
];
documentRoutes(TRANSACTION_ROUTE_DOCS);
