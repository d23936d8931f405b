/**
 * The pipeline thread: a Bun Worker that hosts the core pipeline runner for `threadedPipelineRunner`
 * (threaded-runner.ts). Everything CPU-heavy of a transaction (conversion, OCR orchestration, split, extraction,
 * exports) runs here, so the thread that serves HTTP only ever waits for messages.
 *
 * Protocol (structured clone; no functions cross):
 *   in:  init {options} · run {id, input, ctx (data only), notify: boolean} · abort {id, reason} · checkpoint {id}
 *        · notified {call, ok, value|error}
 *        · warm · close
 *   out: progress {id, step, done, total} · notify {id, call, event} · done {id, ok, result|error} · ocr {status}
 *        · closed
 */
import { DocprocError } from "../core/errors";
import type { TransactionInput } from "../core/model";
import { corePipelineRunner, type RunContext } from "./pipeline-runner";
import { outcomeForTransfer } from "./outcome-transfer";
import { errorFromWire, errorToWire, type ThreadIn, type ThreadOut } from "./thread-protocol";

declare const self: Worker;

let options: Parameters<typeof corePipelineRunner>[0] = {};
let runner: ReturnType<typeof corePipelineRunner> | null = null;
const jobs = new Map<number, AbortController>();
/** Checkpoint requests (graceful shutdown) per job: the run stops at its next safe point. */
const checkpoints = new Map<number, AbortController>();
const calls = new Map<number, { resolve(v: unknown): void; reject(e: unknown): void }>();
let nextCall = 1;
let lastStatus = "";

const post = (msg: ThreadOut) => self.postMessage(msg);

function core() {
  runner ??= corePipelineRunner(options);
  return runner;
}

/** /health reads the OCR engine's state on the HTTP thread: it is pushed there whenever it changes. */
function reportStatus(): void {
  if (!runner) return;
  const status = runner.ocrStatus();
  const key = JSON.stringify(status);
  if (key === lastStatus) return;
  lastStatus = key;
  post({ type: "ocr", status });
}
setInterval(reportStatus, 250).unref?.();

async function run(msg: Extract<ThreadIn, { type: "run" }>): Promise<void> {
  const ctrl = new AbortController();
  const checkpoint = new AbortController();
  jobs.set(msg.id, ctrl);
  checkpoints.set(msg.id, checkpoint);
  const ctx = {
    ...(msg.ctx as object),
    signal: ctrl.signal,
    checkpoint: checkpoint.signal,
    onProgress: (step: string, done: number, total: number) =>
      post({ type: "progress", id: msg.id, step, done, total }),
  } as RunContext & Record<string, unknown>;
  if (msg.notify) {
    // A Notification node reached mid-run: the HTTP thread owns the database, so it enqueues the delivery.
    ctx.notify = (event: unknown) =>
      new Promise((resolve, reject) => {
        const call = nextCall++;
        calls.set(call, { resolve, reject });
        post({ type: "notify", id: msg.id, call, event });
      });
  }
  try {
    const result = await core().run(msg.input as TransactionInput, ctx);
    // The results file and run state texts (~12 MB each for 500 pages) and the documents' JSON are moved, not
    // copied (outcome-transfer.ts).
    const { wire, transfer } = outcomeForTransfer(result);
    self.postMessage({ type: "done", id: msg.id, ok: true, result: wire } satisfies ThreadOut, transfer);
  } catch (err) {
    post({ type: "done", id: msg.id, ok: false, error: errorToWire(err) });
  } finally {
    jobs.delete(msg.id);
    checkpoints.delete(msg.id);
    reportStatus();
  }
}

self.onmessage = (event: MessageEvent<ThreadIn>) => {
  const msg = event.data;
  switch (msg.type) {
    case "init":
      options = msg.options as typeof options;
      break;
    case "run":
      void run(msg);
      break;
    case "abort":
      jobs.get(msg.id)?.abort(errorFromWire(msg.reason));
      break;
    case "checkpoint":
      checkpoints.get(msg.id)?.abort();
      break;
    case "notified": {
      const call = calls.get(msg.call);
      calls.delete(msg.call);
      if (call) msg.ok ? call.resolve(msg.value) : call.reject(errorFromWire(msg.error));
      break;
    }
    case "warm":
      core().warm();
      break;
    case "close":
      for (const ctrl of jobs.values())
        ctrl.abort(new DocprocError("timeout", "the server is shutting down", { retryable: true }));
      void (runner?.close() ?? Promise.resolve()).finally(() => post({ type: "closed" }));
      break;
  }
};
post({ type: "ready" });
