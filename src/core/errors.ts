/**
 * One error type for the whole project. `code` is stable (clients and scripts may branch on it); `stage` names the
 * pipeline stage that failed; `retryable` tells the queue whether another attempt may succeed.
 * HTTP status and CLI exit codes are mapped once, here.
 */
export type ErrorCode =
  | "invalid_input" // request or argument validation
  | "invalid_settings"
  | "unsupported_format"
  | "corrupt_file"
  | "empty_file"
  | "encrypted_file" // password needed
  | "wrong_password"
  | "too_large" // pixel dimensions, page count or bytes beyond limits
  | "timeout"
  | "ocr_failed"
  | "not_found"
  | "conflict" // e.g. start outside `created`
  | "stale_version" // a write based on an older version of the data (human review): reload and retry
  | "unauthorized"
  | "forbidden"
  | "rate_limited"
  | "queue_full"
  | "locked" // another batch holds the data directory
  | "export_failed"
  | "delivery_failed"
  | "ssrf_blocked"
  | "internal";

export class DocprocError extends Error {
  readonly code: ErrorCode;
  readonly stage?: string;
  readonly retryable: boolean;
  readonly details?: Record<string, unknown>;

  constructor(
    code: ErrorCode,
    message: string,
    opts: { stage?: string; retryable?: boolean; cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = "DocprocError";
    this.code = code;
    this.stage = opts.stage;
    this.retryable = opts.retryable ?? false;
    this.details = opts.details;
  }
}

const HTTP_STATUS: Record<ErrorCode, number> = {
  invalid_input: 400,
  invalid_settings: 400,
  unsupported_format: 415,
  corrupt_file: 422,
  empty_file: 422,
  encrypted_file: 422,
  wrong_password: 422,
  too_large: 413,
  timeout: 504,
  ocr_failed: 500,
  not_found: 404,
  conflict: 400, // the spec answers a start outside `created` with 400
  stale_version: 409,
  unauthorized: 401,
  forbidden: 403,
  rate_limited: 429,
  queue_full: 429,
  locked: 409,
  export_failed: 500,
  delivery_failed: 502,
  ssrf_blocked: 400,
  internal: 500,
};

/** CLI exit codes: 0 success, 1 some input failed, 2 usage, 3 locked by another run, 4 configuration. */
const EXIT_CODE: Partial<Record<ErrorCode, number>> = {
  invalid_input: 2,
  invalid_settings: 4,
  locked: 3,
};

export function httpStatusOf(err: unknown): number {
  return err instanceof DocprocError ? HTTP_STATUS[err.code] : 500;
}

export function exitCodeOf(err: unknown): number {
  return err instanceof DocprocError ? (EXIT_CODE[err.code] ?? 1) : 1;
}

/** Wraps an unknown throw at a stage boundary so every failure names its stage. */
export function wrapStageError(stage: string, err: unknown): DocprocError {
  if (err instanceof DocprocError) {
    return err.stage
      ? err
      : new DocprocError(err.code, err.message, {
          stage,
          retryable: err.retryable,
          cause: err.cause,
          details: err.details,
        });
  }
  const message = err instanceof Error ? err.message : String(err);
  return new DocprocError("internal", `${stage}: ${message}`, { stage, cause: err });
}
