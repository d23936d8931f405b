/**
 * Base names of results in a shared output folder (the CLI's `--out`): `process` and `watch` write every file's
 * results into one folder, so names that come from the source (`--name-by source`, the PDF and JPG defaults'
 * `{source_stem}`) would collide for `a/scan.pdf` and `b/scan.pdf`, or `scan.pdf` and `scan.tif`.
 *
 * Rule (docs/exports.md, "Names in the output folder"): a source's base name is the first of `<stem>`,
 * `<stem>_1`, `<stem>_2`, ... not yet claimed by another source, compared case-insensitively. A claim is a small
 * file `<out>/.docproc-names/<name>` created exclusively (O_EXCL, so two processes on one folder cannot both win),
 * holding its owner: the source's absolute path and content hash. The same file processed again (a restart, a
 * re-run) gets its own name back and replaces its results; another file, or new content at that path, never
 * replaces them. `process` claims in the order of its file list before anything runs, so the suffixes are
 * deterministic; `watch` claims in the order files are taken.
 */
import { mkdirSync, openSync, readFileSync, closeSync, writeSync } from "node:fs";
import path from "node:path";
import { contentSha256 } from "../core/engines/pdf/pdf-bytes";
import { fileStem, sanitizeSegment } from "../core/exporters/filename";
import type { SourceData } from "../core/source-data";

export const CLAIMS_DIR = ".docproc-names";

/** Who a claim belongs to: one source file's content at one path (a large PDF left in its file is hashed from it). */
export function ownerOf(file: string, bytes: SourceData): string {
  return `${contentSha256(bytes)} ${path.resolve(file)}`;
}

export class OutputNames {
  private readonly dir: string;

  constructor(outDir: string) {
    this.dir = path.join(path.resolve(outDir), CLAIMS_DIR);
  }

  /** The base name for `file`'s results: its stem, or the stem with the first free numeric suffix. */
  claim(file: string, owner: string): string {
    mkdirSync(this.dir, { recursive: true });
    const stem = sanitizeSegment(fileStem(path.basename(file))).replace(/[{}]/g, "_") || "document";
    for (let n = 0; ; n++) {
      const name = n === 0 ? stem : `${stem}_${n}`;
      const claimFile = path.join(this.dir, name.toLowerCase());
      try {
        const fd = openSync(claimFile, "wx");
        try {
          writeSync(fd, owner);
        } finally {
          closeSync(fd);
        }
        return name;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      }
      if (readOwner(claimFile) === owner) return name;
    }
  }
}

function readOwner(claimFile: string): string | null {
  try {
    return readFileSync(claimFile, "utf8");
  } catch {
    return null;
  }
}
