/**
 * Transaction use cases: create, one-step process, start. Services never see the HTTP context: they take plain
 * inputs and return plain objects; every failure is a DocprocError.
 */
import { randomUUID } from "node:crypto";
import { DocprocError } from "../../core/errors";
import type { SplitPolicy } from "../../core/model";
import { jobsAhead } from "../../storage/jobs/jobs";
import { PROCESS_TRANSACTION } from "../../queue/transaction-job";
import { assertQueueRoom, rerunTransaction, submitTransaction } from "../../queue/submit";
import { getProjectById } from "../../storage/projects/projects";
import { loadRunState } from "../../storage/results/run-state";
import { isoAt } from "../../core/clock";
import { addSourceFile, listSourceFiles } from "../../storage/files/source-files";
import * as tx from "../../storage/transactions/transactions";
import { urlsOf, type ServerDeps } from "../deps";
import { contentTypeOf, safeName } from "../content-types";
import { requireProject } from "./projects";
import { getDataset } from "../../storage/learning/datasets";

const BUILT_IN_DATASETS = new Set(["production", "playground", "memory"]);

export interface CreateInput {
  dataset_id: string;
  correlation_id?: string | null;
  metadata: Record<string, unknown>;
  page_limit?: number | null;
  priority: number;
}

export function createTransaction(deps: ServerDeps, tenantId: string, projectId: string, input: CreateInput) {
  requireProject(deps.db, tenantId, projectId);
  // An evaluation dataset must exist in the project (created with POST .../datasets); the built-in ones always do.
  if (!BUILT_IN_DATASETS.has(input.dataset_id) && !getDataset(deps.db, projectId, input.dataset_id)) {
    throw new DocprocError(
      "invalid_input",
      `dataset_id: no evaluation dataset ${input.dataset_id} in project ${projectId} (create one with POST /tenants/${tenantId}/projects/${projectId}/datasets)`,
    );
  }
  const id = randomUUID();
  const t = tx.createTransaction(deps.db, {
    transaction_id: id,
    tenant_id: tenantId,
    project_id: projectId,
    correlation_id: input.correlation_id ?? null,
    metadata: input.metadata,
    dataset_id: input.dataset_id,
    page_limit: input.page_limit ?? null,
    priority: input.priority,
    request: { ...input },
    now: isoAt(deps.clock),
  });
  const { files_url, start_url } = urlsOf(id);
  return {
    transaction_id: id,
    tenant_id: tenantId,
    project_id: projectId,
    status: "created" as const,
    correlation_id: t.correlation_id,
    created_at: t.created_at,
    files_url,
    start_url,
  };
}

export function requireTransaction(deps: ServerDeps, id: string): tx.TransactionRecord {
  const t = tx.getTransaction(deps.db, id);
  if (!t) throw new DocprocError("not_found", `Transaction ${id} not found`);
  return t;
}

/** Seconds until a new job at `priority` should be done: jobs ahead of it / workers × recent mean duration. */
export function estimateSeconds(deps: ServerDeps, priority: number): number {
  const mean = tx.recentProcessingSeconds(deps.db) ?? 10;
  const ahead = jobsAhead(deps.db, PROCESS_TRANSACTION, priority);
  return Math.max(1, Math.ceil(mean * Math.max(1, Math.ceil(ahead / Math.max(1, deps.workers)))));
}

export function startTransaction(deps: ServerDeps, id: string) {
  const t = requireTransaction(deps, id);
  if (t.status === "created" && listSourceFiles(deps.db, id).length === 0 && !t.document_text && !t.ocr_data) {
    throw new DocprocError("invalid_input", "Transaction has no source files: upload files before starting it");
  }
  submitTransaction(deps.db, deps.clock, id, { maxDepth: deps.config.maxQueueDepth });
  deps.notifier.emit(id);
  deps.wake();
  const { status_url, poll_url } = urlsOf(id);
  return {
    transaction_id: id,
    status: "processing" as const,
    message: "Transaction processing started",
    status_url,
    poll_url,
  };
}

