/**
 * Structured logs (pino) on stderr for `serve`, `worker` and `watch`: one JSON object per line, or pino-pretty's
 * human layout, one line per event too (docs/operations.md).
 *
 * Contract: callers log identifiers, codes, counts and durations only. A log line MUST NOT carry an API key, a
 * token, a password, file contents or an extracted value; the `redact` list below is a second line of defence for
 * the few field names that could hold one by mistake, not a licence to pass request objects in.
 */
import pino, { type Logger } from "pino";
import pretty from "pino-pretty";
import { colourWanted } from "./colour";

export type { Logger } from "pino";

export const LOG_FORMATS = ["json", "pretty"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Field names whose values never reach the output, wherever they appear (one or two levels deep). */
const REDACT = [
  "key",
  "api_key",
  "apiKey",
  "token",
  "password",
  "passwords",
  "secret",
  "authorization",
  "headers",
  "value",
  "text",
];
const redactPaths = REDACT.flatMap((k) => [k, `*.${k}`]);

export interface LoggerOptions {
  format?: LogFormat;
  level?: LogLevel;
  /** Where lines go (tests pass a collecting stream); default stderr, written synchronously so none is lost at exit. */
  stream?: NodeJS.WritableStream | { write(line: string): unknown };
  /** Colour in pretty output; default: stderr is a terminal and NO_COLOR is unset. */
  colour?: boolean;
}

export { colourWanted } from "./colour";

export function createLogger(opts: LoggerOptions = {}): Logger {
  const options: pino.LoggerOptions = {
    level: opts.level ?? "info",
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: redactPaths, censor: "[redacted]" },
    formatters: { level: (label) => ({ level: label }) },
  };
  if (opts.format === "pretty") {
    const colorize = opts.colour ?? colourWanted(process.stderr.isTTY);
    const destination = (opts.stream as NodeJS.WritableStream | undefined) ?? 2;
    // One line per event (issue 37): the sentence, then the fields a person may want, compact on the same line.
    return pino(
      options,
      pretty({
        destination,
        sync: true,
        colorize,
        translateTime: "SYS:HH:MM:ss.l",
        singleLine: true,
        ignore: "pid,hostname,component,event",
        messageFormat: "{if component}{component}: {end}{msg}",
      }),
    );
  }
  const dest = opts.stream ?? pino.destination({ dest: 2, sync: true });
  return pino(options, dest as pino.DestinationStream);
}

/** A logger that writes nothing (library code and tests that do not look at logs). */
export const silentLogger: Logger = pino({ level: "silent" });

/**
 * `--log-format` default: pretty on a terminal, JSON lines otherwise (a container, systemd, a pipe), so log
 * collectors always get JSON unless a person asks for the other.
 */
export function defaultLogFormat(isTTY = !!process.stderr.isTTY): LogFormat {
  return isTTY ? "pretty" : "json";
}

/** The error code of a failure for a log line (never the message of a foreign error, which may quote input). */
export function errorFields(err: unknown): { error_code: string; error?: string } {
  const e = err as { code?: unknown; message?: unknown; name?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : "internal";
  // DocprocError messages are written by us and name files and limits, not contents; others are reduced to a name.
  const isOurs = e !== null && typeof e === "object" && (e as { name?: unknown }).name === "DocprocError";
  return isOurs
    ? { error_code: code, error: String(e!.message) }
    : { error_code: code, error: typeof e?.name === "string" ? e.name : "Error" };
}
