import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { PipelineRunner, RunResult } from "../../src/queue/pipeline-runner";
import { openDataDir, startWorkerRuntime } from "../../src/queue/runtime";
import { createApp } from "../../src/server/app";
import { DEFAULT_CONFIG, type ServerConfig } from "../../src/server/config";
import type { ServerDeps } from "../../src/server/deps";
import { createLongPoll } from "../../src/server/long-poll";
import { systemClock } from "../../src/storage/clock";

export const KEY = "test-admin-key";

/** A runner that makes one document per source file and writes `<id>_data.json` plus a CSV in a subfolder. */
export const fakeRunner: PipelineRunner = async (input, ctx): Promise<RunResult> => {
  ctx.onProgress("convert", 1, 1);
  const id = ctx.meta.transaction_id;
  const documents = input.sources.map((s, i) => ({
    document_id: `${id}-doc-${i}`,
    document_index: i,
    document_type: "invoice",
    classification_confidence: 0.9,
    classification: { class_id: "invoice", type: "invoice", confidence: 0.9, reasoning: "", alternatives: [], confirmed: null, review_required: false },
    split: { mode: "per_file", policy: s.split_policy, confidence: 1, reason: "", review_required: false, page_numbers: [i + 1], source_file_indexes: [s.index] },
    fields: { invoice_number: { name: "Invoice number", value: `INV-${s.filename}`, confidence: 0.9, bounding_boxes: [], reasoning: "", review_required: false, is_confirmed: null } },
  }));
  const json = JSON.stringify({ transaction_id: id, documents });
  await Bun.write(path.join(ctx.exportDir, `${id}_data.json`), json);
  await Bun.write(path.join(ctx.exportDir, "csv/summary file.csv"), "a,b\n1,2\n");
  const now = new Date().toISOString();
  return {
    status: "success",
    documents,
    pages: [],
    manifest: {
      transaction_id: id,
      profiles: {
        json: { profile_id: "json", profile_name: "JSON", output_format: "json", scope_mode: "per_transaction", files: [{ filename: `${id}_data.json`, path: `exports/${id}_data.json`, size_bytes: json.length, document_ids: documents.map((d) => d.document_id), created_at: now }] },
        csv: { profile_id: "csv", profile_name: "CSV", output_format: "csv", scope_mode: "per_transaction", files: [{ filename: "csv/summary file.csv", path: "exports/csv/summary file.csv", size_bytes: 8, document_ids: [], created_at: now }] },
      },
      total_files: 2,
      total_size_bytes: json.length + 8,
    },
    errors: [],
    warnings: [],
  };
};

export function testApp(opts: { runner?: PipelineRunner; config?: Partial<ServerConfig>; workers?: number } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), "docproc-server-"));
  const data = openDataDir(dir);
  const runtime = startWorkerRuntime({ data, concurrency: opts.workers ?? 0, runPipeline: opts.runner ?? fakeRunner });
  const config: ServerConfig = { ...DEFAULT_CONFIG, adminApiKey: KEY, longPollRecheckMs: 100, ...opts.config };
  const deps: ServerDeps = {
    db: data.db,
    clock: systemClock,
    blobs: data.blobs,
    notifier: runtime.notifier,
    config,
    exportsRoot: data.exportsRoot,
    workers: 1,
    wake: () => runtime.pool.wake(),
    running: () => runtime.pool.running(),
    ocrStatus: () => runtime.ocrStatus(),
  };
  const longPoll = createLongPoll(data.db, runtime.notifier, config.longPollRecheckMs);
  const app = createApp(deps, longPoll);
  const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init: RequestInit = { method, headers: { "x-api-key": KEY, ...headers } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)["content-type"] = "application/json";
    }
    const res = await app.handle(new Request(`http://local${url}`, init));
    const type = res.headers.get("content-type") ?? "";
    const json = type.includes("json") ? await res.json() : null;
    return { status: res.status, json: json as any, res };
  };
  return {
    app, deps, data, runtime, call, longPoll, dir,
    async close() {
      longPoll.close();
      await runtime.stop(false, 1000);
      data.db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function form(files: Array<{ name: string; body: string | Uint8Array; type?: string }>, extra: Record<string, string[]> = {}): FormData {
  const f = new FormData();
  for (const file of files) f.append("files", new File([file.body as BlobPart], file.name, { type: file.type ?? "application/pdf" }));
  for (const [k, vals] of Object.entries(extra)) for (const v of vals) f.append(k, v);
  return f;
}
