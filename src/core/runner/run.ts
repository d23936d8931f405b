/**
 * The transaction runner: convert → OCR → the project's workflow nodes in their order. Contract in
 * docs/ARCHITECTURE.md ("Transaction runner").
 *
 * - MUST never throw for a bad transaction: every failure is an outcome with `status: "failure"` and the
 *   `DocprocError` (whose `stage` is the stage that failed). Callers decide about retries.
 * - A stage that throws `AwaitInput` stops the run in `awaiting_input`; `saved` then holds what
 *   `resumeTransaction` continues from (the next stage), without converting or OCR-ing again.
 * - Reaching a Notification node hands its `reached` event to `opts.notify` with the manifest of that moment; an
 *   aborted run hands `failed` for every enabled, configured node it did not reach (not after `delivery_failed`).
 * - MUST close every converted file (PDF documents hold memory) whatever happens.
 */
import { throwIfAborted } from "../abort";
import { DocprocError, wrapStageError } from "../errors";
import type { SourceInput, TransactionInput } from "../model";
import type { ProjectSettings } from "../project";
import { expandEmailSource } from "../split/email";
import { emptyRunManifest, freshState, restoreRun, saveRun } from "./state";
import { type RunOptions, type RunOutcome } from "./types";
import {
  AwaitInput,
  StageInterrupted,
  type RunState,
  type StageContext,
  type StageName,
  type StageStep,
} from "../stages/types";
import { BUILTIN_STAGES } from "./builtin-stages";
import { forgetRunAnswers } from "../stages/run-answers";
import { resultsOf } from "../stages/run-state";
import { pushAll } from "../arrays";
import { releaseWordsOf } from "../convert/page-words";
import { forgetPageFeatures } from "../split/signals";

const BUILTIN_ORDER = ["split", "classify", "extract", "validate", "review", "export"] as const;
/** Convert and OCR come before the workflow nodes: a rerun can start at index FIRST_WORKFLOW_STAGE at the earliest. */
const FIRST_WORKFLOW_STAGE = 2;

type WorkflowNode = ProjectSettings["workflow"][number];

/**
 * The run's stage sequence: convert, ocr, then the workflow nodes in order. A built-in step the list leaves out
 * still runs (a project without a step list runs them all): it is placed where the built-in order puts it, before
 * the first listed built-in that comes later in that order.
 */
export function stageSequence(project: ProjectSettings): StageStep[] {
  const nodes: Array<{ node: WorkflowNode; index: number }> = project.workflow.map((node, index) => ({ node, index }));
  for (const [rank, type] of BUILTIN_ORDER.entries()) {
    if (nodes.some((n) => n.node.type === type)) continue;
    const later = nodes.findIndex((n) => BUILTIN_ORDER.indexOf(n.node.type as never) > rank);
    const lastBuiltin = nodes.findLastIndex((n) => n.node.type !== "notification");
    const at = later !== -1 ? later : lastBuiltin + 1;
    nodes.splice(at, 0, { node: { type, enabled: true } as WorkflowNode, index: -1 });
  }
  const fixed: StageStep[] = [
    { stage: "convert", step_index: -1, id: null, enabled: true },
    { stage: "ocr", step_index: -1, id: null, enabled: true },
  ];
  return [
    ...fixed,
    ...nodes.map(({ node, index }): StageStep => {
      const enabled = node.enabled !== false;
      if (node.type === "notification")
        return { stage: "notify", step_index: index, id: node.id, enabled, activity: node.activity };
      return { stage: node.type, step_index: index, id: node.id ?? null, enabled };
    }),
  ];
}

/** Runs a transaction from the start. */
export async function runTransaction(input: TransactionInput, opts: RunOptions): Promise<RunOutcome> {
  let sources: SourceInput[];
  try {
    sources = expandSources(input);
  } catch (err) {
    const state = freshState(input.sources, opts.meta.transaction_id);
    return failed(state, opts, wrapStageError("convert", err), stageSequence(opts.project), 0, 0);
  }
  return execute(input, opts, freshState(sources, opts.meta.transaction_id), 0, 0);
}

/**
 * Continues a stored run. Without `fromStep` it resumes where the run stopped (after the stage that paused it).
 * With `fromStep` (a workflow stage: split, classify, …) it re-runs from that step's first node with the stored
 * pages, and the current project settings and split policies apply again (spec rule 4).
 */
export async function resumeTransaction(
  input: TransactionInput,
  saved: RunOutcome["saved"] & object,
  opts: RunOptions,
  fromStep?: StageName,
): Promise<RunOutcome> {
  const state = restoreRun(saved, expandSources(input), opts.password);
  if (!fromStep) return execute(input, opts, state, saved.next, saved.run);
  const seq = stageSequence(opts.project);
  const start = seq.findIndex((s, i) => i >= FIRST_WORKFLOW_STAGE && s.stage === fromStep);
  if (start === -1) {
    await closeAll(state);
    throw new DocprocError(
      "invalid_input",
      `from_step must be a step of the project's workflow (${[...new Set(seq.slice(FIRST_WORKFLOW_STAGE).map((s) => s.stage))].join(", ")}), got "${fromStep}"`,
    );
  }
  // What this step and the later ones produce is made again; what earlier steps produced stays.
  const order = seq.slice(FIRST_WORKFLOW_STAGE, start).map((s) => s.stage);
  if (!order.includes("split")) {
    state.spans = null;
    state.documents = [];
  }
  state.transactionRules = [];
  state.manifest = emptyRunManifest(opts.meta.transaction_id);
  state.errors = state.errors.filter((e) => e.stage === "convert" || e.stage === "ocr");
  return execute(input, opts, state, start, saved.run + 1);
}

