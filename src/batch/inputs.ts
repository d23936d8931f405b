/**
 * Turns the paths given on the command line into the list of files to process.
 *
 * MUST walk folders recursively in sorted (code-point) order so two runs see the same order; MUST skip hidden files
 * and folders (dot-names: editor swap files, .DS_Store); MUST take from folders only files with a document
 * extension (others are returned as `skipped` with a reason, so a README in an inbox is reported, not "failed"), and
 * `.xml` files only when their content is a UBL or CII e-invoice (root element and namespace: convert/sniff.ts), while a
 * file named explicitly is always processed, whatever its name; MUST reject a path that does not exist with `invalid_input`
 * (a usage error, exit 2) before any work starts, and likewise a path that is neither a regular file nor a folder
 * (a device, a FIFO, a socket); MUST list each file once even when given twice.
 */
import type { Stats } from "node:fs";
import { open, readdir, stat } from "node:fs/promises";
import path from "node:path";
import { sniffEInvoiceXml } from "../core/convert/sniff";
import { DocprocError } from "../core/errors";
import { pushAll } from "../core/arrays";

/** Extensions a folder walk picks up: the formats conversion reads, and e-mails (expanded into body + attachments). */
export const DOCUMENT_EXTENSIONS = new Set([
  ".pdf",
  ".png",
  ".jpg",
  ".jpeg",
  ".jpe",
  ".jfif",
  ".tif",
  ".tiff",
  ".webp",
  ".gif",
  ".bmp",
  ".eml",
]);

export interface CollectedInputs {
  files: string[];
  /** Files found in folders that are not documents docproc reads. */
  skipped: string[];
  /** Why each skipped file was left out, by path. */
  reasons: Record<string, string>;
}

export interface CollectOptions {
  /** Folders never walked into (the output folder, when it sits inside an input folder). */
  exclude?: string[];
}

export async function collectInputs(paths: string[], opts: CollectOptions = {}): Promise<CollectedInputs> {
  if (paths.length === 0) throw new DocprocError("invalid_input", "no file or folder given");
  const exclude = new Set((opts.exclude ?? []).map((p) => path.resolve(p)));
  const seen = new Set<string>();
  const out: string[] = [];
  const skipped: string[] = [];
  const reasons: Record<string, string> = {};
  const add = (file: string) => {
    const key = path.resolve(file);
    if (!seen.has(key)) {
      seen.add(key);
      out.push(file);
    }
  };
  for (const p of paths) {
    const info = await stat(p).catch(() => null);
    if (!info) throw new DocprocError("invalid_input", `no such file or folder: ${p}`);
    if (!info.isDirectory()) {
      // A device or FIFO is no document: /dev/zero never ends and a FIFO blocks until someone writes to it.
      if (!info.isFile())
        throw new DocprocError(
          "invalid_input",
          `${p} is not a regular file (${kindOf(info)}): only files and folders are processed`,
        );
      add(p);
      continue;
    }
    for (const f of await walk(p, exclude)) {
      const why = await whyNotADocument(f);
      if (why === null) add(f);
      else {
        skipped.push(f);
        reasons[f] = why;
      }
    }
  }
  return { files: out, skipped, reasons };
}

/** Null when a file found in a folder is a document to process, else why not (see whyNotADocumentOf). */
export async function whyNotADocument(file: string): Promise<string | null> {
  if (path.extname(file).toLowerCase() !== ".xml") return whyNotADocumentOf(file, new Uint8Array());
  const head = await readHead(file, 8192).catch((e: Error) => e);
  return head instanceof Error ? `unreadable: ${head.message}` : whyNotADocumentOf(file, head);
}

/**
 * The same question asked of a file's name and its first bytes (8 KB do): an `.xml` file is a document when it is a
 * UBL or CII e-invoice. The watcher asks it of a file that has settled.
 */
export function whyNotADocumentOf(file: string, head: Uint8Array): string | null {
  const ext = path.extname(file).toLowerCase();
  if (DOCUMENT_EXTENSIONS.has(ext)) return null;
  if (ext !== ".xml") return "not a document type docproc reads";
  const sniffed = sniffEInvoiceXml(head);
  return sniffed.syntax ? null : sniffed.reason;
}

async function readHead(file: string, bytes: number): Promise<Uint8Array> {
  const fh = await open(file, "r");
  try {
    const buf = new Uint8Array(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

function kindOf(info: Stats): string {
  if (info.isFIFO()) return "a named pipe";
  if (info.isCharacterDevice()) return "a character device";
  if (info.isBlockDevice()) return "a block device";
  if (info.isSocket()) return "a socket";
  return "not a file";
}

async function walk(dir: string, exclude: Set<string>): Promise<string[]> {
  if (exclude.has(path.resolve(dir))) return [];
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const files: string[] = [];
  for (const e of entries) {
    if (e.name.startsWith(".")) continue;
    const full = path.join(dir, e.name);
    if (e.isDirectory()) pushAll(files, await walk(full, exclude));
    else if (e.isFile()) files.push(full);
    else if (e.isSymbolicLink()) {
      const target = await stat(full).catch(() => null);
      if (target?.isFile()) files.push(full);
    }
  }
  return files;
}
