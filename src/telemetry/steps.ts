/**
 * Step durations from progress reports: the pipeline reports `onProgress(step, done, total)`; a step ends when the
 * next one reports or the run ends (`close()`). Shared by the server's job instrumentation (src/queue/instrument.ts)
 * and `docproc watch` (src/batch/watch-log.ts), so both log the same `step_finished` lines.
 */
export interface FinishedStep {
  step: string;
  done: number;
  total: number;
  seconds: number;
}

export interface StepTimer {
  progress(step: string, done: number, total: number): void;
  /** Ends the step in progress, if any (call when the run returns or throws). */
  close(): void;
}

export function stepTimer(
  onFinished: (s: FinishedStep) => void,
  now: () => number = () => performance.now(),
): StepTimer {
  let current: { step: string; since: number; done: number; total: number } | null = null;
  const close = () => {
    if (!current) return;
    const { step, done, total, since } = current;
    current = null;
    onFinished({ step, done, total, seconds: (now() - since) / 1000 });
  };
  return {
    progress(step, done, total) {
      if (current?.step !== step) {
        close();
        current = { step, since: now(), done, total };
      } else {
        current.done = done;
        current.total = total;
      }
    },
    close,
  };
}
