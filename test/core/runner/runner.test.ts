/**
 * The transaction runner (src/core/runner): the workflow list is the pipeline, every built-in step honours
 * `enabled: false`, stage errors name their stage, Notification nodes fire when reached, and a run pauses and
 * resumes (or re-runs from Split) from stored state without converting or OCR-ing again.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { memorySink } from "../../../src/core/exporters";
import type { OcrEngine } from "../../../src/core/engines/ocr";
import type { SourceInput, TransactionInput } from "../../../src/core/model";
import { defaultProject, parseProjectSettings, type ProjectSettings } from "../../../src/core/project";
import {
  AwaitInput,
  BUILTIN_STAGES,
  inlineNotifier,
  resumeTransaction,
  runTransaction,
  stageSequence,
  type RunOptions,
  type SavedRun,
  type Stage,
  type StageName,
} from "../../../src/core/runner";
import { startReceiver } from "../notify/receiver";

const corpora = resolve(import.meta.dir, "../../../fixtures/corpora");
const azure = new Uint8Array(await Bun.file(`${corpora}/invoice2data/AzureInterior.pdf`).arrayBuffer());
/** No page of these inputs needs OCR: any call is a bug the test should see. */
const noOcr: OcrEngine = {
  name: "none",
  recognize: async () => {
    throw new Error("OCR was not expected");
  },
  close: async () => {},
} as unknown as OcrEngine;

const meta = (id = crypto.randomUUID()) => ({
  transaction_id: id,
  tenant_id: "local",
  project_id: "p",
  project_version: 1,
  correlation_id: null,
  metadata: {},
  created_at: "2026-01-01T00:00:00.000Z",
  source: "test",
});
const pdfInput = (): TransactionInput => ({
  sources: [{ index: 0, filename: "AzureInterior.pdf", data: azure, split_policy: "inherit" }],
});
const textSource = (
  index: number,
  name: string,
  pages: string[],
  policy: SourceInput["split_policy"] = "inherit",
): SourceInput => ({
  index,
  filename: name,
  content_type: "text/plain",
  data: new TextEncoder().encode(pages.join("\f")),
  split_policy: policy,
});
const withWorkflow = (workflow: unknown[], extra: Record<string, unknown> = {}): ProjectSettings =>
  parseProjectSettings({ ...defaultProject, workflow, ...extra });
/** A rule the Azure invoice fails, so a validation result shows whether Validate ran. */
const strictRule = {
  validation_rules: [{ id: "number_starts_with_x", type: "pattern", field: "invoice_number", pattern: "^X" }],
};
const builtins = (disabled: string | null = null) =>
  ["split", "classify", "extract", "validate", "review", "export"].map((type) => ({
    type,
    enabled: type !== disabled,
  }));

/** Wraps built-in stages so a test can count how often each ran. */
function counting(names: StageName[]): { stages: Partial<Record<StageName, Stage>>; calls: Record<string, number> } {
  const calls: Record<string, number> = {};
  const stages: Partial<Record<StageName, Stage>> = {};
  for (const n of names)
    stages[n] = async (state, ctx) => {
      calls[n] = (calls[n] ?? 0) + 1;
      await BUILTIN_STAGES[n](state, ctx);
    };
  return { stages, calls };
}

const run = (input: TransactionInput, project: ProjectSettings, extra: Partial<RunOptions> = {}) =>
  runTransaction(input, { meta: meta(), project, ocr: noOcr, sink: memorySink(), ...extra });

describe("stage sequence", () => {
  test("convert and OCR first, then the workflow nodes in their order; left-out built-ins keep their place", () => {
    const seq = stageSequence(
      withWorkflow([{ type: "classify" }, { type: "notification", id: "mid" }, { type: "export" }]),
    );
    expect(seq.map((s) => s.stage)).toEqual([
      "convert",
      "ocr",
      "split",
      "classify",
      "notify",
      "extract",
      "validate",
      "review",
      "export",
    ]);
    expect(seq.find((s) => s.stage === "notify")).toMatchObject({
      step_index: 1,
      id: "mid",
      enabled: true,
      activity: null,
    });
    expect(stageSequence(withWorkflow([])).map((s) => s.stage)).toEqual([
      "convert",
      "ocr",
      "split",
      "classify",
      "extract",
      "validate",
      "review",
      "export",
    ]);
  });
});

