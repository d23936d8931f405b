/**
 * What `docproc process` prints when a batch ends: a table for people (stderr-free, on stdout) or one JSON object
 * for scripts (`--json`). The JSON summary shape is documented in the README and is stable.
 */
import path from "node:path";
import type { BatchFileOutcome } from "./batch";
import { describeFound } from "./review-summary";
import { ellipsize, formatSeconds, renderTable } from "./table";
import { paintFor, type Paint } from "./colour";
import { nameOnce } from "./messages";
import { pushAll } from "../core/arrays";

/** Beyond this many files the export listing is cut short; the JSON summary always has everything. */
const MAX_EXPORT_LINES = 20;

export interface BatchSummary {
  version: string;
  out_dir: string;
  total: number;
  /** Files processed (status success or review). */
  succeeded: number;
  failed: number;
  /** Files with status review: fields flagged for a person, or validation warnings. */
  needs_review: number;
  seconds: number;
  files: BatchFileOutcome[];
  /** Files found in folders that are not documents (not processed, not failures). */
  skipped: string[];
  /** Why each skipped file was left out, by its path as in `skipped`. */
  skipped_reasons: Record<string, string>;
}

export function buildSummary(
  version: string,
  outDir: string,
  outcomes: BatchFileOutcome[],
  seconds: number,
  skipped: string[] = [],
  reasons: Record<string, string> = {},
): BatchSummary {
  const succeeded = outcomes.filter((o) => o.status === "success" || o.status === "review").length;
  return {
    version,
    out_dir: path.resolve(outDir),
    total: outcomes.length,
    succeeded,
    failed: outcomes.length - succeeded,
    needs_review: outcomes.filter((o) => o.status === "review").length,
    seconds: round(seconds),
    files: outcomes.map((o) => ({ ...o, seconds: round(o.seconds) })),
    skipped,
    skipped_reasons: Object.fromEntries(skipped.map((f) => [f, reasons[f] ?? "not a document type docproc reads"])),
  };
}

export function renderSummary(summary: BatchSummary, columns = 100, paint: Paint = paintFor(process.stdout)): string {
  const out = [fileTable(summary, columns)];
  const found = summary.files.filter((o) => o.found.length > 0);
  if (found.length > 0) {
    out.push("", "Found:");
    for (const o of found.slice(0, MAX_EXPORT_LINES))
      for (const d of o.found) out.push(`  ${path.basename(o.file)}: ${describeFound(d)}`);
  }
  pushAll(out, describeReview(summary));
  const problems = summary.files.filter((o) => o.status !== "success" && o.status !== "review");
  if (problems.length > 0) {
    out.push("", paint.red(problems.length === 1 ? "1 file failed:" : `${problems.length} files failed:`));
    for (const o of problems) {
      for (const e of o.errors.length
        ? o.errors
        : [{ stage: "pipeline", code: "internal", message: "unknown failure" }]) {
        out.push(`  ${nameOnce(o.file, e.message)} ${paint.dim(`[${e.code}, ${e.stage}]`)}`);
      }
    }
  }
  const undelivered = summary.files.flatMap((o) =>
    o.warnings.filter((w) => w.startsWith("notification ")).map((w) => `  ${o.file}: ${w}`),
  );
  if (undelivered.length > 0) pushAll(out, ["", "Webhook notifications not delivered:", ...undelivered]);
  if (summary.skipped.length > 0) pushAll(out, ["", ...describeSkipped(summary)]);
  const withExports = summary.files.filter((o) => o.exports.length > 0);
  if (withExports.length > 0) {
    out.push("", `Exports in ${summary.out_dir}:`);
    for (const o of withExports.slice(0, MAX_EXPORT_LINES)) {
      out.push(
        `  ${path.basename(o.file)} → ${o.exports.map((p) => path.relative(summary.out_dir, path.resolve(p))).join(", ")}`,
      );
    }
    if (withExports.length > MAX_EXPORT_LINES)
      out.push(`  … and ${withExports.length - MAX_EXPORT_LINES} more (--json lists them all)`);
  }
  const written = summary.files.reduce((n, o) => n + o.exports.length, 0);
  const done = `${summary.succeeded} of ${summary.total} files processed`;
  out.push(
    "",
    `${summary.failed ? paint.yellow(done) : paint.green(done)} in ${formatSeconds(summary.seconds)}` +
      (summary.needs_review ? ` (${summary.needs_review} to review)` : "") +
      "; " +
      `${written} export file${written === 1 ? "" : "s"} written to ${summary.out_dir}`,
  );
  return out.join("\n") + "\n";
}