async function execute(
  input: TransactionInput,
  opts: RunOptions,
  state: RunState,
  start: number,
  run: number,
): Promise<RunOutcome> {
  const seq = stageSequence(opts.project);
  const stages = { ...BUILTIN_STAGES, ...opts.stages };
  const base = contextOf(input, opts);
  let i = start;
  try {
    for (; i < seq.length; i++) {
      const step = seq[i]!;
      throwIfAborted(opts.signal, step.stage);
      if (opts.checkpoint?.aborted) return interrupted(state, base, i, run);
      // A disabled Split still runs: with the step off, every file becomes one document (spec rule 5).
      if (!step.enabled && step.stage !== "split") continue;
      // Any stage but a Notification node may change what the Export step's results file says.
      if (step.stage !== "notify") state.exported = undefined;
      try {
        await stages[step.stage](state, { ...base, step });
        // The last stage that reads every page's words has run: the cache of unpacked ones need not hold this run's
        // (100,000 words, ~15 MB) through Validate, Review and the export, a long run's peak (issue 34).
        if (step.stage === "extract")
          for (const file of state.files) releaseWordsOf(file.pages, { unpackedOnly: true });
        // Split's per-page features (read ahead while the file converted) serve Split alone: held with their pages
        // they grew the run's heap by ~3.6 MB per 1,000 pages up to the export (issue 34).
        if (step.stage === "split") forgetPageFeatures(state.pages);
      } catch (err) {
        if (err instanceof AwaitInput) {
          const saved = saveRun(state, i + 1, step.stage, run);
          return { ...outcomeOf(state, base, "awaiting_input"), review_metadata: err.review, saved };
        }
        if (err instanceof StageInterrupted) return interrupted(state, base, i, run);
        throw wrapStageError(step.stage, err);
      }
    }
    // Finished: nothing changes the documents any more, so the saved state may share them with the outcome.
    const saved =
      opts.keepState === false ? null : saveRun(state, seq.length, seq.at(-1)?.stage ?? null, run, { finished: true });
    return { ...outcomeOf(state, base, state.errors.length === 0 ? "success" : "partial"), saved };
  } catch (err) {
    return failed(state, opts, wrapStageError(seq[i]?.stage ?? "pipeline", err), seq, i, run);
  } finally {
    await closeAll(state);
  }
}

/** Stopped at a checkpoint before stage `next` (or part-way through it): `saved` continues from there. */
function interrupted(state: RunState, base: Omit<StageContext, "step">, next: number, run: number): RunOutcome {
  return { ...outcomeOf(state, base, "interrupted"), saved: saveRun(state, next, null, run) };
}

async function failed(
  state: RunState,
  opts: RunOptions,
  error: DocprocError,
  seq: StageStep[],
  at: number,
  run: number,
): Promise<RunOutcome> {
  const base = contextOf({ sources: state.sources }, opts);
  // A failed fail_workflow_on_error delivery sends no transaction.failed (a notification about a notification).
  if (error.code !== "delivery_failed" && opts.notify) {
    for (const step of seq.slice(at)) {
      if (step.stage !== "notify" || !step.enabled || !step.activity) continue;
      const res = await opts
        .notify({ event: "failed", step: { ...step, activity: step.activity }, error: error.message })
        .catch((e) => ({ warnings: [String(e)] }));
      if (res?.warnings) pushAll(state.warnings, res.warnings);
    }
  }
  const entry = { stage: error.stage ?? "pipeline", code: error.code, message: error.message };
  // When every file failed to convert, the run aborts with the first file's error: it is already listed.
  if (!state.errors.some((e) => e.stage === entry.stage && e.code === entry.code && e.message === entry.message))
    state.errors.push(entry);
  const saved =
    opts.keepState !== false && at > FIRST_WORKFLOW_STAGE - 1 && state.pages.length > 0
      ? saveRun(state, at, null, run)
      : null;
  return { ...outcomeOf(state, base, "failure"), error, saved };
}

function contextOf(input: TransactionInput, opts: RunOptions): Omit<StageContext, "step"> {
  return {
    meta: opts.meta,
    project: opts.project,
    ocr: opts.ocr,
    sink: opts.sink,
    checkpoint: opts.checkpoint,
    input,
    progress: opts.onProgress ?? (() => {}),
    signal: opts.signal,
    password: opts.password,
    profiles: opts.profiles,
    keepsState: opts.keepState !== false,
    now: opts.now ?? (() => new Date()),
    notify: opts.notify ?? (async () => {}),
  };
}

function outcomeOf(
  state: RunState,
  ctx: Omit<StageContext, "step">,
  status: RunOutcome["status"],
): Omit<RunOutcome, "saved"> {
  return {
    status,
    results: state.exported ?? resultsOf(state, ctx),
    manifest: state.manifest,
    files: state.files,
    pages: state.pages,
    warnings: state.warnings,
    errors: state.errors,
  };
}

function expandSources(input: TransactionInput): SourceInput[] {
  const sources = input.sources.flatMap((src) => expandEmailSource(src));
  sources.forEach((src, i) => (src.index = i));
  return sources;
}

async function closeAll(state: RunState): Promise<void> {
  forgetRunAnswers(state);
  for (const file of state.files) releaseWordsOf(file.pages);
  await Promise.allSettled(state.files.map((f) => f.close?.()));
}
