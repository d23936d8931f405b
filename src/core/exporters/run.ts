/**
 * Runs export profiles and builds the export manifest (spec "Export manifest").
 * MUST run every profile even when another fails; a failed profile gets `error`, `status: "failed"` and an empty
 * `files` array (files it wrote before failing may remain in the sink but are not listed). No profiles → empty
 * `profiles` and zero totals. File names are unique across the whole run. Profile ids SHOULD be unique (project
 * settings enforce it); a repeated id is run once, with a warning.
 */
import { DocprocError } from "../errors";
import {
  ExportProfileSchema,
  OUTPUT_FORMATS,
  type ExportProfile,
  type ExportProfileInput,
  type OutputFormat,
} from "../project/exports";
import type { ExportContext, ExportWriter } from "./context";
import { FileNamer } from "./filename";
import { exportJson } from "./json";
import { exportCsv } from "./csv";
import { timeStage } from "../timing";
import { abortError, throwIfAborted } from "../abort";

export interface ManifestFile {
  filename: string;
  /** `exports/<filename>` */
  path: string;
  size_bytes: number;
  document_ids: string[];
  created_at: string;
}

export interface ManifestProfileEntry {
  profile_id: string;
  profile_name: string;
  output_format: string;
  scope_mode: string;
  files: ManifestFile[];
  error?: string;
  /** success | partial (some pages or documents were skipped, see `warnings`) | failed */
  status?: "success" | "partial" | "failed";
  warnings?: string[];
}

export interface ExportManifest {
  transaction_id: string;
  profiles: Record<string, ManifestProfileEntry>;
  total_files: number;
  total_size_bytes: number;
}

export function scopeModeOf(profile: ExportProfile): string {
  switch (profile.output_format) {
    case "json":
    case "xml":
      return profile.options.scope;
    case "pdf":
    case "ubl":
    case "cii":
    case "facturx":
      return "per_document";
    case "jpg":
      return "per_page";
    default:
      return "per_transaction";
  }
}

/**
 * XLSX (exceljs, ~1 s to load), PDF (pdf-lib, sharp), JPG (sharp), XML (fast-xml-parser) and e-invoice exporters are imported
 * at their first use, so a run that only writes JSON never loads them (CLI start-up).
 */
async function runOne(ctx: ExportContext, profile: ExportProfile, out: ExportWriter, now: Date): Promise<void> {
  switch (profile.output_format) {
    case "json":
      return exportJson(ctx, profile, out, now);
    case "csv":
      return exportCsv(ctx, profile, out);
    case "xlsx":
      return (await import("./xlsx")).exportXlsx(ctx, profile, out, now);
    case "xml":
      return (await import("./xml")).exportXml(ctx, profile, out, now);
    case "pdf":
      return (await import("./pdf")).exportPdf(ctx, profile, out);
    case "jpg":
      return (await import("./jpg")).exportJpg(ctx, profile, out);
    case "ubl":
      return (await import("./ubl")).exportUbl(ctx, profile, out);
    case "cii":
      return (await import("./cii")).exportCii(ctx, profile, out);
    case "facturx":
      return (await import("./facturx")).exportFacturX(ctx, profile, out, now);
  }
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

interface ParsedProfile {
  profile?: ExportProfile;
  raw: ExportProfileInput;
  error?: string;
  /** Later profiles with the same id: they are not run (the manifest is keyed by id). */
  duplicates: number;
}

function parseProfiles(inputs: Array<ExportProfile | ExportProfileInput>): ParsedProfile[] {
  const byId = new Map<string, ParsedProfile>();
  for (const raw of inputs) {
    const first = byId.get(raw.id);
    if (first) {
      first.duplicates++;
      continue;
    }
    const parsed = ExportProfileSchema.safeParse(raw);
    const error = parsed.success
      ? undefined
      : `invalid profile: ${parsed.error.issues.map((i) => `${i.path.join(".") || "profile"}: ${i.message}`).join("; ")}`;
    byId.set(raw.id, { profile: parsed.success ? parsed.data : undefined, raw, error, duplicates: 0 });
  }
  return [...byId.values()];
}

export function runExports(
  ctx: ExportContext,
  profiles: Array<ExportProfile | ExportProfileInput>,
): Promise<ExportManifest> {
  return timeStage("export", () => exportAll(ctx, profiles));
}

async function exportAll(
  ctx: ExportContext,
  profiles: Array<ExportProfile | ExportProfileInput>,
): Promise<ExportManifest> {
  const clock = ctx.now ?? (() => new Date());
  const namer = new FileNamer();
  const manifest: ExportManifest = {
    transaction_id: ctx.results.transaction_id,
    profiles: {},
    total_files: 0,
    total_size_bytes: 0,
  };
  for (const { profile, raw, error, duplicates } of parseProfiles(profiles)) {
    const entry: ManifestProfileEntry = {
      profile_id: raw.id,
      profile_name: raw.name,
      output_format: String(raw.output_format),
      scope_mode: profile ? scopeModeOf(profile) : "unknown",
      files: [],
    };
    manifest.profiles[raw.id] = entry;
    const warnings: string[] = duplicates > 0 ? [`${duplicates} more profile(s) with id ${raw.id} were ignored`] : [];
    const files: ManifestFile[] = [];
    const out: ExportWriter = {
      warn: (m) => warnings.push(m),
      async file(name, data, documentIds) {
        throwIfAborted(ctx.signal, "export");
        const filename = namer.unique(name);
        const { size_bytes } = await ctx.sink.write(filename, data);
        files.push({
          filename,
          path: `exports/${filename}`,
          size_bytes,
          document_ids: documentIds,
          created_at: clock().toISOString(),
        });
      },
    };
    throwIfAborted(ctx.signal, "export");
    try {
      if (!profile) throw new DocprocError("invalid_settings", error!, { stage: "export" });
      await runOne(ctx, profile, out, clock());
      entry.files = files;
      entry.status = warnings.length > 0 ? "partial" : "success";
      if (warnings.length > 0) entry.warnings = warnings;
    } catch (err) {
      if (ctx.signal?.aborted) throw abortError(ctx.signal, "export");
      entry.error = describe(err);
      entry.status = "failed";
    }
  }
  for (const entry of Object.values(manifest.profiles)) {
    manifest.total_files += entry.files.length;
    manifest.total_size_bytes += entry.files.reduce((sum, f) => sum + f.size_bytes, 0);
  }
  return manifest;
}

/**
 * Ad-hoc profiles for the CLI's `--format json,csv,...`: one profile per format with default options, id = the
 * format. Unknown or repeated formats are an `invalid_input` error naming the allowed ones.
 */
export function profilesForFormats(formats: string[]): ExportProfile[] {
  const wanted = formats
    .flatMap((f) => f.split(","))
    .map((f) => f.trim().toLowerCase())
    .filter(Boolean);
  const unknown = wanted.filter((f) => !(OUTPUT_FORMATS as readonly string[]).includes(f === "jpeg" ? "jpg" : f));
  if (unknown.length > 0 || wanted.length === 0) {
    throw new DocprocError(
      "invalid_input",
      `unknown export format ${unknown.join(", ") || "(none)"}; allowed: ${OUTPUT_FORMATS.join(", ")}`,
    );
  }
  const unique = [...new Set(wanted.map((f) => (f === "jpeg" ? "jpg" : f)))] as OutputFormat[];
  return unique.map((format) =>
    ExportProfileSchema.parse({ id: format, name: `${format.toUpperCase()} export`, output_format: format }),
  );
}
