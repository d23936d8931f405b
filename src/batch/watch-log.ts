/**
 * `docproc watch`'s log: its events and step timings as the structured lines `serve` and `worker` write
 * (pino, src/telemetry/log.ts; the event vocabulary is in docs/operations.md). Each line's `msg` is the
 * human sentence the pretty format shows.
 *
 * Contract: lines carry file paths (the operator's own folders), transaction ids, step names, counts, durations and
 * error codes with docproc's own error messages; never file contents, extracted values or anything from the
 * environment.
 */
import path from "node:path";
import type { Logger } from "../telemetry/log";
import { stepTimer, type StepTimer } from "../telemetry/steps";
import type { WatchEvent } from "./watch-types";

/** One file's run in the log: `kind` as the server's job lines say it. */
const KIND = "watch_file";

export interface WatchLog {
  event(e: WatchEvent): void;
  progress(transactionId: string, step: string, done: number, total: number): void;
}

export function watchLog(log: Logger, cwd = process.cwd()): WatchLog {
  const rel = (f: string) => path.relative(cwd, f) || f;
  const running = new Map<string, StepTimer>();
  const timerOf = (transaction_id: string) => {
    let t = running.get(transaction_id);
    if (!t) {
      t = stepTimer(({ step, done, total, seconds }) =>
        log.debug(
          { event: "step_finished", transaction_id, step, done, total, duration_ms: Math.round(seconds * 1000) },
          `${step} finished`,
        ),
      );
      running.set(transaction_id, t);
    }
    return t;
  };
  const end = (transaction_id: string) => {
    running.get(transaction_id)?.close();
    running.delete(transaction_id);
  };

  return {
    progress: (id, step, done, total) => timerOf(id).progress(step, done, total),
    event(e) {
      switch (e.event) {
        case "watching":
          log.info(
            { event: "watching", dirs: e.dirs, polling: e.polling, reason: e.reason },
            `watching ${e.dirs.map(rel).join(", ")} (${e.polling ? "polling" : "inotify"}; ${e.reason})`,
          );
          break;
        case "taken":
          timerOf(e.transaction_id);
          log.info(
            { event: "job_started", kind: KIND, transaction_id: e.transaction_id, file: e.file, retaken: e.retaken },
            `taken ${rel(e.file)}${e.retaken ? " (again: the previous run was interrupted)" : ""}`,
          );
          break;
        case "done":
        case "failed":
          end(e.transaction_id);
          logFinished(log, rel, e);
          break;
        case "skipped":
          logSkipped(log, rel, e);
          break;
        case "changed":
          log.warn(
            { event: "file_changed", file: e.file, transaction_id: e.transaction_id },
            `changed ${rel(e.file)}: written to while it was processed; it will be taken again once stable`,
          );
          break;
        case "error":
          log.error(
            { event: "watch_error", file: e.file, error: e.message },
            `${e.file ? `${rel(e.file)}: ` : ""}${e.message}`,
          );
          break;
        case "stopped":
          log.info({ event: "stopped" }, "stopped");
          break;
      }
    },
  };
}

type Rel = (file: string) => string;

function logFinished(log: Logger, rel: Rel, e: Extract<WatchEvent, { event: "done" | "failed" }>): void {
  if (e.event === "done") {
    log.info(
      {
        event: "job_completed",
        kind: KIND,
        transaction_id: e.transaction_id,
        file: e.file,
        documents: e.documents,
        warnings: e.warnings.length,
        duration_ms: Math.round(e.seconds * 1000),
        results_file: e.results_file,
        moved_to: e.moved_to,
      },
      `done ${rel(e.file)} → ${e.results_file ? rel(e.results_file) : e.transaction_id} (${e.documents} document${e.documents === 1 ? "" : "s"}, ${e.seconds.toFixed(1)} s)`,
    );
    return;
  }
  const error = (e.error ?? "").split("\n")[0];
  log.error(
    {
      event: "job_failed",
      kind: KIND,
      transaction_id: e.transaction_id,
      file: e.file,
      error_code: e.error_code ?? "internal",
      error,
      duration_ms: Math.round(e.seconds * 1000),
      moved_to: e.moved_to,
    },
    `failed ${rel(e.file)}: ${error}${e.moved_to ? ` → ${rel(e.moved_to)}` : ""}`,
  );
}

function logSkipped(log: Logger, rel: Rel, e: Extract<WatchEvent, { event: "skipped" }>): void {
  if (e.reason === "not_a_document") {
    log.info(
      { event: "file_skipped", file: e.file, reason: e.reason, detail: e.detail },
      `skipped ${rel(e.file)}: ${e.detail}`,
    );
    return;
  }
  log.info(
    {
      event: "file_skipped",
      file: e.file,
      reason: e.reason,
      status: e.status,
      transaction_id: e.transaction_id,
      moved_to: e.moved_to,
    },
    `skipped ${rel(e.file)}: ${e.reason === "duplicate" ? "same content as a file just processed" : `already ${e.status}`} (transaction ${e.transaction_id})`,
  );
}
