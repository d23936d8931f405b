/** The logger of a long-running command: its `--log-format` / `--log-level` flags (src/cli/flags.ts) over the environment's. */
import { createLogger, defaultLogFormat, type LogFormat, type Logger, type LogLevel } from "./log";

export interface LogSettings {
  format?: LogFormat;
  level?: LogLevel;
}

export function loggerFromFlags(flags: { "log-format"?: string; "log-level"?: string }, component: string, env: LogSettings = {}): Logger {
  const format = (flags["log-format"] as LogFormat | undefined) ?? env.format ?? defaultLogFormat();
  const level = (flags["log-level"] as LogLevel | undefined) ?? env.level ?? "info";
  return createLogger({ format, level }).child({ component });
}
