/**
 * `docproc process` on PDFs starts loading pdf.js in its worker thread (0.1-0.3 s) before the command framework and
 * the pipeline are imported on the main thread (oclif alone ~40-90 ms, the pipeline ~100-150 ms), so that the two
 * load side by side on two cores instead of pdf.js starting only once the command runs. This is only a head start:
 * process-run.ts asks for the same worker again once it has the real input list, and a worker started here for
 * nothing (a folder that turns out to hold only images) idles and does not keep the process alive.
 *
 * The worker also opens the first PDF the run will read and reads its first pages meanwhile
 * (core/engines/pdf/pdf-head-start.ts): the run's own requests then find them done when their parameters are the
 * defaults, and anything else (another file opened first, a project with other limits, a password) is simply
 * computed again.
 */
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { FILE_BACKED_MIN_BYTES } from "../core/engines/pdf/pdf-bytes";

/** Folder entries looked at, at most, per argument: a huge inbox must not delay the start. */
const MAX_ENTRIES = 2000;
/** Pages the head start reads at most before the run asks (it stops sooner: once the run opens the file). */
const HEAD_START_PAGES = 64;
/**
 * Larger files are left to the run, which maps them and has its workers read the file (pdf-bytes.ts): the head start
 * reads a file into memory (and its worker keeps a copy to compare with), so its copies are bounded by this size and
 * let go once the run opens the file.
 */
export const HEAD_START_MAX_BYTES = Math.min(8 * 1024 * 1024, FILE_BACKED_MIN_BYTES);

/** Whether an argument names a PDF file, or a folder with a PDF directly in it. MUST NOT throw. */
export function namesPdf(arg: string): boolean {
  if (arg.startsWith("-")) return false;
  try {
    const info = statSync(arg);
    if (info.isFile()) return isPdfName(arg);
    if (!info.isDirectory()) return false;
    const entries = readdirSync(arg);
    return entries
      .slice(0, MAX_ENTRIES)
      .some((e) => isPdfName(e) && statSync(path.join(arg, e), { throwIfNoEntry: false })?.isFile() === true);
  } catch {
    return false;
  }
}

const isPdfName = (name: string) => /\.pdf$/i.test(name);

/**
 * The one PDF file the arguments name when they name exactly one file and no folder with PDFs; else null. `named`:
 * the arguments that name a PDF, when the caller has them already. MUST NOT throw.
 */
export function singlePdfFile(args: string[], named = args.filter(namesPdf)): string | null {
  if (named.length !== 1) return null;
  try {
    const info = statSync(named[0]!);
    return info.isFile() && info.size > 0 && info.size <= HEAD_START_MAX_BYTES ? named[0]! : null;
  } catch {
    return null;
  }
}

/**
 * The PDF a run of `process` on these arguments probably reads first: the one PDF file named, else the first PDF
 * directly in the first folder named, in the order the run walks it (src/batch/inputs.ts: code-point order, no
 * dot-names), unless a subfolder comes before it. A guess (it looks at one folder level, like namesPdf): a wrong
 * one only costs the head start. Null when there is none. MUST NOT throw.
 */
export function firstPdfToRead(args: string[], named = args.filter(namesPdf)): string | null {
  const single = singlePdfFile(args, named);
  if (single) return single;
  try {
    const folder = args.find((a) => !a.startsWith("-") && statSync(a, { throwIfNoEntry: false })?.isDirectory());
    if (!folder) return null;
    const names = readdirSync(folder)
      .filter((n) => !n.startsWith("."))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    for (const name of names.slice(0, MAX_ENTRIES)) {
      const info = statSync(path.join(folder, name), { throwIfNoEntry: false });
      if (!info || info.isDirectory()) return null; // the run reads that folder's files first
      if (info.isFile() && isPdfName(name))
        return info.size > 0 && info.size <= HEAD_START_MAX_BYTES ? path.join(folder, name) : null;
    }
    return null;
  } catch {
    return null;
  }
}

/** For `process`: the pdf.js head start when an argument names a PDF (see the module comment). */
export async function warmPdfEarly(argv: string[]): Promise<void> {
  if (argv[0] !== "process") return;
  const args = argv.slice(1);
  const named = args.filter(namesPdf);
  if (named.length === 0) return;
  const [{ prewarmPdfWorkers }, { DEFAULT_LIMITS, PDF_RENDER_DPI }] = await Promise.all([
    import("../core/engines/pdf/pdf-client"),
    import("../core/convert-limits"),
  ]);
  const file = firstPdfToRead(args, named);
  let data: Uint8Array | null = null;
  try {
    data = file ? new Uint8Array(readFileSync(file)) : null;
  } catch {
    data = null; // unreadable now: the run reports it
  }
  const head = data
    ? {
        data,
        pages: HEAD_START_PAGES,
        preferredScale: PDF_RENDER_DPI / 72,
        maxSidePx: DEFAULT_LIMITS.maxSidePx,
        maxRasterPixels: DEFAULT_LIMITS.maxRasterPixels,
      }
    : undefined;
  void prewarmPdfWorkers(1, head).catch(() => undefined);
}
