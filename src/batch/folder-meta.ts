/**
 * Subfolder names → transaction metadata (docs/watch.md). A file at `<watched>/acme/invoices/x.pdf` gets
 *   folder: "acme/invoices", folder_0: "acme", folder_1: "invoices", watch_root: "<watched dir, absolute>",
 *   source_path: "<absolute path of the file when it was taken>".
 * A file directly in the watched folder gets folder: "" and no folder_N keys. Separators are always "/".
 */
import path from "node:path";

export function folderMetadata(root: string, file: string): Record<string, string> {
  const absRoot = path.resolve(root);
  const rel = path.relative(absRoot, path.resolve(path.dirname(file)));
  const parts = rel === "" || rel.startsWith("..") ? [] : rel.split(path.sep).filter(Boolean);
  const meta: Record<string, string> = {
    folder: parts.join("/"),
    watch_root: absRoot,
    source_path: path.resolve(file),
  };
  parts.forEach((p, i) => (meta[`folder_${i}`] = p));
  return meta;
}

/** The relative sub path of a file under its root ("acme/invoices/x.pdf"), used to mirror it under processed/. */
export function relativeUnder(root: string, file: string): string {
  const rel = path.relative(path.resolve(root), path.resolve(file));
  return rel.startsWith("..") || path.isAbsolute(rel) ? path.basename(file) : rel;
}
