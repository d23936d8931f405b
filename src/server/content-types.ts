/** Content types by file extension, for uploads without one and for export downloads. */
const TYPES: Record<string, string> = {
  json: "application/json",
  pdf: "application/pdf",
  csv: "text/csv; charset=utf-8",
  xml: "application/xml",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  png: "image/png",
  tif: "image/tiff",
  tiff: "image/tiff",
  gif: "image/gif",
  bmp: "image/bmp",
  webp: "image/webp",
  txt: "text/plain; charset=utf-8",
  eml: "message/rfc822",
  html: "text/html; charset=utf-8",
};

export function contentTypeOf(filename: string): string {
  const ext = filename.toLowerCase().split(".").pop() ?? "";
  return TYPES[ext] ?? "application/octet-stream";
}

/**
 * A Content-Disposition that cannot break the header: an ASCII fallback name without quotes or control characters,
 * plus the exact UTF-8 name in filename* (RFC 6266 / 5987).
 */
export function contentDisposition(kind: "inline" | "attachment", filename: string): string {
  const base = filename.split("/").pop() || "download";
  const ascii = base.replace(/[^\x20-\x7e]/g, "_").replace(/["\\;]/g, "_");
  const encoded = encodeURIComponent(base).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The base name only (no client paths), without control characters, at most 255 characters. */
export function safeName(name: string | undefined, position: number): string {
  const base = (name ?? "")
    .split(/[\\/]/)
    .pop()!
    .replace(/[\u0000-\u001f\u007f]/g, "_")
    .trim()
    .slice(0, 255);
  return base && base !== "." && base !== ".." ? base : `file_${position}`;
}