describe("every built-in step honours enabled: false", () => {
  test("all enabled: classified, extracted, validated, exported", async () => {
    const out = await run(pdfInput(), withWorkflow(builtins(), strictRule));
    expect(out.status).toBe("success");
    const doc = out.results.documents[0]!;
    expect(doc.classification.class_id).toBe("invoice");
    expect(doc.fields.invoice_number?.value).toBe("INV/2023/03/0008");
    // The PDF carries an old UBL invoice that claims no EN 16931 conformance: not checked in the pipeline.
    expect(doc.validation?.rule_results.map((r) => r.rule_id)).toEqual(["number_starts_with_x"]);
    expect(out.manifest.total_files).toBe(1);
  });

  test("classify off: the document stays unclassified (other, confidence 0) and extraction finds no invoice fields", async () => {
    const out = await run(pdfInput(), withWorkflow(builtins("classify")));
    const doc = out.results.documents[0]!;
    expect(doc.classification).toMatchObject({ class_id: "other", confidence: 0 });
    expect(doc.fields.invoice_number).toBeUndefined();
  });

  test("extract off: classified, but no fields", async () => {
    const out = await run(pdfInput(), withWorkflow(builtins("extract")));
    expect(out.results.documents[0]!.classification.class_id).toBe("invoice");
    expect(out.results.documents[0]!.fields).toEqual({});
  });

  test("validate off: no validation on documents and no transaction rules", async () => {
    const out = await run(pdfInput(), withWorkflow(builtins("validate"), strictRule));
    expect(out.results.documents[0]!.fields.invoice_number?.value).toBe("INV/2023/03/0008");
    expect(out.results.documents[0]!.validation).toBeUndefined();
    expect(out.results.validation.transaction_rule_results).toEqual([]);
  });

  test("export off: nothing written, empty manifest", async () => {
    const out = await run(pdfInput(), withWorkflow(builtins("export")));
    expect(out.status).toBe("success");
    expect(out.manifest).toMatchObject({ total_files: 0, profiles: {} });
  });

  test("review off: a plugged-in review stage is not called; on, it is", async () => {
    let reviews = 0;
    const stages = { review: (async () => void reviews++) as Stage };
    await run(pdfInput(), withWorkflow(builtins("review")), { stages });
    expect(reviews).toBe(0);
    await run(pdfInput(), withWorkflow(builtins()), { stages });
    expect(reviews).toBe(1);
  });

  test("split off: every file is one document whatever the split mode (spec rule 5)", async () => {
    const input = {
      sources: [textSource(0, "a.txt", ["Invoice 1 total 10.00", "Invoice 2 total 20.00", "Invoice 3 total 30.00"])],
    };
    const perPage = { split: { mode: "per_page" } };
    expect((await run(input, withWorkflow(builtins(), perPage))).results.documents).toHaveLength(3);
    const off = await run(input, withWorkflow(builtins("split"), perPage));
    expect(off.results.documents).toHaveLength(1);
    expect(off.results.documents[0]!.split.page_numbers).toEqual([1, 2, 3]);
  });
});

