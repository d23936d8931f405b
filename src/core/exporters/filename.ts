/**
 * File-name templates of export profiles: `{document_type}/{document_id}.pdf`, `{transaction_id}_data.json`, ...
 *
 * Whatever the template and the values put into it, the result MUST be a relative path of plain segments:
 * no `..` or `.`, no absolute path or drive letter, no control characters, no characters Windows refuses
 * (`< > : " | ? * \`), no Windows device names, no trailing dots or spaces. Two files of one export run never
 * share a name: a later one gets `_1`, `_2`... before its extension (case-insensitively, for Windows and macOS).
 */
import { DocprocError } from "../errors";

export const PLACEHOLDERS = [
  "transaction_id",
  "project_id",
  "tenant_id",
  "profile_id",
  "source_stem",
  "document_id",
  "document_index",
  "document_type",
  "page_number",
] as const;
export type Placeholder = (typeof PLACEHOLDERS)[number];
export type TemplateValues = Partial<Record<Placeholder, string | number>>;

const MAX_SEGMENT = 120;
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/** File stem of a source name: `scans/Invoice 7.pdf` → `Invoice 7`. */
export function fileStem(filename: string): string {
  const base = filename.split(/[\\/]/).pop() ?? filename;
  const dot = base.lastIndexOf(".");
  return dot > 0 ? base.slice(0, dot) : base;
}

/** Makes one path segment safe; returns "" when nothing usable is left. */
export function sanitizeSegment(segment: string): string {
  let s = segment
    .normalize("NFC")
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, "")
    .replace(/[<>:"|?*\\/]/g, "_")
    .trim();
  if (s === "." || s === "..") return "";
  s = s.replace(/[. ]+$/, "");
  if (s.length > MAX_SEGMENT) s = s.slice(0, MAX_SEGMENT).replace(/[. ]+$/, "");
  if (WINDOWS_DEVICE.test(s)) s = `_${s}`;
  return s;
}

/** Sanitises a relative path with subfolders; `fallback` is used when nothing usable is left. */
export function sanitizePath(raw: string, fallback = "export"): string {
  const segments = raw
    .split(/[\\/]+/)
    .map(sanitizeSegment)
    .filter((s) => s !== "");
  return segments.length > 0 ? segments.join("/") : fallback;
}

/**
 * Fills `{placeholder}`s. Values are sanitised as single segments (a document type cannot add folders); the
 * template's own `/` separate folders. An unknown or unavailable placeholder is a profile error.
 */
export function renderTemplate(template: string, values: TemplateValues): string {
  const filled = template.replace(/\{([^{}]*)\}/g, (_m, name: string) => {
    if (!(PLACEHOLDERS as readonly string[]).includes(name)) {
      throw new DocprocError(
        "invalid_settings",
        `unknown file-name placeholder {${name}}; allowed: ${PLACEHOLDERS.join(", ")}`,
        { stage: "export" },
      );
    }
    const value = values[name as Placeholder];
    if (value === undefined || value === "") {
      throw new DocprocError(
        "invalid_settings",
        `file-name placeholder {${name}} is not available for this profile's scope`,
        { stage: "export" },
      );
    }
    return sanitizeSegment(String(value)) || "_";
  });
  return sanitizePath(filled);
}

/** Appends `.ext` unless the name already ends with it (case-insensitive). */
export function withExtension(name: string, ext: string): string {
  return name.toLowerCase().endsWith(`.${ext}`) ? name : `${name}.${ext}`;
}

/** Hands out unique names for one export run. */
export class FileNamer {
  private readonly taken = new Set<string>();

  unique(name: string): string {
    let candidate = name;
    const slash = name.lastIndexOf("/");
    const dot = name.lastIndexOf(".");
    const [stem, ext] = dot > slash + 1 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
    for (let n = 1; this.taken.has(candidate.toLowerCase()); n++) candidate = `${stem}_${n}${ext}`;
    this.taken.add(candidate.toLowerCase());
    return candidate;
  }
}
