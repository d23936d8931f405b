/**
 * Conversion benchmark (issue 2, "Done when"):
 * (a) pages/s for a 500-page born-digital PDF through conversion and the JSON results export, next to `pdftotext`
 *     on the same file (target ≥ 1.0× pdftotext);
 * (b) peak RSS (VmHWM) while converting and exporting a 2,000-page PDF, measured in a child process so the parent's
 *     own memory does not count (target < 1 GB).
 *
 * Fairness: pdftotext's figure includes its process start, so every docproc round starts its pdf.js workers too
 * (the idle pool is emptied first); loading docproc's own modules is start-up and is measured elsewhere. Both sides
 * run ROUNDS times, alternating, and the best round of each counts (the machine is shared; the best round is the
 * one least disturbed). CPU time (all threads of each side) is reported too: it does not depend on the load.
 *
 * The PDFs are generated with pdf-lib (seeded, several hundred words of invoice-like prose per page) and cached in
 * bench/.cache. `bun bench/convert.ts --rss-child FILE` is the child side of (b).
 */
import { mkdir } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import type { BenchRow } from "./index";
import { Rng } from "../fixtures/varied/generator/random";

const CACHE = path.resolve(import.meta.dir, ".cache");
const SPEED_PAGES = 500;
const RSS_PAGES = 2000;

const WORDS = (
  "the of and to in for on with by from at as is are be this that our your we you will invoice order delivery " +
  "payment customer account service services total amount net tax vat due date number reference period item items " +
  "quantity price unit description shipping address billing terms conditions contract agreement supplier product " +
  "products month monthly annual support maintenance license software hardware installation consulting hours rate " +
  "discount credit balance previous received thank business please note within days bank transfer iban details " +
  "questions contact department office management report schedule project phase review approval signed copy original " +
  "according following above below including excluding per each any all other further additional standard premium"
).split(" ");

/** One page of invoice-like prose: a heading, a few paragraphs with amounts and dates, ~400 words. */
function pageLines(rand: () => number, pageNumber: number): string[] {
  const word = () => WORDS[Math.floor(rand() * WORDS.length)]!;
  const token = () => {
    const r = rand();
    if (r < 0.04) return `${(rand() * 9999).toFixed(2)} EUR`;
    if (r < 0.06)
      return `${1 + Math.floor(rand() * 28)}.${1 + Math.floor(rand() * 12)}.20${10 + Math.floor(rand() * 15)}`;
    if (r < 0.08) return String(Math.floor(rand() * 100000));
    return word();
  };
  const lines = [`Statement ${100000 + pageNumber}   Page ${pageNumber}`, ""];
  while (lines.length < 48) {
    const n = 9 + Math.floor(rand() * 3);
    const words = Array.from({ length: n }, token);
    words[0] = words[0]!.charAt(0).toUpperCase() + words[0]!.slice(1);
    lines.push(words.join(" ") + (rand() < 0.3 ? "." : ""));
    if (rand() < 0.08) lines.push("");
  }
  return lines;
}

export async function generatePdf(pages: number, seed = 42): Promise<Uint8Array> {
  const rng = new Rng(seed);
  const rand = () => rng.next();
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= pages; p++) {
    const page = pdf.addPage([595.28, 841.89]);
    let y = 800;
    for (const line of pageLines(rand, p)) {
      if (line) page.drawText(line, { x: 50, y, size: 10, font });
      y -= 15.5;
    }
  }
  return pdf.save();
}

/** The cached benchmark PDF with `pages` pages, generated on first use. */
export async function cachedPdf(pages: number): Promise<string> {
  const file = path.join(CACHE, `born-digital-${pages}.pdf`);
  if (!(await Bun.file(file).exists())) {
    await mkdir(CACHE, { recursive: true });
    await Bun.write(file, await generatePdf(pages));
  }
  return file;
}