/** One row per file: pages, text source, what was found, fields to check, time, status. */
function fileTable(summary: BatchSummary, columns: number): string {
  const nameWidth = Math.max(24, (columns || 100) - 50);
  const rows = summary.files.map((o) => [
    ellipsize(o.file, nameWidth),
    o.page_count > o.pages ? `${o.pages}/${o.page_count}` : String(o.pages),
    o.text_source,
    o.found.length
      ? [...new Set(o.found.map((d) => d.document_type))].join(", ")
      : o.unreadable_pages?.length
        ? "unreadable"
        : String(o.documents),
    o.needs_review ? String(o.needs_review) : "-",
    formatSeconds(o.seconds),
    o.status,
  ]);
  return renderTable(["file", "pages", "text", "type", "check", "time", "status"], rows, [
    "left",
    "right",
    "left",
    "left",
    "right",
    "right",
    "left",
  ]).trimEnd();
}

/** The files that need review, with what to check in each, and how to open them. */
function describeReview(summary: BatchSummary): string[] {
  const toReview = summary.files.filter((o) => o.status === "review");
  if (toReview.length === 0) return [];
  const out: string[] = [];
  out.push("", toReview.length === 1 ? "1 file needs review:" : `${toReview.length} files need review:`);
  for (const o of toReview.slice(0, MAX_EXPORT_LINES)) {
    const fields = [...new Set(o.found.flatMap((d) => d.needs_review))];
    const unreadable = (o.unreadable_pages ?? []).map((p) => `page ${p.file_page} could not be read (${p.reason})`);
    const parts = [
      ...unreadable,
      fields.length ? `check ${fields.join(", ")}` : "",
      o.validation && o.validation !== "success" ? `validation ${o.validation}` : "",
    ].filter(Boolean);
    out.push(`  ${path.basename(o.file)}: ${parts.join("; ")}`);
  }
  out.push(`  Open them with: docproc review ${summary.out_dir}`);
  return out;
}

/**
 * The skipped files, grouped by reason ("Skipped (not a document type docproc reads): a.md, b.txt"), and, when
 * nothing at all was processed, a line that says so: a folder of skipped files must not read like a success.
 */
export function describeSkipped(summary: Pick<BatchSummary, "skipped" | "skipped_reasons" | "total">): string[] {
  const byReason = new Map<string, string[]>();
  for (const f of summary.skipped) {
    const why = summary.skipped_reasons[f] ?? "not a document type docproc reads";
    byReason.set(why, [...(byReason.get(why) ?? []), f]);
  }
  const out = [...byReason].map(([why, files]) => `Skipped (${why}): ${files.join(", ")}`);
  if (summary.total === 0)
    out.push(
      `Nothing processed: all ${summary.skipped.length} file${summary.skipped.length === 1 ? "" : "s"} found ${summary.skipped.length === 1 ? "was" : "were"} skipped.`,
    );
  return out;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** `--quiet`: one `docproc:` line per failure (reason, code, stage), nothing when every file went through. */
export function renderFailures(summary: BatchSummary): string {
  const lines = summary.files
    .filter((o) => o.status !== "success" && o.status !== "review")
    .flatMap((o) =>
      (o.errors.length ? o.errors : [{ stage: "pipeline", code: "internal", message: "unknown failure" }]).map(
        (e) => `docproc: ${nameOnce(o.file, e.message)} [${e.code}, ${e.stage}]`,
      ),
    );
  return lines.length ? `${lines.join("\n")}\n` : "";
}
