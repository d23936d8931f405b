/**
 * `docproc process` on PDFs starts pdf.js loading in its worker thread (0.1-0.3 s) before the command framework and
 * the pipeline are imported on the main thread (oclif alone ~70-90 ms, the pipeline ~100-150 ms), so that the two
 * load side by side on two cores instead of pdf.js starting only once the command runs. This is only a head start:
 * process-run.ts asks for the same worker again once it has the real input list, and a worker started here for
 * nothing (a folder that turns out to hold only images) idles and does not keep the process alive.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";

/** Folder entries looked at, at most, per argument: a huge inbox must not delay the start. */
const MAX_ENTRIES = 2000;

/** Whether an argument names a PDF file, or a folder with a PDF directly in it. MUST NOT throw. */
export function namesPdf(arg: string): boolean {
  if (arg.startsWith("-")) return false;
  try {
    const info = statSync(arg);
    if (info.isFile()) return /\.pdf$/i.test(arg);
    if (!info.isDirectory()) return false;
    const entries = readdirSync(arg);
    return entries.slice(0, MAX_ENTRIES).some((e) => /\.pdf$/i.test(e) && statSync(path.join(arg, e), { throwIfNoEntry: false })?.isFile() === true);
  } catch {
    return false;
  }
}

/** For `process`: the pdf.js head start when an argument names a PDF (see the module comment). */
export async function warmPdfEarly(argv: string[]): Promise<void> {
  if (argv[0] !== "process" || !argv.slice(1).some(namesPdf)) return;
  const { prewarmPdfWorkers } = await import("../core/convert/pdf-client");
  void prewarmPdfWorkers(1).catch(() => undefined);
}
