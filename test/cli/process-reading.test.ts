/**
 * How `docproc process` reads its files before running them (src/cli/process-run.ts): claiming output names reads
 * a large PDF as the run does, left in its file and not read (pdf-bytes.ts), and hashes it from its file.
 */
import { afterAll, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { reserveNames } from "../../src/cli/process-run";
import { fileBackingOf, FILE_BACKED_MIN_BYTES, contentSha256 } from "../../src/core/engines/pdf/pdf-bytes";
import type { SourceData } from "../../src/core/source-data";

const dir = mkdtempSync(path.join(tmpdir(), "docproc-process-reading-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("names are claimed with a large PDF left in its file, not read; the claims stop when no name depends on the source", async () => {
  const large = path.join(dir, "large.pdf");
  writeFileSync(large, "%PDF-1.7\n");
  truncateSync(large, FILE_BACKED_MIN_BYTES + 100);
  const small = path.join(dir, "small.pdf");
  writeFileSync(small, "%PDF-1.7\n");
  const seen: Array<{ file: string; mapped: boolean; hash: string }> = [];
  const claiming = {
    reserveName(file: string, bytes: SourceData) {
      seen.push({ file, mapped: fileBackingOf(bytes) !== undefined, hash: contentSha256(bytes) });
      return path.basename(file);
    },
  };
  await reserveNames(claiming, [large, small]);
  const sha = (f: string) => createHash("sha256").update(readFileSync(f)).digest("hex");
  expect(seen).toEqual([
    { file: large, mapped: true, hash: sha(large) },
    { file: small, mapped: false, hash: sha(small) },
  ]);
  // A processor whose names do not come from the source answers null: nothing more is read.
  const asked: string[] = [];
  await reserveNames({ reserveName: (file) => (asked.push(file), null) }, [large, small]);
  expect(asked).toEqual([large]);
});
