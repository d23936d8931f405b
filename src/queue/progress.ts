/**
 * Turns the pipeline's onProgress(step, done, total) calls into the spec's `metadata.progress` and
 * `metadata.step_progress`. Steps run in a fixed order; completion_percentage weights them by typical cost.
 */
export const STEPS: ReadonlyArray<{ id: string; name: string; weight: number }> = [
  { id: "convert", name: "Conversion", weight: 15 },
  { id: "ocr", name: "OCR", weight: 45 },
  { id: "split", name: "Split", weight: 5 },
  { id: "extract", name: "Classification and extraction", weight: 25 },
  { id: "export", name: "Export", weight: 10 },
];

export interface StepState {
  name: string;
  status: "pending" | "running" | "completed";
  done: number;
  total: number;
}

export interface ProgressSnapshot {
  progress: { total_documents: number; completed_documents: number; completion_percentage: number };
  step_progress: { current_step: string; current_step_name: string; steps: Record<string, StepState> };
}

export type ProgressTracker = ReturnType<typeof createProgressTracker>;

export function createProgressTracker() {
  const steps: Record<string, StepState> = Object.fromEntries(
    STEPS.map((s) => [s.id, { name: s.name, status: "pending", done: 0, total: 0 }]),
  );
  let current = STEPS[0]!.id;
  let docs = { total: 0, done: 0 };

  return {
    update(step: string, done: number, total: number): ProgressSnapshot {
      const order = STEPS.findIndex((s) => s.id === step);
      if (!steps[step]) steps[step] = { name: step, status: "running", done, total };
      // Every step before this one is over, whether or not it reported (OCR is skipped for text-layer PDFs).
      STEPS.forEach((s, i) => {
        if (order >= 0 && i < order) steps[s.id]!.status = "completed";
      });
      const st = steps[step]!;
      st.done = done;
      st.total = total;
      st.status = done >= total ? "completed" : "running";
      current = step;
      if (step === "extract") docs = { total, done };
      return this.snapshot();
    },
    finish(documentCount: number): ProgressSnapshot {
      for (const s of Object.values(steps)) s.status = "completed";
      docs = { total: documentCount, done: documentCount };
      current = "completed";
      return this.snapshot();
    },
    snapshot(): ProgressSnapshot {
      let pct = 0;
      for (const s of STEPS) {
        const st = steps[s.id]!;
        const frac = st.status === "completed" ? 1 : st.total > 0 ? Math.min(1, st.done / st.total) : 0;
        pct += s.weight * frac;
      }
      const name = STEPS.find((s) => s.id === current)?.name ?? (current === "completed" ? "Completed" : current);
      return {
        progress: {
          total_documents: docs.total,
          completed_documents: docs.done,
          completion_percentage: Math.round(pct * 10) / 10,
        },
        step_progress: { current_step: current, current_step_name: name, steps: structuredClone(steps) },
      };
    },
  };
}

/** What a queued transaction shows before a worker picks it up: every step pending, 0 %. */
export function queuedProgress(): ProgressSnapshot {
  const snap = createProgressTracker().snapshot();
  return {
    ...snap,
    step_progress: { ...snap.step_progress, current_step: "queued", current_step_name: "Waiting for a worker" },
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object") {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

/** Statuses whose step is the status itself (queued and completed keep the snapshot's own). */
const STATUS_STEP_NAMES: Record<string, string> = {
  created: "Awaiting files or start",
  processing: "Processing",
  awaiting_input: "Awaiting input",
  failed: "Failed",
};

const BY_STATUS = new Map<string, Readonly<ProgressSnapshot>>();

/**
 * The progress a status read shows for a transaction whose metadata has none yet (still `created`, or written by
 * an older version): derived from its status. Shared and frozen, because status reads are the API's hot path.
 */
export function progressOfStatus(status: string): Readonly<ProgressSnapshot> {
  let snap = BY_STATUS.get(status);
  if (!snap) {
    const base = status === "completed" ? createProgressTracker().finish(0) : queuedProgress();
    const name = STATUS_STEP_NAMES[status];
    const step = name ? { current_step: status, current_step_name: name } : {};
    snap = deepFreeze({ ...base, step_progress: { ...base.step_progress, ...step } });
    BY_STATUS.set(status, snap);
  }
  return snap;
}
