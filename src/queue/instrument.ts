/**
 * Step timings for logs and metrics, taken around any PipelineRunner: the runner reports progress as
 * `onProgress(step, done, total)`; a step ends when the next one reports (or the run returns). Each finished step
 * gives one `step_finished` line and one docproc_step_duration_seconds observation; the OCR step's time also counts
 * as docproc_ocr_seconds_total, and the result's pages count by text source. Only ids, step names, counts and
 * durations are logged.
 */
import type { Logger } from "../telemetry/log";
import type { Metrics } from "../telemetry/metrics";
import type { PipelineRunner } from "./pipeline-runner";

export function instrumentRunner(run: PipelineRunner, telemetry: { log?: Logger; metrics?: Metrics }): PipelineRunner {
  const { log, metrics } = telemetry;
  if (!log && !metrics) return run;
  return async (input, ctx) => {
    const transaction_id = ctx.meta.transaction_id;
    let current: { step: string; since: number; done: number; total: number } | null = null;
    const close = () => {
      if (!current) return;
      const seconds = (performance.now() - current.since) / 1000;
      metrics?.stepDuration.observe({ step: current.step }, seconds);
      if (current.step === "ocr") metrics?.ocrSeconds.inc(seconds);
      log?.info({ event: "step_finished", transaction_id, step: current.step, done: current.done, total: current.total, duration_ms: Math.round(seconds * 1000) }, `${current.step} finished`);
      current = null;
    };
    const onProgress: typeof ctx.onProgress = (step, done, total) => {
      if (current?.step !== step) {
        close();
        current = { step, since: performance.now(), done, total };
      } else {
        current.done = done;
        current.total = total;
      }
      ctx.onProgress(step, done, total);
    };
    try {
      const result = await run(input, { ...ctx, onProgress });
      close();
      for (const p of result.pages) metrics?.pages.inc({ text_source: String(p.text_source ?? "none") });
      return result;
    } catch (err) {
      close();
      throw err;
    }
  };
}
