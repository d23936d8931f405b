/**
 * The core pipeline runner on its own thread (issue 21: never block the API). Same contract as
 * `corePipelineRunner` (pipeline-runner.ts); the work happens in pipeline-thread.ts.
 *
 * Why: the pipeline is CPU-bound JavaScript for long stretches (10 MB of supplied text held the HTTP thread for
 * 13.5 s, /health included). On its own thread the server keeps answering whatever a job costs.
 *
 * Cancellation: an aborted job's signal is forwarded at once, and the loops of conversion, OCR and export stop at
 * their next check. A job still running `HARD_STOP_MS` after its abort (a loop without a check, a parser stuck in
 * a synchronous call) ends with the whole thread when every job on it was aborted: the thread is terminated (its
 * CPU stops) and started again for the next job; its aborted jobs fail with their abort reason.
 */
import { DocprocError } from "../core/errors";
import type { TransactionInput } from "../core/model";
import type { CorePipelineRunner, RunContext, QueueRunOutcome } from "./pipeline-runner";
import { textsFromTransfer } from "../storage/run-json";
import { errorFromWire, errorToWire, type ThreadIn, type ThreadOut } from "./thread-protocol";

const HARD_STOP_MS = 1_000;
const threadUrl = new URL("./pipeline-thread.ts", import.meta.url).href;

interface Job {
  ctx: RunContext & { notify?: (e: unknown) => Promise<unknown> };
  resolve(r: QueueRunOutcome): void;
  reject(e: unknown): void;
  aborted: boolean;
  onAbort: () => void;
}

export function threadedPipelineRunner(options: Record<string, unknown> = {}): CorePipelineRunner {
  let thread: Worker | null = null;
  let status: ReturnType<CorePipelineRunner["ocrStatus"]> = { status: "idle" };
  const jobs = new Map<number, Job>();
  let nextId = 1;
  let closing: (() => void) | null = null;

  const send = (msg: ThreadIn) => thread?.postMessage(msg);

  function start(): Worker {
    if (thread) return thread;
    // The name is the thread's name in /proc (top -H, the serve benchmark's CPU per thread).
    const t = new Worker(threadUrl, { type: "module", name: "docproc-pipe" } as WorkerOptions);
    t.onmessage = (event: MessageEvent<ThreadOut>) => receive(event.data);
    t.onerror = (event: ErrorEvent) =>
      stopThread(new DocprocError("internal", `pipeline thread failed: ${event.message}`, { retryable: true }));
    thread = t;
    t.postMessage({ type: "init", options } satisfies ThreadIn);
    return t;
  }

  /** Ends the thread (its CPU with it) and fails whatever ran on it. */
  function stopThread(reason: unknown): void {
    const t = thread;
    thread = null;
    t?.terminate();
    for (const [id, job] of jobs) {
      jobs.delete(id);
      job.ctx.signal.removeEventListener("abort", job.onAbort);
      job.reject(job.aborted ? abortReason(job.ctx.signal) : reason);
    }
    status = { status: "idle" };
  }

  function receive(msg: ThreadOut): void {
    switch (msg.type) {
      case "progress":
        jobs.get(msg.id)?.ctx.onProgress(msg.step as never, msg.done, msg.total);
        break;
      case "notify": {
        const notify = jobs.get(msg.id)?.ctx.notify;
        Promise.resolve()
          .then(() => (notify ? notify(msg.event) : undefined))
          .then(
            (value) => send({ type: "notified", call: msg.call, ok: true, value }),
            (err) => send({ type: "notified", call: msg.call, ok: false, error: errorToWire(err) }),
          );
        break;
      }
      case "done": {
        const job = jobs.get(msg.id);
        if (!job) break;
        jobs.delete(msg.id);
        job.ctx.signal.removeEventListener("abort", job.onAbort);
        if (msg.ok) job.resolve(withTexts(msg.result as QueueRunOutcome));
        else job.reject(job.aborted ? abortReason(job.ctx.signal) : errorFromWire(msg.error));
        break;
      }
      case "ocr":
        status = msg.status;
        break;
      case "closed":
        closing?.();
        break;
    }
  }

  const run = (input: TransactionInput, ctx: RunContext): Promise<QueueRunOutcome> => {
    if (ctx.signal.aborted) return Promise.reject(abortReason(ctx.signal));
    start();
    const id = nextId++;
    const { signal: _s, onProgress: _p, checkpoint, ...rest } = ctx as RunContext & { notify?: unknown };
    const data = { ...rest, notify: undefined };
    return new Promise<QueueRunOutcome>((resolve, reject) => {
      const job: Job = {
        ctx: ctx as Job["ctx"],
        resolve,
        reject,
        aborted: false,
        onAbort: () => {
          job.aborted = true;
          send({ type: "abort", id, reason: errorToWire(abortReason(ctx.signal)) });
          setTimeout(() => {
            // Still running a second after its abort: when nothing else on the thread still wants to finish,
            // the thread goes (terminate() stops even a synchronous loop).
            if (jobs.has(id) && [...jobs.values()].every((j) => j.aborted)) stopThread(abortReason(ctx.signal));
          }, HARD_STOP_MS).unref?.();
        },
      };
      jobs.set(id, job);
      ctx.signal.addEventListener("abort", job.onAbort, { once: true });
      send({ type: "run", id, input, ctx: data, notify: typeof (ctx as { notify?: unknown }).notify === "function" });
      // A checkpoint request (graceful shutdown) crosses as a message: the run stops at its next safe point.
      const onCheckpoint = () => send({ type: "checkpoint", id });
      if (checkpoint?.aborted) onCheckpoint();
      else checkpoint?.addEventListener("abort", onCheckpoint, { once: true });
    });
  };

  return {
    run,
    ocrStatus: () => status,
    warm() {
      start();
      send({ type: "warm" });
    },
    async close() {
      if (!thread) return;
      const closed = new Promise<void>((resolve) => (closing = resolve));
      send({ type: "close" });
      await Promise.race([closed, Bun.sleep(10_000)]);
      stopThread(new DocprocError("timeout", "the server is shutting down", { retryable: true }));
    },
  };
}

/** The run's JSON texts arrive as bytes (moved, not copied: pipeline-thread.ts); the queue stores strings. */
function withTexts(result: QueueRunOutcome): QueueRunOutcome {
  return result.json ? { ...result, json: textsFromTransfer(result.json) } : result;
}

function abortReason(signal: AbortSignal): unknown {
  const reason = signal.reason;
  if (reason instanceof Error) return reason;
  return new DocprocError("timeout", "processing was aborted", { retryable: true, cause: reason });
}
