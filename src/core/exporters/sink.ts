/**
 * Where export files go. The CLI writes into a folder, the server into its data directory; tests and the benchmark
 * keep files in memory.
 */
import { mkdir, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import { DocprocError } from "../errors";

/**
 * A destination for export files.
 * `write` MUST store `data` under `relPath` (forward slashes, may contain subfolders, already sanitised by the
 * exporters) and MUST refuse any path that would leave the sink's root. It resolves to the stored size in bytes.
 */
export interface ExportSink {
  write(relPath: string, data: Uint8Array | string): Promise<{ size_bytes: number }>;
}

function toBytes(data: Uint8Array | string): Uint8Array {
  return typeof data === "string" ? new TextEncoder().encode(data) : data;
}

function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel !== "" && !rel.startsWith("..") && !path.isAbsolute(rel);
}

/** Writes files below `dir` (created on demand). Paths escaping `dir`, also through symlinks, are refused. */
export function folderSink(dir: string): ExportSink {
  const root = path.resolve(dir);
  return {
    async write(relPath, data) {
      if (relPath.includes("\0") || path.isAbsolute(relPath) || /^[A-Za-z]:/.test(relPath)) {
        throw new DocprocError("export_failed", `refusing export path ${JSON.stringify(relPath)}`, { stage: "export" });
      }
      const target = path.resolve(root, relPath);
      if (!isInside(root, target)) {
        throw new DocprocError("export_failed", `export path ${JSON.stringify(relPath)} leaves the export folder`, {
          stage: "export",
        });
      }
      await mkdir(path.dirname(target), { recursive: true });
      // A symlinked subfolder could still point outside; compare real paths once the folder exists.
      const [realRoot, realParent] = await Promise.all([realpath(root), realpath(path.dirname(target))]);
      if (realParent !== realRoot && !isInside(realRoot, realParent)) {
        throw new DocprocError("export_failed", `export path ${JSON.stringify(relPath)} leaves the export folder`, {
          stage: "export",
        });
      }
      const bytes = toBytes(data);
      await writeFile(target, bytes);
      return { size_bytes: bytes.byteLength };
    },
  };
}

/** Keeps files in memory (tests, benchmark, previews). */
export function memorySink(): ExportSink & { files: Map<string, Uint8Array> } {
  const files = new Map<string, Uint8Array>();
  return {
    files,
    async write(relPath, data) {
      const bytes = toBytes(data);
      files.set(relPath, bytes);
      return { size_bytes: bytes.byteLength };
    },
  };
}
