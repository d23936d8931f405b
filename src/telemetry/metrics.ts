/**
 * Prometheus metrics (prom-client) of one process, served by `GET /metrics` (docs/operations.md).
 *
 * Each process has its own registry (no global state: tests build several apps in one process). Label values MUST
 * come from small closed sets (route templates, status codes, step names, outcomes), never from ids or input, so
 * the series count stays bounded.
 */
import { Counter, Gauge, Histogram, Registry } from "prom-client";

export interface QueueCount {
  kind: string;
  status: string;
  n: number;
}

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<"method" | "route" | "status">;
  httpDuration: Histogram<"method" | "route">;
  jobsFinished: Counter<"kind" | "outcome">;
  stepDuration: Histogram<"step">;
  pages: Counter<"text_source">;
  ocrSeconds: Counter<string>;
  webhookDeliveries: Counter<"outcome">;
  rateLimitRejections: Counter<"limit">;
  /** The text exposition format (`text/plain; version=0.0.4`). */
  render(): Promise<string>;
  contentType: string;
}

export interface MetricsOptions {
  /** Jobs by kind and status, read at scrape time (the queue is shared by every process on the data directory). */
  queueCounts?: () => QueueCount[];
}

const STEP_BUCKETS = [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];
const HTTP_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

/** Gauges read at scrape time: queue depth (from the database, when given), resident memory, start time. */
function registerGauges(registry: Registry, queueCounts: MetricsOptions["queueCounts"]): void {
  const registers = [registry];
  new Gauge({
    name: "docproc_queue_jobs",
    help: "Jobs in the durable queue by kind and status (queued, running), read from the database at scrape time",
    labelNames: ["kind", "status"] as const,
    registers,
    collect() {
      this.reset();
      if (!queueCounts) return;
      for (const c of queueCounts()) this.set({ kind: c.kind, status: c.status }, c.n);
    },
  });
  new Gauge({
    name: "docproc_process_resident_memory_bytes",
    help: "Resident memory of this process",
    registers,
    collect() {
      this.set(process.memoryUsage().rss);
    },
  });
  const started = Date.now() / 1000;
  new Gauge({
    name: "docproc_process_start_time_seconds",
    help: "Start time of this process (Unix seconds)",
    registers,
    collect() {
      this.set(started);
    },
  });
}

export function createMetrics(opts: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  const registers = [registry];
  const m = {
    registry,
    httpRequests: new Counter({
      name: "docproc_http_requests_total",
      help: "HTTP requests by method, route template and status",
      labelNames: ["method", "route", "status"] as const,
      registers,
    }),
    httpDuration: new Histogram({
      name: "docproc_http_request_duration_seconds",
      help: "HTTP request latency (until the response is handed to the server)",
      labelNames: ["method", "route"] as const,
      buckets: HTTP_BUCKETS,
      registers,
    }),
    jobsFinished: new Counter({
      name: "docproc_jobs_total",
      help: "Job attempts that ended, by kind and outcome (completed, failed, retried, released, lease_lost)",
      labelNames: ["kind", "outcome"] as const,
      registers,
    }),
    stepDuration: new Histogram({
      name: "docproc_step_duration_seconds",
      help: "Duration of pipeline steps",
      labelNames: ["step"] as const,
      buckets: STEP_BUCKETS,
      registers,
    }),
    pages: new Counter({
      name: "docproc_pages_total",
      help: "Pages processed, by text source (text_layer, ocr, supplied_text, ...)",
      labelNames: ["text_source"] as const,
      registers,
    }),
    ocrSeconds: new Counter({ name: "docproc_ocr_seconds_total", help: "Seconds spent in OCR", registers }),
    webhookDeliveries: new Counter({
      name: "docproc_webhook_deliveries_total",
      help: "Webhook delivery attempts by outcome (delivered, retry, failed)",
      labelNames: ["outcome"] as const,
      registers,
    }),
    rateLimitRejections: new Counter({
      name: "docproc_rate_limit_rejections_total",
      help: "Requests refused with 429, by limit (requests, async, queue_full)",
      labelNames: ["limit"] as const,
      registers,
    }),
    contentType: registry.contentType,
    render: () => registry.metrics(),
  };
  registerGauges(registry, opts.queueCounts);
  return m;
}
