/**
 * Whether to colour terminal output, on its own so the CLI's colours (src/cli/colour.ts) do not load pino and
 * pino-pretty (src/telemetry/log.ts) into every `docproc process`.
 */

/** https://no-color.org: any non-empty NO_COLOR turns colour off; so do a pipe and TERM=dumb. */
export function colourWanted(
  isTTY: boolean | undefined,
  env: Record<string, string | undefined> = process.env,
): boolean {
  return !!isTTY && !env.NO_COLOR && env.TERM !== "dumb";
}