describe("errors", () => {
  test("a failing stage is reported under its own name, the run never throws, and later stages do not run", async () => {
    for (const stage of ["classify", "validate", "export"] as const) {
      let exported = false;
      const out = await run(pdfInput(), withWorkflow(builtins()), {
        stages: {
          [stage]: async () => {
            throw new Error(`${stage} broke`);
          },
          ...(stage !== "export" ? { export: async () => void (exported = true) } : {}),
        },
      });
      expect(out.status).toBe("failure");
      expect(out.error).toMatchObject({ stage, code: "internal" });
      expect(out.errors.at(-1)).toMatchObject({ stage, message: `${stage}: ${stage} broke` });
      expect(exported).toBe(false);
    }
  });

  test("an unreadable only file fails in convert, with no stored state", async () => {
    const out = await run(
      {
        sources: [
          {
            index: 0,
            filename: "x.pdf",
            data: new TextEncoder().encode("%PDF-1.7\n1 0 obj <<"),
            split_policy: "inherit",
          },
        ],
      },
      defaultProject,
    );
    expect(out.status).toBe("failure");
    expect(out.error?.stage).toBe("convert");
    expect(out.saved).toBeNull();
  });
});

describe("notification nodes", () => {
  const receiver = startReceiver();
  afterAll(() => receiver.stop());
  const allow = { publicBaseUrl: "http://docproc.test", allowPrivate: ["127.0.0.0/8"] };
  const node = (id: string, path: string, extra: Record<string, unknown> = {}) => ({
    type: "notification",
    id,
    activity: { webhook_url: receiver.url(path), retry_max_attempts: 1, ...extra },
  });

  test("a node before Export fires when reached, before the run goes on, with the (empty) manifest of that moment", async () => {
    receiver.received.length = 0;
    const project = withWorkflow([
      { type: "split" },
      { type: "classify" },
      { type: "extract" },
      node("mid", "/mid"),
      { type: "validate" },
      { type: "export" },
      node("end", "/end"),
    ]);
    let seenAtValidate = -1;
    const m = meta();
    const out = await runTransaction(pdfInput(), {
      meta: m,
      project,
      ocr: noOcr,
      sink: memorySink(),
      notify: inlineNotifier(project, { tenant_id: "local", project_id: "p", transaction_id: m.transaction_id }, allow),
      stages: {
        validate: async (state, ctx) => {
          seenAtValidate = receiver.received.length;
          await BUILTIN_STAGES.validate(state, ctx);
        },
      },
    });
    expect(out.status).toBe("success");
    expect(seenAtValidate).toBe(1); // the mid node was delivered before Validate ran
    expect(receiver.received.map((r) => r.path)).toEqual(["/mid", "/end"]);
    const [mid, end] = receiver.received.map((r) => JSON.parse(r.body));
    expect(mid).toMatchObject({
      event: "transaction.step_reached",
      transaction_id: m.transaction_id,
      exports: { total_files: 0, files: [] },
    });
    expect(end.exports.total_files).toBe(1);
    expect(end.exports.files[0].filename).toBe(`${m.transaction_id}_data.json`);
  });

  test("aborting between two nodes: the passed one was reached, the other gets transaction.failed", async () => {
    receiver.received.length = 0;
    const project = withWorkflow([
      { type: "split" },
      node("first", "/first"),
      { type: "classify" },
      { type: "extract" },
      node("second", "/second"),
    ]);
    const m = meta();
    const out = await runTransaction(pdfInput(), {
      meta: m,
      project,
      ocr: noOcr,
      sink: memorySink(),
      notify: inlineNotifier(project, { tenant_id: "local", project_id: "p", transaction_id: m.transaction_id }, allow),
      stages: {
        extract: async () => {
          throw new Error("extraction broke");
        },
      },
    });
    expect(out.status).toBe("failure");
    expect(receiver.received.map((r) => [r.path, JSON.parse(r.body).event])).toEqual([
      ["/first", "transaction.step_reached"],
      ["/second", "transaction.failed"],
    ]);
    expect(JSON.parse(receiver.received[1]!.body).error).toContain("extraction broke");
  });

  test("the default project's node sends once only webhook_url is set", async () => {
    receiver.received.length = 0;
    const workflow = defaultProject.workflow.map((s) =>
      s.type === "notification" ? { ...s, activity: { webhook_url: receiver.url("/default") } } : s,
    );
    const project = parseProjectSettings({ ...defaultProject, workflow });
    const m = meta();
    await runTransaction(pdfInput(), {
      meta: m,
      project,
      ocr: noOcr,
      sink: memorySink(),
      notify: inlineNotifier(project, { tenant_id: "local", project_id: "p", transaction_id: m.transaction_id }, allow),
    });
    expect(receiver.received.map((r) => r.path)).toEqual(["/default"]);
    expect(JSON.parse(receiver.received[0]!.body).exports.total_files).toBe(1);
  });
});