/** Module loading is start-up cost, not throughput: done once, before the clock starts. */
async function loadModules() {
  const [{ convertSource }, { buildResultsFile }, { runExports, memorySink, defaultJsonProfile }] = await Promise.all([
    import("../src/core/stages/convert"),
    import("../src/core/results"),
    import("../src/core/exporters"),
  ]);
  return { convertSource, buildResultsFile, runExports, memorySink, defaultJsonProfile };
}

/**
 * docproc's side: convert every page (text layer, word boxes) and run the default JSON export profile into memory.
 * Returns the number of pages converted.
 */
export async function convertAndExport(file: string): Promise<number> {
  const { convertSource, buildResultsFile, runExports, memorySink, defaultJsonProfile } = await loadModules();
  const data = new Uint8Array(await Bun.file(file).arrayBuffer());
  const source = { index: 0, filename: path.basename(file), data, split_policy: "inherit" as const };
  const converted = await convertSource(source, { firstPageNumber: 1, maxPages: null });
  try {
    const meta = {
      transaction_id: crypto.randomUUID(),
      tenant_id: "bench",
      project_id: "default",
      project_version: 1,
      correlation_id: null,
      metadata: {},
      created_at: new Date().toISOString(),
      source: "cli",
    };
    const results = buildResultsFile(meta, [source.filename], [], converted.pages, []);
    const manifest = await runExports({ results, pages: converted.pages, sources: [source], sink: memorySink() }, [
      defaultJsonProfile,
    ]);
    const failed = Object.values(manifest.profiles).find((p) => p.error);
    if (failed) throw new Error(`JSON export failed: ${failed.error}`);
    if (converted.pages.some((p) => p.text_source !== "text_layer"))
      throw new Error("a generated page lost its text layer");
    return converted.pages.length;
  } finally {
    await converted.close();
  }
}

interface Run {
  seconds: number;
  /** CPU time of every thread of the side (docproc: this process; pdftotext: the child). */
  cpuSeconds: number;
}

/** One pdftotext run on the file, or null when poppler-utils is not installed. */
async function pdftotextRun(file: string): Promise<Run | null> {
  if (!Bun.which("pdftotext")) return null;
  const out = path.join(os.tmpdir(), `docproc-bench-${process.pid}.txt`);
  const started = performance.now();
  const proc = Bun.spawn(["pdftotext", "-q", file, out], { stdout: "ignore", stderr: "ignore" });
  const code = await proc.exited;
  const seconds = (performance.now() - started) / 1000;
  await Bun.file(out)
    .delete()
    .catch(() => {});
  if (code !== 0) throw new Error(`pdftotext exited ${code}`);
  const cpu = proc.resourceUsage()?.cpuTime;
  return { seconds, cpuSeconds: cpu ? Number(cpu.total) / 1e6 : NaN };
}

/** One docproc run (convert + JSON export); `cold` first closes idle pdf.js workers so the run starts its own. */
async function docprocRun(file: string, cold: boolean): Promise<Run> {
  if (cold) (await import("../src/core/engines/pdf/pdf-client")).closeIdlePdfWorkers();
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  const pages = await convertAndExport(file);
  const seconds = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpu0);
  if (pages !== SPEED_PAGES) throw new Error(`converted ${pages} pages of ${SPEED_PAGES}`);
  return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6 };
}

const best = (runs: Run[]) => runs.reduce((a, b) => (b.seconds < a.seconds ? b : a));

