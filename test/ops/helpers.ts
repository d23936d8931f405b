/** Log capture and metric reading for the operations tests. */
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { createLogger, type Logger } from "../../src/telemetry/log";
import { createMetrics, type Metrics, type QueueCount } from "../../src/telemetry/metrics";

/** A JSON logger whose lines are kept in memory (`lines` parsed, `text` raw). */
export function captureLog(level: "info" | "debug" = "info"): {
  log: Logger;
  lines: () => Array<Record<string, any>>;
  text: () => string;
} {
  const raw: string[] = [];
  const log = createLogger({ format: "json", level, stream: { write: (l: string) => void raw.push(l) } });
  return { log, lines: () => raw.map((l) => JSON.parse(l)), text: () => raw.join("") };
}

export function telemetryFor(queueCounts?: () => QueueCount[]) {
  // Step lines are debug lines (quiet by default); these tests read them.
  const cap = captureLog("debug");
  const metrics: Metrics = createMetrics({ queueCounts });
  return { ...cap, telemetry: { log: cap.log, metrics } };
}

type Family = {
  name: string;
  type: string;
  metrics: Array<{
    labels?: Record<string, string>;
    value?: string;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }>;
};

/** The value of a counter or gauge sample (0 when absent), from the parsed exposition text. */
export function sample(families: Family[], name: string, labels: Record<string, string> = {}): number {
  const fam = families.find((f) => f.name === name);
  const m = fam?.metrics.find((x) => Object.entries(labels).every(([k, v]) => x.labels?.[k] === v));
  return m ? Number(m.value ?? m.count) : 0;
}

export function parseMetrics(text: string): Family[] {
  return parsePrometheusTextFormat(text) as Family[];
}
