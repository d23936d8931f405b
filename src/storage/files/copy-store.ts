/**
 * Copies everything one blob store holds into another: originals and page images (`blobs/`), export files
 * (`exports/`) and run state (`state/`). For moving a data directory's files into a bucket (`docproc migrate`).
 *
 * MUST be safe to run again after an interruption: a blob already in the target is skipped (its key is its hash,
 * and `put` checks the bytes against it), a named object already there with the same size is skipped. Objects are
 * copied one at a time, each written whole by the target's `write`/`put`; the source is never changed.
 */
import { DocprocError } from "../../core/errors";
import type { BlobStore } from "./blobs";

export interface CopyReport {
  copied: number;
  skipped: number;
  bytes: number;
}

const BLOB = /^blobs\/sha256\/([0-9a-f]{2})\/([0-9a-f]{62})$/;

export async function copyStore(
  from: BlobStore,
  to: BlobStore,
  onObject?: (key: string, copied: boolean) => void,
): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, skipped: 0, bytes: 0 };
  for (const prefix of ["blobs", "exports", "state"]) {
    for await (const key of from.list(prefix)) {
      const blob = BLOB.exec(key);
      let copied = false;
      if (blob) {
        const hash = blob[1]! + blob[2]!;
        if (!(await to.has(hash))) {
          const data = await from.get(hash);
          if ((await to.put(data)) !== hash)
            throw new DocprocError("corrupt_file", `blob ${hash} in the source does not match its hash`);
          report.bytes += data.length;
          copied = true;
        }
      } else if (!prefix.startsWith("blobs")) {
        const source = await from.open(key);
        const there = source ? await to.open(key) : null;
        if (source && there?.size !== source.size) {
          const data = await source.bytes();
          await to.write(key, data);
          report.bytes += data.length;
          copied = true;
        }
      } else continue; // not a blob (a stray file under blobs/): nothing any reader would find
      report[copied ? "copied" : "skipped"]++;
      onObject?.(key, copied);
    }
  }
  return report;
}