/**
 * `POST /transactions/{id}/rerun`: runs a completed or failed transaction's workflow again from `from_step` with
 * its stored pages (no conversion, no OCR), the project's current settings and the stored split policies.
 */
export async function rerunFromStep(deps: ServerDeps, id: string, fromStep: string) {
  const t = requireTransaction(deps, id);
  if (t.status !== "completed" && t.status !== "failed")
    throw new DocprocError("conflict", `Cannot rerun transaction in ${t.status} state`);
  const saved = await loadRunState(deps.blobs, id);
  if (!saved)
    throw new DocprocError(
      "conflict",
      "Transaction has no stored pages to re-run from (it failed before OCR finished); submit it again",
    );
  const project = getProjectById(deps.db, t.project_id);
  const steps = project ? await workflowSteps(project.settings) : [];
  if (!steps.includes(fromStep))
    throw new DocprocError("invalid_input", `from_step must be one of: ${steps.join(", ")}`);
  rerunTransaction(deps.db, deps.clock, id, { fromStep, run: saved.run + 1, maxDepth: deps.config.maxQueueDepth });
  deps.notifier.emit(id);
  deps.wake();
  const { status_url, poll_url } = urlsOf(id);
  return {
    transaction_id: id,
    status: "queued" as const,
    from_step: fromStep,
    message: `Transaction re-run from ${fromStep} queued`,
    status_url,
    poll_url,
  };
}

/** The workflow stages a rerun may start from, in the order the project runs them. */
async function workflowSteps(settings: unknown): Promise<string[]> {
  // Imported here: the runner's modules load with the first job, not with the server.
  const [{ stageSequence }, { parseProjectSettings }] = await Promise.all([
    import("../../core/runner/run"),
    import("../../core/project"),
  ]);
  try {
    return [
      ...new Set(
        stageSequence(parseProjectSettings(settings))
          .slice(2)
          .map((s) => s.stage),
      ),
    ];
  } catch {
    return [];
  }
}

export interface ProcessInput {
  source_files?: Array<{ filename: string; base64_data: string; split_policy: string; password?: string }>;
  documentText?: string;
  ocrData?: Record<string, unknown>;
  correlation_id?: string | null;
  metadata: Record<string, unknown>;
  priority: number;
  page_limit?: number | null;
}

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

function decodeFiles(deps: ServerDeps, files: NonNullable<ProcessInput["source_files"]>): Uint8Array[] {
  const { maxFilesPerUpload, maxFileBytes } = deps.config;
  if (files.length > maxFilesPerUpload)
    throw new DocprocError(
      "too_large",
      `Too many files: ${files.length} given, at most ${maxFilesPerUpload} per request`,
    );
  return files.map((f, i) => {
    const b64 = f.base64_data.replace(/\s+/g, "");
    if (!BASE64.test(b64)) throw new DocprocError("invalid_input", `source_files[${i}].base64_data: not valid base64`);
    if (b64.length * 0.75 > maxFileBytes + 3)
      throw new DocprocError(
        "too_large",
        `source_files[${i}] (${f.filename}) is larger than the ${maxFileBytes}-byte file limit`,
      );
    // The decoded Buffer as it is (a Uint8Array): copying it cost 4 ms per 9.4 MB file on the HTTP thread.
    const data: Uint8Array = Buffer.from(b64, "base64");
    if (data.byteLength === 0)
      throw new DocprocError("invalid_input", `source_files[${i}].base64_data: the file is empty`);
    return data;
  });
}

/**
 * Supplied text and OCR data have their own limits, far below the body limit: they become pages without any
 * conversion cost to slow them down (10 MB of text once held the server for 13.5 s at 4 GB RSS).
 */
