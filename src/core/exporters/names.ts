/**
 * Which file-name template each export profile uses: its own `filename`, else its format's default (the one table
 * of defaults the exporters read), and the two rewrites the CLI applies for a shared output folder:
 *
 * - `withBaseName(profiles, base, "source")` (`--name-by source`): every file is named after `base`, the source's
 *   stem made unique in the folder: `<base>.json`, `<base>_documents.csv`, `<base>_<document_index>.pdf`, ...
 * - `withBaseName(profiles, base, "template")`: only `{source_stem}` is replaced by `base`, so the PDF and JPG
 *   defaults (`{source_stem}_{document_index}.pdf`) of two sources with the same stem never share a name.
 *
 * `base` is a literal: braces in it are replaced, so a stem like `{x}` cannot become a placeholder.
 */
import type { ExportProfile } from "../project/exports";

export function defaultTemplate(profile: ExportProfile): string {
  switch (profile.output_format) {
    case "json":
      return profile.options.scope === "per_document"
        ? "{transaction_id}_{document_index}_data.json"
        : "{transaction_id}_data.json";
    case "csv":
      return profile.options.rows === "per_line_item"
        ? "{transaction_id}_line_items.csv"
        : "{transaction_id}_documents.csv";
    case "xlsx":
      return "{transaction_id}.xlsx";
    case "xml":
      return profile.options.scope === "per_document"
        ? "{transaction_id}_{document_index}.xml"
        : "{transaction_id}.xml";
    case "pdf":
      return "{source_stem}_{document_index}.pdf";
    case "jpg":
      return "{source_stem}";
    case "ubl":
    case "cii":
    case "facturx":
      return EINVOICE_NAMES[profile.output_format];
  }
}

/** E-invoices are named after their source in both layouts, one file per billing document. */
const EINVOICE_NAMES = {
  ubl: "{source_stem}_{document_index}_ubl.xml",
  cii: "{source_stem}_{document_index}_cii.xml",
  facturx: "{source_stem}_{document_index}_facturx.pdf",
} as const;

export const templateOf = (profile: ExportProfile): string => profile.filename ?? defaultTemplate(profile);

/** Names after the source: one file per transaction is `<base>.<ext>`; one per document or page adds its number. */
function sourceTemplate(profile: ExportProfile): string {
  switch (profile.output_format) {
    case "json":
      return profile.options.scope === "per_document" ? "{source_stem}_{document_index}.json" : "{source_stem}.json";
    case "csv":
      return profile.options.rows === "per_line_item" ? "{source_stem}_line_items.csv" : "{source_stem}.csv";
    case "xlsx":
      return "{source_stem}.xlsx";
    case "xml":
      return profile.options.scope === "per_document" ? "{source_stem}_{document_index}.xml" : "{source_stem}.xml";
    case "pdf":
      return "{source_stem}_{document_index}.pdf";
    case "jpg":
      return "{source_stem}";
    case "ubl":
    case "cii":
    case "facturx":
      return EINVOICE_NAMES[profile.output_format];
  }
}

/** Whether any profile's file names depend on the source's stem (then the CLI claims a unique base name). */
export const usesSourceStem = (profiles: readonly ExportProfile[]): boolean =>
  profiles.some((p) => templateOf(p).includes("{source_stem}"));

export function withBaseName(
  profiles: readonly ExportProfile[],
  base: string,
  mode: "source" | "template",
): ExportProfile[] {
  const literal = base.replace(/[{}]/g, "_");
  return profiles.map((p) => ({
    ...p,
    filename: (mode === "source" ? sourceTemplate(p) : templateOf(p)).replaceAll("{source_stem}", literal),
  }));
}
