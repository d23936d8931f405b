/**
 * Where export files go. The CLI writes into a folder, the server into its data directory; tests and the benchmark
 * keep files in memory.
 */
import { mkdir, realpath, writeFile } from "node:fs/promises";
import path from "node:path";
import { DocprocError } from "../errors";
import { TextChunks } from "./json-chunks";

export { TextChunks } from "./json-chunks";

/** A file's content: bytes, text, or text in pieces (a long run's JSON results file, json-chunks.ts). */
export type ExportData = Uint8Array | string | TextChunks;

/**
 * A destination for export files.
 * `write` MUST store `data` under `relPath` (forward slashes, may contain subfolders, already sanitised by the
 * exporters) and MUST refuse any path that would leave the sink's root. It resolves to the stored size in bytes.
 * `TextChunks` are the file's text in order; a sink that cannot write pieces joins them (`wholeData`).
 */
export interface ExportSink {
  write(relPath: string, data: ExportData): Promise<{ size_bytes: number }>;
}

/** The content as bytes or one string, for sinks that store a file in one write. */
export function wholeData(data: ExportData): Uint8Array | string {
  return data instanceof TextChunks ? data.text() : data;
}

function toBytes(data: ExportData): Uint8Array {
  const whole = wholeData(data);
  return typeof whole === "string" ? new TextEncoder().encode(whole) : whole;
}

/**
 * Writes text pieces to the file one after another through Bun's file writer, which encodes each into its own
 * buffer at once: neither the whole text nor its UTF-8 bytes are ever in memory together.
 */
async function writeChunks(target: string, data: TextChunks): Promise<number> {
  // Bun's file writer writes over an existing file without truncating it: a shorter file would keep the old tail.
  await writeFile(target, new Uint8Array(0));
  const writer = Bun.file(target).writer({ highWaterMark: 1 << 20 });
  let size = 0;
  try {
    for (const piece of data.pieces()) {
      const written = writer.write(piece);
      size += typeof written === "number" ? written : await written;
    }
  } finally {
    await writer.end();
  }
  return size;
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
      if (data instanceof TextChunks) return { size_bytes: await writeChunks(target, data) };
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
