/** Messages between the HTTP thread and the pipeline thread (pipeline-thread.ts), and errors on the wire. */
import { DocprocError, type ErrorCode } from "../core/errors";

export interface WireError {
  name: string;
  message: string;
  code?: string;
  stage?: string;
  retryable?: boolean;
  details?: Record<string, unknown>;
}

export type ThreadIn =
  | { type: "init"; options: Record<string, unknown> }
  | { type: "run"; id: number; input: unknown; ctx: unknown; notify: boolean }
  | { type: "abort"; id: number; reason: WireError }
  | { type: "checkpoint"; id: number }
  | { type: "notified"; call: number; ok: boolean; value?: unknown; error?: WireError }
  | { type: "warm" }
  | { type: "close" };

export type ThreadOut =
  | { type: "ready" }
  | { type: "progress"; id: number; step: string; done: number; total: number }
  | { type: "notify"; id: number; call: number; event: unknown }
  | { type: "done"; id: number; ok: boolean; result?: unknown; error?: WireError }
  | {
      type: "ocr";
      status: { status: "idle" | "loading" | "ready" | "error"; engine?: string; error?: string; engines?: string[] };
    }
  | { type: "closed" };

/** DocprocErrors keep code, stage, retryable and (cloneable) details across the thread boundary. */
export function errorToWire(err: unknown): WireError {
  if (err instanceof DocprocError) {
    let details: Record<string, unknown> | undefined;
    try {
      details = err.details ? structuredClone(err.details) : undefined;
    } catch {
      details = undefined;
    }
    return {
      name: err.name,
      message: err.message,
      code: err.code,
      stage: err.stage,
      retryable: err.retryable,
      details,
    };
  }
  const e = err as { name?: string; message?: string } | null;
  return { name: e?.name ?? "Error", message: e?.message ?? String(err) };
}

export function errorFromWire(w: WireError | undefined): Error {
  if (!w) return new Error("unknown error");
  if (w.code)
    return new DocprocError(w.code as ErrorCode, w.message, {
      stage: w.stage,
      retryable: w.retryable,
      details: w.details,
    });
  const err = new Error(w.message);
  err.name = w.name;
  return err;
}
