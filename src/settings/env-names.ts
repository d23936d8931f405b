/**
 * The names of docproc's environment variables, without their schema: every command checks the environment for
 * misspelt DOCPROC_* names at start (src/cli.ts), and importing env.ts's zod schema costs ~0.3 s, more than a small
 * `docproc process` run. test/settings/strict.test.ts keeps this list equal to EnvSchema's keys.
 */
import { didYouMean } from "../core/suggest";
import { DIAGNOSTICS_VARIABLES } from "./diagnostics";

/** EnvSchema's variables (src/settings/env.ts), in its order. */
export const SETTINGS_VARIABLES = [
  "ADMIN_API_KEY",
  "DOCPROC_HOST",
  "DOCPROC_PORT",
  "DOCPROC_DATA",
  "DOCPROC_DATABASE_URL",
  "DOCPROC_MAX_BODY_MB",
  "DOCPROC_MAX_FILE_MB",
  "DOCPROC_MAX_FILES",
  "DOCPROC_MAX_QUEUE_DEPTH",
  "DOCPROC_MAX_LONG_POLL_SECONDS",
  "DOCPROC_MAX_DOCUMENT_TEXT_MB",
  "DOCPROC_MAX_OCR_DATA_MB",
  "DOCPROC_MAX_PUBLIC_UPLOADS",
  "DOCPROC_MAX_CAPTURE_FILES_FIRST_MB",
  "DOCPROC_LEASE_SECONDS",
  "DOCPROC_JOB_TIMEOUT_SECONDS",
  "DOCPROC_PUBLIC_URL",
  "DOCPROC_WEBHOOK_ALLOW",
  "DOCPROC_CAPTURE_MAX_PAGES",
  "DOCPROC_RATE_LIMIT_PER_MINUTE",
  "DOCPROC_RATE_LIMIT_PER_HOUR",
  "DOCPROC_ASYNC_LIMIT_PER_HOUR",
  "DOCPROC_SESSION_HOURS",
  "DOCPROC_SESSION_IDLE_MINUTES",
  "DOCPROC_TRUST_PROXY",
  "DOCPROC_METRICS_TOKEN",
  "DOCPROC_LOG_FORMAT",
  "DOCPROC_LOG_LEVEL",
  "DOCPROC_SECRET_KEY",
  "DOCPROC_MAIL_LEASE_SECONDS",
  "DOCPROC_STORAGE_URL",
  "AWS_ENDPOINT_URL_S3",
  "AWS_ENDPOINT_URL",
  "AWS_REGION",
  "AWS_DEFAULT_REGION",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_SESSION_TOKEN",
  "DOCPROC_S3_VIRTUAL_HOSTED",
  "DOCPROC_MAIL_MAX_ATTEMPTS",
] as const;

/**
 * DOCPROC_* variables read outside the schema: by a command's flag (`env:` in oclif), by the test suite, the bench
 * and CI (they reach docproc's environment when those run it).
 * A variable a command reads MUST be in EnvSchema, DIAGNOSTICS_VARIABLES or here, or setting it is an error.
 */
export const OTHER_VARIABLES = [
  "DOCPROC_API_KEY",
  "DOCPROC_TESSDATA",
  "DOCPROC_TEST_BACKEND",
  "DOCPROC_TEST_POSTGRES_URL",
  "DOCPROC_CI_ALONE",
  "DOCPROC_BENCH_BIN",
  "DOCPROC_BUILD_COMMIT",
];

/**
 * A DOCPROC_* variable docproc does not read is a typo until shown otherwise (a misspelt public URL variable would
 * leave the capture QR on localhost without a word). Names ending in _PASSWORD are exempt: `mail add
 * --password-env` reads a variable of the user's choosing.
 */
export function unknownVariables(env: Record<string, string | undefined>): string[] {
  const known: string[] = [...SETTINGS_VARIABLES, ...DIAGNOSTICS_VARIABLES.map((v) => v.name), ...OTHER_VARIABLES];
  return Object.keys(env)
    .filter((name) => name.startsWith("DOCPROC_") && !name.endsWith("_PASSWORD") && !known.includes(name))
    .sort()
    .map((name) => `${name} is not a docproc setting.${didYouMean(name, known)}`);
}
