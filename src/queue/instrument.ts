/**
 * Step timings for logs and metrics, taken around any PipelineRunner (src/telemetry/steps.ts). Each finished step
 * gives one `step_finished` line (at debug: a job's start and end are the info lines) and one docproc_step_duration_seconds observation; the OCR step's time also counts
 * as docproc_ocr_seconds_total, and the result's pages count by text source. Only ids, step names, counts and
 * durations are logged.
 */
import type { Logger } from "../telemetry/log";
import type { Metrics } from "../telemetry/metrics";
import type { PipelineRunner } from "./pipeline-runner";
import { stepTimer } from "../telemetry/steps";

export function instrumentRunner(run: PipelineRunner, telemetry: { log?: Logger; metrics?: Metrics }): PipelineRunner {
  const { log, metrics } = telemetry;
  if (!log && !metrics) return run;
  return async (input, ctx) => {
    const transaction_id = ctx.meta.transaction_id;
    const steps = stepTimer(({ step, done, total, seconds }) => {
      metrics?.stepDuration.observe({ step }, seconds);
      if (step === "ocr") metrics?.ocrSeconds.inc(seconds);
      log?.debug(
        { event: "step_finished", transaction_id, step, done, total, duration_ms: Math.round(seconds * 1000) },
        `${step} finished`,
      );
    });
    const onProgress: typeof ctx.onProgress = (step, done, total) => {
      steps.progress(step, done, total);
      ctx.onProgress(step, done, total);
    };
    try {
      const result = await run(input, { ...ctx, onProgress });
      steps.close();
      for (const p of result.pages) metrics?.pages.inc({ text_source: String(p.text_source ?? "none") });
      return result;
    } catch (err) {
      steps.close();
      throw err;
    }
  };
}
