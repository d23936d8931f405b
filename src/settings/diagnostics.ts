/**
 * Diagnostics variables: read by every CLI run at exit, so they live apart from the zod schema of env.ts, whose
 * import (zod, the settings slices, the mail and proxy parsers) measured ~0.5 s under load: a cost `docproc
 * --version` must not pay. They change no behaviour, only what is written for benchmarks; a stray bad serve setting
 * MUST NOT stop `docproc process` either, which is why they are not part of loadEnvSettings().
 */
export const DIAGNOSTICS_VARIABLES = [
  { name: "DOCPROC_STAGE_TIMES", description: "file the CLI writes per-stage times to at exit (bench/job.ts)" },
] as const;

/** The file named by DOCPROC_STAGE_TIMES, if any (blank counts as unset). */
export function stageTimesFile(env: Record<string, string | undefined> = process.env): string | undefined {
  return env.DOCPROC_STAGE_TIMES?.trim() || undefined;
}