function checkSuppliedSizes(deps: ServerDeps, input: ProcessInput): void {
  const { maxDocumentTextBytes, maxOcrDataBytes } = deps.config;
  const MB = 1024 * 1024;
  const text = input.documentText === undefined ? 0 : Buffer.byteLength(input.documentText, "utf8");
  if (text > maxDocumentTextBytes) {
    throw new DocprocError(
      "too_large",
      `documentText is ${text} bytes; the limit is ${maxDocumentTextBytes} bytes (${+(maxDocumentTextBytes / MB).toFixed(2)} MB, DOCPROC_MAX_DOCUMENT_TEXT_MB)`,
      {
        details: { field: "documentText", size: text, max_bytes: maxDocumentTextBytes },
      },
    );
  }
  const ocr = input.ocrData === undefined ? 0 : Buffer.byteLength(JSON.stringify(input.ocrData), "utf8");
  if (ocr > maxOcrDataBytes) {
    throw new DocprocError(
      "too_large",
      `ocrData is ${ocr} bytes of JSON; the limit is ${maxOcrDataBytes} bytes (${+(maxOcrDataBytes / MB).toFixed(2)} MB, DOCPROC_MAX_OCR_DATA_MB)`,
      {
        details: { field: "ocrData", size: ocr, max_bytes: maxOcrDataBytes },
      },
    );
  }
}

/** One-step submit: always the production dataset; files, text and OCR data are stored, then the job is queued. */
export async function processNow(deps: ServerDeps, tenantId: string, projectId: string, input: ProcessInput) {
  requireProject(deps.db, tenantId, projectId);
  checkSuppliedSizes(deps, input);
  const files = (input.source_files ?? []).map((f, i) => ({ ...f, filename: safeName(f.filename, i) }));
  const decoded = decodeFiles(deps, files);
  if (input.ocrData !== undefined) {
    // Checked now (400 naming every problem) rather than failing the transaction later; loaded lazily because the
    // supplied-data converter pulls in the canvas addon.
    const { parseOcrData } = await import("../../core/convert/supplied");
    parseOcrData(input.ocrData);
  }
  assertQueueRoom(deps.db, deps.config.maxQueueDepth);
  const hashes = await Promise.all(decoded.map((d) => deps.blobs.put(d)));
  const id = randomUUID();
  const now = isoAt(deps.clock);
  deps.db
    .transaction(() => {
      tx.createTransaction(deps.db, {
        transaction_id: id,
        tenant_id: tenantId,
        project_id: projectId,
        correlation_id: input.correlation_id ?? null,
        metadata: input.metadata,
        dataset_id: "production",
        page_limit: input.page_limit ?? null,
        priority: input.priority,
        request: {
          correlation_id: input.correlation_id ?? null,
          metadata: input.metadata,
          priority: input.priority,
          page_limit: input.page_limit ?? null,
          // Never the password: the request is returned by include_request.
          source_files: files.map((f, i) => ({
            filename: f.filename,
            split_policy: f.split_policy,
            size: decoded[i]!.byteLength,
            has_password: !!f.password,
          })),
          has_document_text: !!input.documentText,
          has_ocr_data: input.ocrData !== undefined,
        },
        document_text: input.documentText ?? null,
        ocr_data: input.ocrData ?? null,
        now,
      });
      files.forEach((f, i) =>
        addSourceFile(deps.db, {
          transaction_id: id,
          filename: f.filename,
          content_type: contentTypeOf(f.filename),
          size: decoded[i]!.byteLength,
          blob_hash: hashes[i]!,
          split_policy: f.split_policy as SplitPolicy,
          password: f.password ?? null,
          now,
        }),
      );
      submitTransaction(deps.db, deps.clock, id, { maxDepth: deps.config.maxQueueDepth, priority: input.priority });
    })
    .immediate();
  deps.wake();
  const { status_url, poll_url } = urlsOf(id);
  return {
    transaction_id: id,
    status: "processing" as const,
    estimated_completion_seconds: estimateSeconds(deps, input.priority),
    status_url,
    poll_url,
  };
}
