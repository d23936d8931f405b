/**
 * Where the time goes: process-wide totals of wall time spent in each pipeline stage and in the optional passes of
 * OCR (orientation probes, enlargement, second look) and separator detection. Read by the benchmark's per-stage
 * table (`DOCPROC_STAGE_TIMES=file` makes the CLI write them at exit, see src/cli.ts).
 *
 * Totals are summed over calls: pages read in parallel lanes each count their own time, so a stage's total MAY
 * exceed the wall time of the run. A timer costs two clock reads; nothing here is ever logged or sent anywhere.
 */
export interface StageTime {
  ms: number;
  calls: number;
}

const totals = new Map<string, StageTime>();

export function addStageTime(name: string, ms: number): void {
  const t = totals.get(name);
  if (t) {
    t.ms += ms;
    t.calls++;
  } else totals.set(name, { ms, calls: 1 });
}

export async function timeStage<T>(name: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await work();
  } finally {
    addStageTime(name, performance.now() - started);
  }
}

export function timeStageSync<T>(name: string, work: () => T): T {
  const started = performance.now();
  try {
    return work();
  } finally {
    addStageTime(name, performance.now() - started);
  }
}

/** A copy of the totals so far, in the order the stages were first timed. */
export function stageTimes(): Record<string, StageTime> {
  return Object.fromEntries([...totals].map(([k, v]) => [k, { ...v }]));
}

export function resetStageTimes(): void {
  totals.clear();
}
