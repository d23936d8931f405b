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
import { outcomeFromTransfer, type OutcomeOnWire } from "./outcome-transfer";
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
  const r = new ThreadedRunner(options);
  return {
    run: (input, ctx) => r.run(input, ctx),
    ocrStatus: () => r.status,
    warm: () => r.warm(),
    close: () => r.close(),
  };
}

/** The thread and the jobs running on it. */
class ThreadedRunner {
  private thread: Worker | null = null;
  status: ReturnType<CorePipelineRunner["ocrStatus"]> = { status: "idle" };
  private readonly jobs = new Map<number, Job>();
  private nextId = 1;
  private closing: (() => void) | null = null;

  constructor(private readonly options: Record<string, unknown>) {}

  private send(msg: ThreadIn): void {
    this.thread?.postMessage(msg);
  }

  private start(): Worker {
    if (this.thread) return this.thread;
    // The name is the thread's name in /proc (top -H, the serve benchmark's CPU per thread).
    const t = new Worker(threadUrl, { type: "module", name: "docproc-pipe" } as WorkerOptions);
    t.onmessage = (event: MessageEvent<ThreadOut>) => this.receive(event.data);
    t.onerror = (event: ErrorEvent) =>
      this.stopThread(new DocprocError("internal", `pipeline thread failed: ${event.message}`, { retryable: true }));
    this.thread = t;
    t.postMessage({ type: "init", options: this.options } satisfies ThreadIn);
    return t;
  }

  /** Ends the thread (its CPU with it) and fails whatever ran on it. */
  private stopThread(reason: unknown): void {
    const t = this.thread;
    this.thread = null;
    t?.terminate();
    for (const [id, job] of this.jobs) {
      this.jobs.delete(id);
      job.ctx.signal.removeEventListener("abort", job.onAbort);
      job.reject(job.aborted ? abortReason(job.ctx.signal) : reason);
    }
    this.status = { status: "idle" };
  }

  private receive(msg: ThreadOut): void {
    switch (msg.type) {
      case "progress":
        this.jobs.get(msg.id)?.ctx.onProgress(msg.step as never, msg.done, msg.total);
        break;
      case "notify": {
        const notify = this.jobs.get(msg.id)?.ctx.notify;
        Promise.resolve()
          .then(() => (notify ? notify(msg.event) : undefined))
          .then(
            (value) => this.send({ type: "notified", call: msg.call, ok: true, value }),
            (err) => this.send({ type: "notified", call: msg.call, ok: false, error: errorToWire(err) }),
          );
        break;
      }
      case "done": {
        const job = this.jobs.get(msg.id);
        if (!job) break;
        this.jobs.delete(msg.id);
        job.ctx.signal.removeEventListener("abort", job.onAbort);
        // The run's JSON texts and documents arrive as bytes (moved, not copied: outcome-transfer.ts).
        if (msg.ok) job.resolve(outcomeFromTransfer(msg.result as OutcomeOnWire));
        else job.reject(job.aborted ? abortReason(job.ctx.signal) : errorFromWire(msg.error));
        break;
      }
      case "ocr":
        this.status = msg.status;
        break;
      case "closed":
        this.closing?.();
        break;
    }
  }

  run(input: TransactionInput, ctx: RunContext): Promise<QueueRunOutcome> {
    if (ctx.signal.aborted) return Promise.reject(abortReason(ctx.signal));
    this.start();
    const id = this.nextId++;
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
          this.send({ type: "abort", id, reason: errorToWire(abortReason(ctx.signal)) });
          setTimeout(() => {
            // Still running a second after its abort: when nothing else on the thread still wants to finish,
            // the thread goes (terminate() stops even a synchronous loop).
            if (this.jobs.has(id) && [...this.jobs.values()].every((j) => j.aborted))
              this.stopThread(abortReason(ctx.signal));
          }, HARD_STOP_MS).unref?.();
        },
      };
      this.jobs.set(id, job);
      ctx.signal.addEventListener("abort", job.onAbort, { once: true });
      this.send({
        type: "run",
        id,
        input,
        ctx: data,
        notify: typeof (ctx as { notify?: unknown }).notify === "function",
      });
      // A checkpoint request (graceful shutdown) crosses as a message: the run stops at its next safe point.
      const onCheckpoint = () => this.send({ type: "checkpoint", id });
      if (checkpoint?.aborted) onCheckpoint();
      else checkpoint?.addEventListener("abort", onCheckpoint, { once: true });
    });
  }

  warm(): void {
    this.start();
    this.send({ type: "warm" });
  }

  async close(): Promise<void> {
    if (!this.thread) return;
    const closed = new Promise<void>((resolve) => (this.closing = resolve));
    this.send({ type: "close" });
    await Promise.race([closed, Bun.sleep(10_000)]);
    this.stopThread(new DocprocError("timeout", "the server is shutting down", { retryable: true }));
  }
}

function abortReason(signal: AbortSignal): unknown {
  const reason = signal.reason;
  if (reason instanceof Error) return reason;
  return new DocprocError("timeout", "processing was aborted", { retryable: true, cause: reason });
}
