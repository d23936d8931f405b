/**
 * Parsed project settings are shared by every job of a project version (src/queue/pipeline-runner.ts), so core
 * keeps its per-project work (a classifier trained from examples, label indexes) between jobs. That is only sound
 * while the pipeline never writes to the settings: a run on deep-frozen settings shows it does not.
 */
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { memorySink } from "../../src/core/exporters";
import type { OcrEngine } from "../../src/core/engines/ocr";
import { defaultProject, parseProjectSettings, type ProjectSettings } from "../../src/core/project";
import { runTransaction } from "../../src/core/runner";
import { reviewStage } from "../../src/core/stages/review/stage";
import { projectSettingsCache } from "../../src/queue/pipeline-runner";

const corpora = resolve(import.meta.dir, "../../fixtures/corpora");
const noOcr = {
  name: "none",
  recognize: async () => {
    throw new Error("OCR was not expected");
  },
  close: async () => {},
} as unknown as OcrEngine;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

async function run(project: ProjectSettings) {
  const pdf = new Uint8Array(await Bun.file(`${corpora}/invoice2data/AzureInterior.pdf`).arrayBuffer());
  const text = new TextEncoder().encode(
    "INVOICE 4711\nACME Supplies Ltd\nDate: 2026-03-02\nTotal: 12.50 EUR\fINVOICE 4712\nACME Supplies Ltd\nDate: 2026-03-03\nTotal: 99.00 EUR",
  );
  const out = await runTransaction(
    {
      sources: [
        { index: 0, filename: "AzureInterior.pdf", data: pdf, split_policy: "inherit" },
        { index: 1, filename: "two.txt", content_type: "text/plain", data: text, split_policy: "inherit" },
      ],
    },
    {
      meta: {
        transaction_id: "t",
        tenant_id: "t",
        project_id: "p",
        project_version: 1,
        correlation_id: null,
        metadata: {},
        created_at: "2026-01-01T00:00:00.000Z",
        source: "test",
      },
      project,
      ocr: noOcr,
      sink: memorySink(),
      now: () => new Date("2026-01-02T00:00:00.000Z"),
      // The server's Review step, as the queue's runner plugs it in.
      stages: { review: reviewStage },
    },
  );
  return {
    status: out.status,
    errors: out.errors,
    documents: out.results.documents.map(({ document_id: _id, ...d }) => d),
  };
}

describe("project settings shared between jobs", () => {
  test("the pipeline runs on deep-frozen settings with the results of fresh ones", async () => {
    const fresh = await run(parseProjectSettings(defaultProject));
    const frozen = await run(deepFreeze(parseProjectSettings(defaultProject)));
    expect(frozen.errors).toEqual([]);
    expect(frozen.status).toBe(fresh.status);
    expect(frozen.documents.length).toBeGreaterThan(1);
    expect(frozen.documents).toEqual(fresh.documents);
  });

  test("one parsed object per project version; other settings or another version parse again", () => {
    const cache = projectSettingsCache();
    let parses = 0;
    const parse = (raw: unknown) => (parses++, parseProjectSettings(raw));
    const raw = structuredClone(defaultProject);
    const a = cache.get("p1", 1, raw, parse);
    expect(cache.get("p1", 1, structuredClone(raw), parse)).toBe(a);
    expect(parses).toBe(1);
    expect(cache.get("p1", 2, raw, parse)).not.toBe(a);
    const changed = { ...structuredClone(raw), locale: "de-DE" };
    expect(cache.get("p1", 1, changed, parse)).not.toBe(a);
    expect(cache.get("p2", 1, raw, parse)).not.toBe(a);
    expect(parses).toBe(4);
  });
});
