/**
 * The work behind `docproc watch`: validate folders, load the project, start the hot folder, log events, and stop
 * cleanly on SIGTERM/SIGINT (exit 0). Usage and configuration problems throw DocprocError before anything starts.
 *
 * Output: the log on stderr (pino, the lines serve and worker write: src/batch/watch-log.ts), and with `--json` one
 * JSON object per event on stdout for scripts (docs/watch.md).
 */
import { mkdir, stat } from "node:fs/promises";
import { cpuCount } from "../core/cores";
import { DocprocError } from "../core/errors";
import { defaultProject, loadProjectFile } from "../core/project";
import { LOG_FORMATS, LOG_LEVELS, type LogFormat, type LogLevel } from "../telemetry/log";
import { loggerFromFlags } from "../telemetry/cli";
import { watchLog } from "./watch-log";
import type { WatchEvent } from "./watch-types";
import { startWatch } from "./watcher";

export interface WatchCommandOptions {
  dirs: string[];
  project?: string;
  out: string;
  data: string;
  poll: boolean;
  stableMs: number;
  processed?: string;
  failed?: string;
  keep: boolean;
  retryFailed?: boolean;
  concurrency?: number;
  json: boolean;
  ocrEngine?: "auto" | "wasm" | "native";
  logFormat?: string;
  logLevel?: string;
  nameBy?: "transaction" | "source";
}

export async function runWatchCommand(opts: WatchCommandOptions): Promise<number> {
  for (const dir of opts.dirs) {
    const info = await stat(dir).catch(() => null);
    if (!info?.isDirectory()) throw new DocprocError("invalid_input", `not a folder: ${dir}`);
  }
  const project = opts.project ? await loadProjectFile(opts.project) : defaultProject;
  await mkdir(opts.out, { recursive: true });
  const logger = loggerFromFlags(
    { "log-format": opts.logFormat, "log-level": opts.logLevel },
    "watch",
    logSettingsFromEnv(),
  );
  const wlog = watchLog(logger);
  const log = (e: WatchEvent) => {
    if (opts.json) process.stdout.write(JSON.stringify({ time: new Date().toISOString(), ...e }) + "\n");
    wlog.event(e);
  };
  const handle = startWatch(
    {
      dirs: opts.dirs,
      outDir: opts.out,
      dataDir: opts.data,
      project,
      poll: opts.poll,
      stableMs: opts.stableMs,
      processedDir: opts.processed,
      failedDir: opts.failed,
      keep: opts.keep,
      retryFailed: opts.retryFailed,
      concurrency: opts.concurrency ?? cpuCount(),
      ocrEngine: opts.ocrEngine,
      onProgress: wlog.progress,
      nameBy: opts.nameBy,
    },
    log,
  );
  const signal = new Promise<string>((resolve) => {
    process.once("SIGTERM", () => resolve("SIGTERM"));
    process.once("SIGINT", () => resolve("SIGINT"));
  });
  // A hot folder runs for days: two pdf.js workers kept ready (as serve does) split long PDFs between them.
  const pdf = import("../core/engines/pdf/pdf-client");
  void pdf.then((m) => m.prewarmPdfWorkers(2)).catch(() => undefined);
  await handle.ready;
  const sig = await signal;
  logger.info({ event: "shutdown", signal: sig }, `${sig}: finishing the files in hand`);
  await handle.stop();
  (await pdf.catch(() => null))?.closeIdlePdfWorkers();
  return 0;
}

/**
 * DOCPROC_LOG_FORMAT and DOCPROC_LOG_LEVEL, read alone: watch does not load the server's settings (a stray bad serve
 * variable must not stop it). A bad value is a usage error, like a bad flag.
 */
function logSettingsFromEnv(env: Record<string, string | undefined> = process.env): {
  format?: LogFormat;
  level?: LogLevel;
} {
  const pick = <T extends string>(name: string, allowed: readonly T[]): T | undefined => {
    const v = env[name]?.trim();
    if (!v) return undefined;
    if (!allowed.includes(v as T))
      throw new DocprocError("invalid_input", `${name} must be one of ${allowed.join(", ")}, got "${v}"`);
    return v as T;
  };
  return { format: pick("DOCPROC_LOG_FORMAT", LOG_FORMATS), level: pick("DOCPROC_LOG_LEVEL", LOG_LEVELS) };
}
