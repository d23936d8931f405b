/** What the HTTP layer needs, built once by the serve command (or a test) and handed to createApp. */
import type { ReviewFinishedHook } from "../core/stages/review/hooks";
import type { Notifier } from "../queue/notifier";
import type { BlobStore } from "../storage/files/blobs";
import type { Clock } from "../core/clock";
import type { Db } from "../storage/schema/db";
import type { CaptureSettings } from "../capture/settings";
import type { SecretKey } from "../storage/auth/secret-box";
import type { ServerConfig } from "./config";
import type { Telemetry } from "./observe";

export interface OcrStatus {
  status: "idle" | "loading" | "ready" | "error";
  engine?: string;
  error?: string;
  /** Every OCR engine ready in this process (projects choose theirs with `ocr.engine`). */
  engines?: string[];
}

export interface ServerDeps {
  db: Db;
  clock: Clock;
  blobs: BlobStore;
  notifier: Notifier;
  config: ServerConfig;
  /** Phone capture settings; DEFAULT_CAPTURE_SETTINGS when left out. */
  capture?: CaptureSettings;
  /** Export files of a transaction live in `<exportsRoot>/<transaction_id>/`. */
  exportsRoot: string;
  /** Worker slots processing jobs for this data directory in this process (estimates, health). */
  workers: number;
  /** Wakes the in-process worker pool after an enqueue; a no-op when there is none. */
  wake(): void;
  /** Jobs currently running in this process. */
  running(): number;
  ocrStatus(): OcrStatus;
  /** Called when a reviewer finishes a review (docs/review.md): learning from confirmed documents attaches here. */
  onReviewFinished?: ReviewFinishedHook[];
  /** Access log and metrics; default: no log lines, a private metrics registry (GET /metrics still answers). */
  telemetry?: Telemetry;
  /** Seals mail connector passwords (DOCPROC_SECRET_KEY); absent or null: connectors cannot be given one. */
  secretKey?: SecretKey | null;
}

export const urlsOf = (id: string) => ({
  status_url: `/transactions/${id}`,
  poll_url: `/transactions/${id}?timeout=30`,
  files_url: `/transactions/${id}/source-files`,
  start_url: `/transactions/${id}/start`,
});