describe("the outcome's results file", () => {
  const exportedJson = (sink: ReturnType<typeof memorySink>) =>
    JSON.parse(new TextDecoder().decode([...sink.files].find(([name]) => name.endsWith("_data.json"))![1]));

  test("is the one the Export step wrote when nothing came after it, and a finished run's state refers to its documents", async () => {
    const sink = memorySink();
    const out = await run(pdfInput(), withWorkflow(builtins(), strictRule), { sink });
    const file = exportedJson(sink);
    expect(out.results.transaction.exported_at).toBe(file.transaction.exported_at);
    expect(JSON.parse(JSON.stringify(out.results.documents))).toEqual(file.documents);
    // Finished: the stored state and the outcome are serialised together, so no copy of the documents is made.
    expect(out.saved!.documents).toBe(out.results.documents);
  });

  test("is made again when a step after Export changed what it says", async () => {
    const sink = memorySink();
    const workflow = [
      { type: "split" },
      { type: "classify" },
      { type: "extract" },
      { type: "export" },
      { type: "validate" },
    ];
    const out = await run(pdfInput(), withWorkflow(workflow, strictRule), { sink });
    // Export ran before Validate: its file knows no rule, the outcome has the failed rule and its overall status.
    expect(exportedJson(sink).validation.overall_status).toBe("success");
    const doc = out.results.documents[0]!;
    // The PDF carries an old UBL invoice that claims no EN 16931 conformance: not checked in the pipeline.
    expect(doc.validation?.rule_results.map((r) => r.rule_id)).toEqual(["number_starts_with_x"]);
    expect(doc.validation!.overall_status).not.toBe("success");
    expect(out.results.validation.overall_status).toBe(doc.validation!.overall_status);
  });

  test("a paused run's state holds a copy of the documents: later changes to the outcome leave it as it was", async () => {
    const paused = await run(pdfInput(), withWorkflow(builtins()), {
      stages: {
        review: async () => {
          throw new AwaitInput({ step_name: "review", instructions: "", timeout_hours: 0 });
        },
      },
    });
    expect(paused.status).toBe("awaiting_input");
    expect(paused.saved!.documents).not.toBe(paused.results.documents);
    paused.results.documents[0]!.fields = {};
    expect(paused.saved!.documents[0]!.fields.invoice_number?.value).toBe("INV/2023/03/0008");
  });
});