/** Peak RSS in MB of a child converting and exporting the file. */
async function childPeakRssMb(file: string): Promise<number> {
  const proc = Bun.spawn([process.execPath, import.meta.path, "--rss-child", file], {
    stdout: "pipe",
    stderr: "inherit",
  });
  const [text, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  if (code !== 0) throw new Error(`RSS child exited ${code}`);
  const { vmhwm_kb } = JSON.parse(text.trim().split("\n").pop()!) as { vmhwm_kb: number };
  return vmhwm_kb / 1024;
}

function vmhwmKb(): number {
  const status = require("node:fs").readFileSync("/proc/self/status", "utf8") as string;
  const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
  if (!m) throw new Error("no VmHWM in /proc/self/status");
  return Number(m[1]);
}

const ROUNDS = 3;

export async function benchConvert(): Promise<BenchRow[]> {
  const speedFile = await cachedPdf(SPEED_PAGES);
  const rssFile = await cachedPdf(RSS_PAGES);
  await loadModules();
  const refRuns: Run[] = [];
  const coldRuns: Run[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    const ref = await pdftotextRun(speedFile);
    if (ref) refRuns.push(ref);
    coldRuns.push(await docprocRun(speedFile, true));
  }
  // A long-running process (serve, worker) keeps two pdf.js workers (pipeline-runner.ts prewarms them), and both
  // are JIT-warm after its first files: a 500-page PDF is then shared between them. Untimed rounds warm them (the
  // rounds get faster up to about the fourth: JIT tier-up of the helper, which sees half the pages).
  const { prewarmPdfWorkers } = await import("../src/core/engines/pdf/pdf-client");
  await prewarmPdfWorkers(2);
  for (let i = 0; i < 4; i++) await docprocRun(speedFile, false);
  const warm = best([
    await docprocRun(speedFile, false),
    await docprocRun(speedFile, false),
    await docprocRun(speedFile, false),
  ]);
  const cold = best(coldRuns);
  const ref = refRuns.length > 0 ? best(refRuns) : null;
  const perPageMs = (r: Run) => (r.cpuSeconds * 1000) / SPEED_PAGES;
  const rows: BenchRow[] = [
    {
      metric: `born-digital PDF, ${SPEED_PAGES} pages: convert + JSON export, best of ${ROUNDS} (ref: pdftotext)`,
      docproc: SPEED_PAGES / cold.seconds,
      reference: ref ? SPEED_PAGES / ref.seconds : "not installed",
      unit: "pages/s",
      target: "≥ 1.0×",
      note:
        `born-digital: CPU per page (all threads) ${perPageMs(cold).toFixed(2)} ms when the run starts its pdf.js worker ` +
        `(loading pdf.js ~0.13 s, JIT-compiling it ~0.4 s of CPU: costs a C tool does not have), ` +
        `${perPageMs(warm).toFixed(2)} ms with two warm workers, pdftotext ${ref ? perPageMs(ref).toFixed(2) : "-"} ms. ` +
        "pdf.js needs more CPU per page than poppler: a fresh process reaches ≥ 1.0× only on files long enough to " +
        "amortise its JIT warm-up; warm, two workers on two cores pass pdftotext (single-threaded).",
    },
    {
      metric: `  same, CPU time per page (all threads)`,
      docproc: perPageMs(cold),
      reference: ref ? perPageMs(ref) : "not installed",
      ratio: ref ? perPageMs(ref) / perPageMs(cold) : null,
      unit: "ms",
      target: "-",
    },
    {
      metric: `  same, steady state of serve/worker: two warm pdf.js workers`,
      docproc: SPEED_PAGES / warm.seconds,
      reference: ref ? SPEED_PAGES / ref.seconds : "not installed",
      unit: "pages/s",
      target: "-",
    },
  ];

  const peakMb = await childPeakRssMb(rssFile);
  rows.push({
    metric: `peak RSS, ${RSS_PAGES}-page PDF: convert + JSON export`,
    docproc: peakMb,
    reference: null,
    ratio: null,
    unit: "MB",
    target: "< 1024 MB",
  });
  return rows;
}

if (import.meta.main) {
  const i = process.argv.indexOf("--rss-child");
  if (i >= 0) {
    const pages = await convertAndExport(process.argv[i + 1]!);
    process.stdout.write(JSON.stringify({ pages, vmhwm_kb: vmhwmKb() }) + "\n");
  } else {
    const { renderBenchTable } = await import("./index");
    process.stdout.write(renderBenchTable(await benchConvert()));
  }
}
