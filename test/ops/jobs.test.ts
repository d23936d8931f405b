/**
 * Job lifecycle in the logs and metrics: a job that completes and one that fails with a code, read from the captured
 * JSON lines and from GET /metrics; neither file contents, extracted values nor keys appear in the log.
 */
import { afterEach, expect, test } from "bun:test";
import { DocprocError } from "../../src/core/errors";
import type { PipelineRunner } from "../../src/queue/pipeline-runner";
import { queueCounts } from "../../src/storage/jobs/jobs";
import { instrumentRunner } from "../../src/queue/instrument";
import { createMetrics } from "../../src/telemetry/metrics";
import { buildTestApp } from "../support/app";
import { fakeRunner } from "../support/fake-runner";
import { requestInit } from "../support/http";
import { parseMetrics, sample, telemetryFor } from "./helpers";

const ADMIN = "jobs-admin-key-4411";
let t: ReturnType<typeof buildTestApp> | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

// Fails a transaction whose text asks for it, the way a corrupt file fails conversion.
const runner: PipelineRunner = async (input, ctx) => {
  if (input.sources.some((s) => s.filename.startsWith("broken")))
    throw new DocprocError("corrupt_file", "broken.pdf: not a readable PDF", { stage: "convert" });
  const result = await fakeRunner(input, ctx); // reports convert
  ctx.onProgress("ocr", 1, 1);
  return result;
};

test("started and completed/failed lines with kind, transaction, attempt, duration and error code; job metrics move", async () => {
  let db: any;
  const tel = telemetryFor(() => queueCounts(db));
  t = buildTestApp({ adminKey: ADMIN, prefix: "ops-jobs", runner, telemetry: tel.telemetry });
  db = t.data.db;
  const call = async (method: string, url: string, body?: unknown) => {
    const res = await t!.app.handle(
      new Request(`http://local${url}`, requestInit(method, { "x-api-key": ADMIN }, body)),
    );
    return { status: res.status, text: await res.text() };
  };
  const project = JSON.parse((await call("POST", "/tenants/default/projects", { name: "J" })).text).project_id;
  const submit = async (filename: string) => {
    const r = await call("POST", `/tenants/default/projects/${project}/transactions/process`, {
      source_files: [{ filename, base64_data: Buffer.from("SECRET-CONTENT-xyz").toString("base64") }],
    });
    expect(r.status).toBe(202);
    return JSON.parse(r.text).transaction_id as string;
  };
  const good = await submit("invoice.pdf");
  const bad = await submit("broken.pdf");
  while (await t.runtime.pool.runOnce()) {}

  const lines = tel.lines().filter((l) => String(l.event).startsWith("job_"));
  const of = (tx: string, event: string) => lines.find((l) => l.transaction_id === tx && l.event === event);
  expect(of(good, "job_started")).toMatchObject({ level: "info", kind: "process_transaction", attempt: 1 });
  expect(of(good, "job_completed")).toMatchObject({ level: "info", kind: "process_transaction" });
  expect(of(good, "job_completed")!.duration_ms).toBeNumber();
  expect(of(bad, "job_failed")).toMatchObject({
    level: "error",
    kind: "process_transaction",
    error_code: "corrupt_file",
  });

  const text = tel.text();
  for (const secret of [
    "SECRET-CONTENT-xyz",
    Buffer.from("SECRET-CONTENT-xyz").toString("base64"),
    "INV-invoice.pdf",
    ADMIN,
  ])
    expect(text).not.toContain(secret);

  // Each step reported by the runner is timed until the next one starts or the run ends.
  expect(lines.length).toBeGreaterThan(0);
  const steps = tel.lines().filter((l) => l.event === "step_finished" && l.transaction_id === good);
  expect(steps.map((l) => l.step)).toEqual(["convert", "ocr"]);
  expect(steps.every((l) => typeof l.duration_ms === "number")).toBe(true);

  const raw = (await call("GET", "/metrics")).text;
  const m = parseMetrics(raw);
  expect(raw).toContain('docproc_step_duration_seconds_count{step="ocr"} 1');
  expect(raw).toContain('docproc_step_duration_seconds_count{step="convert"} 1');
  expect(sample(m, "docproc_jobs_total", { kind: "process_transaction", outcome: "completed" })).toBe(1);
  expect(sample(m, "docproc_jobs_total", { kind: "process_transaction", outcome: "failed" })).toBe(1);
  expect(sample(m, "docproc_queue_jobs", { kind: "process_transaction", status: "queued" })).toBe(0);
});

test("pages count by text source; OCR time counts as OCR seconds", async () => {
  const metrics = createMetrics();
  const run = instrumentRunner(
    async (_input, ctx) => {
      ctx.onProgress("ocr", 0, 2);
      await Bun.sleep(20);
      ctx.onProgress("ocr", 2, 2);
      return {
        status: "success",
        documents: [],
        pages: [{ text_source: "ocr" }, { text_source: "ocr" }, { text_source: "text_layer" }] as any,
        manifest: {} as any,
        errors: [],
        warnings: [],
      };
    },
    { metrics },
  );
  const seen: string[] = [];
  await run({ sources: [] } as any, {
    meta: { transaction_id: "t" } as any,
    settings: {},
    exportDir: "",
    signal: new AbortController().signal,
    onProgress: (s, d, t) => void seen.push(`${s} ${d}/${t}`),
  });
  expect(seen).toEqual(["ocr 0/2", "ocr 2/2"]); // the runner's own progress still arrives
  const m = parseMetrics(await metrics.render());
  expect(sample(m, "docproc_pages_total", { text_source: "ocr" })).toBe(2);
  expect(sample(m, "docproc_pages_total", { text_source: "text_layer" })).toBe(1);
  expect(sample(m, "docproc_ocr_seconds_total")).toBeGreaterThanOrEqual(0.015);
});