describe("pause, resume and rerun", () => {
  /** A test-only review step: pauses the first time it is reached, lets the run through afterwards. */
  const pauseOnce = () => {
    let paused = false;
    return (async () => {
      if (paused) return;
      paused = true;
      throw new AwaitInput({ step_name: "review", instructions: "Check the total", timeout_hours: 24 });
    }) as Stage;
  };

  test("keepState false: a finished run has no saved state and the same results; a paused one still has it", async () => {
    const project = withWorkflow(builtins());
    const [kept, notKept] = [await run(pdfInput(), project), await run(pdfInput(), project, { keepState: false })];
    expect(kept.saved).not.toBeNull();
    expect(notKept.saved).toBeNull();
    const fieldsOf = (o: typeof kept) =>
      o.results.documents.map((d) => [d.classification.class_id, d.split.page_numbers, d.fields]);
    expect(fieldsOf(notKept)).toEqual(fieldsOf(kept));
    const paused = await run(pdfInput(), project, { keepState: false, stages: { review: pauseOnce() } });
    expect(paused.status).toBe("awaiting_input");
    expect(paused.saved?.stopped_after).toBe("review");
  });

  test("a step pauses in awaiting_input; resume continues after it from the stored state: one conversion, nothing exported twice", async () => {
    const { stages, calls } = counting(["convert", "ocr", "split", "classify", "extract", "export"]);
    const opts = {
      meta: meta(),
      project: withWorkflow(builtins()),
      ocr: noOcr,
      sink: memorySink(),
      stages: { ...stages, review: pauseOnce() },
    };
    const paused = await runTransaction(pdfInput(), opts);
    expect(paused.status).toBe("awaiting_input");
    expect(paused.review_metadata).toEqual({ step_name: "review", instructions: "Check the total", timeout_hours: 24 });
    expect(paused.manifest.total_files).toBe(0); // Export comes after Review
    expect(calls).toEqual({ convert: 1, ocr: 1, split: 1, classify: 1, extract: 1 });
    // What a server stores and reads back: plain JSON.
    const saved = JSON.parse(JSON.stringify(paused.saved)) as SavedRun;
    expect(saved.stopped_after).toBe("review");
    const done = await resumeTransaction(pdfInput(), saved, opts);
    expect(done.status).toBe("success");
    expect(calls).toEqual({ convert: 1, ocr: 1, split: 1, classify: 1, extract: 1, export: 1 });
    expect(done.results.documents.map((d) => d.document_id)).toEqual(
      paused.results.documents.map((d) => d.document_id),
    );
    expect(done.results.documents[0]!.fields.invoice_number?.value).toBe("INV/2023/03/0008");
    expect(done.pages[0]!.words.length).toBeGreaterThan(20); // stored words came back
    expect(done.manifest.total_files).toBe(1);
  });

  test("a finished run re-runs from Split with the stored pages and the policies and settings it is given now", async () => {
    const { stages, calls } = counting(["convert", "ocr", "split"]);
    const pages = ["Invoice A-1 total 10.00", "Invoice A-2 total 20.00"];
    const project = withWorkflow(builtins(), { split: { mode: "per_page" } });
    const opts = { meta: meta(), project, ocr: noOcr, sink: memorySink(), stages };
    const first = await runTransaction(
      { sources: [textSource(0, "a.txt", pages), textSource(1, "b.txt", ["Letter. Dear Sir"])] },
      opts,
    );
    expect(first.results.documents).toHaveLength(3);
    const saved = JSON.parse(JSON.stringify(first.saved)) as SavedRun;
    // The stored policy of a.txt changed: the rerun makes it one document again; b.txt keeps its own.
    const again = await resumeTransaction(
      { sources: [textSource(0, "a.txt", pages, "single_document"), textSource(1, "b.txt", ["Letter. Dear Sir"])] },
      saved,
      opts,
      "split",
    );
    expect(again.status).toBe("success");
    expect(again.results.documents.map((d) => [d.split.page_numbers, d.split.policy])).toEqual([
      [[1, 2], "single_document"],
      [[3], "inherit"],
    ]);
    expect(again.saved?.run).toBe(1);
    expect(calls).toEqual({ convert: 1, ocr: 1, split: 2 });
    // Changed project settings apply too: per_file now.
    const perFile = await resumeTransaction(
      { sources: [textSource(0, "a.txt", pages), textSource(1, "b.txt", ["Letter"])] },
      saved,
      { ...opts, project: withWorkflow(builtins(), { split: { mode: "per_file" } }) },
      "split",
    );
    expect(perFile.results.documents.map((d) => d.split.page_numbers)).toEqual([[1, 2], [3]]);
    expect(calls.convert).toBe(1);
  });

  test("from_step must be a workflow step", async () => {
    const first = await run(pdfInput(), defaultProject);
    await expect(
      resumeTransaction(
        pdfInput(),
        first.saved!,
        { meta: meta(), project: defaultProject, ocr: noOcr, sink: memorySink() },
        "ocr",
      ),
    ).rejects.toThrow("from_step must be");
  });
});
