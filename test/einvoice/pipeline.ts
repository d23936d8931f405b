/** Runs one file through the real pipeline (default project) and gives an export context over its results. */
import { readFileSync } from "node:fs";
import path from "node:path";
import { processTransaction } from "../../src/core/pipeline";
import { memorySink, type ExportContext } from "../../src/core/exporters";
import { defaultProject } from "../../src/core/project";
import type { OcrEngine } from "../../src/core/engines/ocr";
import type { SourceInput } from "../../src/core/model";

/** For born-digital files and e-invoices: a page that needs OCR fails the test. */
export const noOcr: OcrEngine = {
  name: "none",
  workers: 1,
  recognize: () => Promise.reject(new Error("no OCR expected")),
  close: async () => {},
} as never;

export async function pipeline(
  file: string,
  ocr: OcrEngine = noOcr,
): Promise<{ ctx: ExportContext; sink: ReturnType<typeof memorySink> }> {
  const sources: SourceInput[] = [
    { index: 0, filename: path.basename(file), data: new Uint8Array(readFileSync(file)), split_policy: "inherit" },
  ];
  const meta = {
    transaction_id: crypto.randomUUID(),
    tenant_id: "default",
    project_id: "default",
    project_version: 1,
    correlation_id: null,
    metadata: {},
    created_at: new Date(0).toISOString(),
    source: "test",
  };
  const res = await processTransaction({ sources }, {
    meta,
    project: defaultProject,
    ocr,
    sink: memorySink(),
  } as never);
  const sink = memorySink();
  return {
    sink,
    ctx: { results: res.results, pages: res.pages, sources, sink, now: () => new Date("2026-02-03T04:05:06Z") },
  };
}
