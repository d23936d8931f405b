/**
 * Multipart source-file upload. Tokens and split policies align with files by position; `file_index` is the
 * 0-based index of this request's first file. MUST check every policy before storing anything (400 listing the
 * allowed values); a token already recorded returns the original entry and stores nothing new.
 */
import { DocprocError } from "../../core/errors";
import { SPLIT_POLICIES, type SplitPolicy } from "../../core/model";
import { isoAt } from "../../core/clock";
import { indexesWithPassword } from "../../storage/files/source-file-passwords";
import {
  addSourceFile,
  findByUploadToken,
  listSourceFiles,
  type SourceFileRecord,
} from "../../storage/files/source-files";
import { contentTypeOf, safeName } from "../content-types";
import type { ServerDeps } from "../deps";
import { requireTransaction } from "./transactions";

export interface UploadInput {
  files: File[];
  uploadTokens: string[];
  splitPolicies: string[];
  /** Passwords of encrypted PDFs, aligned by position; "" for a file without one. Never echoed. */
  passwords: string[];
  fileIndex?: number;
}

const entryOf = (f: SourceFileRecord, duplicate: boolean, hasPassword: boolean) => ({
  file_name: f.filename,
  filename: f.filename,
  content_type: f.content_type,
  index: f.file_index,
  size: f.size,
  uploaded_at: f.uploaded_at,
  split_policy: f.split_policy,
  upload_token: f.upload_token,
  has_password: hasPassword,
  duplicate,
});

function checkInput(deps: ServerDeps, input: UploadInput): void {
  if (input.files.length === 0)
    throw new DocprocError("invalid_input", "files: at least one file is required (multipart field `files`)");
  if (input.files.length > deps.config.maxFilesPerUpload) {
    throw new DocprocError(
      "too_large",
      `Too many files: ${input.files.length} in one upload, at most ${deps.config.maxFilesPerUpload}`,
    );
  }
  const bad = input.splitPolicies
    .map((p, i) => [p, i] as const)
    .filter(([p]) => p !== "" && !(SPLIT_POLICIES as readonly string[]).includes(p));
  if (bad.length) {
    throw new DocprocError(
      "invalid_input",
      `split_policies: invalid value ${bad.map(([p, i]) => `${JSON.stringify(p)} at position ${i}`).join(", ")}; allowed values: ${SPLIT_POLICIES.join(", ")}`,
    );
  }
  if (input.splitPolicies.length > input.files.length)
    throw new DocprocError("invalid_input", "split_policies: more values than files");
  if (input.uploadTokens.length > input.files.length)
    throw new DocprocError("invalid_input", "upload_tokens: more values than files");
  if (input.passwords.length > input.files.length)
    throw new DocprocError("invalid_input", "passwords: more values than files");
  const long = input.passwords.findIndex((p) => p.length > 1024);
  if (long >= 0)
    throw new DocprocError("invalid_input", `passwords: the value at position ${long} is longer than 1024 characters`);
  const big = input.files.findIndex((f) => f.size > deps.config.maxFileBytes);
  if (big >= 0) {
    throw new DocprocError(
      "too_large",
      `File ${JSON.stringify(input.files[big]!.name)} is ${input.files[big]!.size} bytes; the limit is ${deps.config.maxFileBytes} bytes`,
    );
  }
}

/** The transaction's source files in index order (documented extension). */
export function listUploads(deps: ServerDeps, transactionId: string) {
  requireTransaction(deps, transactionId);
  const locked = indexesWithPassword(deps.db, transactionId);
  const files = listSourceFiles(deps.db, transactionId).map((f) => entryOf(f, false, locked.has(f.file_index)));
  return {
    transaction_id: transactionId,
    total_files: files.length,
    files: files.map(({ duplicate: _d, ...rest }) => rest),
  };
}

export async function uploadFiles(deps: ServerDeps, transactionId: string, input: UploadInput) {
  const t = requireTransaction(deps, transactionId);
  if (t.status !== "created")
    throw new DocprocError("conflict", `Cannot upload files to transaction in ${t.status} state`);
  checkInput(deps, input);
  const uploaded: ReturnType<typeof entryOf>[] = [];
  const failed: Array<{ filename: string; index: number | null; error: string }> = [];
  for (const [i, file] of input.files.entries()) {
    const token = input.uploadTokens[i] || null;
    const index = input.fileIndex === undefined ? undefined : input.fileIndex + i;
    const filename = safeName(file.name, i);
    try {
      const known = token ? findByUploadToken(deps.db, transactionId, token) : null;
      if (known) {
        uploaded.push(entryOf(known, true, indexesWithPassword(deps.db, transactionId).has(known.file_index)));
        continue;
      }
      const data = new Uint8Array(await file.arrayBuffer());
      if (data.byteLength === 0) throw new DocprocError("empty_file", "the file is empty");
      const blob_hash = await deps.blobs.put(data);
      const { file: rec, duplicate } = addSourceFile(deps.db, {
        transaction_id: transactionId,
        index,
        filename,
        content_type:
          file.type && file.type !== "application/octet-stream" ? file.type.split(";")[0]! : contentTypeOf(filename),
        size: data.byteLength,
        blob_hash,
        split_policy: (input.splitPolicies[i] || "inherit") as SplitPolicy,
        upload_token: token,
        password: input.passwords[i] || null,
        now: isoAt(deps.clock),
      });
      uploaded.push(entryOf(rec, duplicate, indexesWithPassword(deps.db, transactionId).has(rec.file_index)));
    } catch (err) {
      if (!(err instanceof DocprocError)) throw err;
      failed.push({ filename, index: index ?? null, error: err.message });
    }
  }
  return {
    transaction_id: transactionId,
    total_files: listSourceFiles(deps.db, transactionId).length,
    uploaded_count: uploaded.length,
    failed_count: failed.length,
    uploaded_files: uploaded,
    failed_files: failed,
  };
}
