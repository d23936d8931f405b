/** The logger of a long-running command: its `--log-format` / `--log-level` / `--quiet` / `--verbose` flags (src/cli/flags.ts) over the environment's. */
import { createLogger, defaultLogFormat, type LogFormat, type Logger, type LogLevel } from "./log";

export interface LogSettings {
  format?: LogFormat;
  level?: LogLevel;
}

export function loggerFromFlags(
  flags: { "log-format"?: string; "log-level"?: string; quiet?: boolean; verbose?: boolean },
  component: string,
  env: LogSettings = {},
): Logger {
  const format = (flags["log-format"] as LogFormat | undefined) ?? env.format ?? defaultLogFormat();
  // --quiet / --verbose are --log-level warn / debug in the words every command shares.
  const chosen = flags.quiet ? "warn" : flags.verbose ? "debug" : (flags["log-level"] as LogLevel | undefined);
  const level = chosen ?? env.level ?? "info";
  return createLogger({ format, level }).child({ component });
}
