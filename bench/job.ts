/**
 * The job a user runs, not its parts (issue 18): `docproc process` with the default project in a fresh process, and
 * the same files through a warm `docproc serve`, next to what users compare against, on the same inputs:
 * (a) a 500-page born-digital PDF of real invoice pages (the invoice2data corpus, repeated) vs pdftotext;
 * (b) a folder of 100 one-page invoice PDFs vs a pdftotext loop;
 * (c) 20 scanned 300-DPI pages (bench/ocr.ts's pages) as images, native and embedded engine, vs the tesseract CLI
 *     with the same model and parallelism (2 single-threaded processes); and as one PDF vs OCRmyPDF -j 2 --sidecar
 *     (same model through TESSDATA_PREFIX) when it is installed;
 * (d) one tiny PDF: wall seconds of the whole process (target ≤ 0.6 s);
 * (e) peak RSS of `docproc process` on a 2,000-page born-digital PDF (target < 600 MB). Peak RSS is GNU time's (see measure).
 * Each pair runs interleaved (docproc, reference, docproc, reference …: ROUNDS rounds, BENCH_ROUNDS overrides; at least
 * five for the born-digital rows, QUICK_ROUNDS) and the medians count. CPU seconds (user + sys of the process and the children it waited for) are printed too: on a
 * busy machine they move less than wall time. A per-stage table (DOCPROC_STAGE_TIMES, src/core/timing.ts) shows
 * where docproc's time went in its first run of each input.
 * `bun bench/job.ts [a b c d e serve serve-pdf serve-shapes]` runs it (or some of its parts) alone; serve-pdf is serve
 * without the scanned case, serve-shapes warm serve on each PDF shape of bench/shapes.ts; `c-native`, `c-wasm`, `c-pdf` pick one scanned row.
 */
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { resolveTessdataDir, unpackedTessdataDir } from "../src/core/engines/ocr/tessdata.ts";
import type { BenchRow } from "./index";
import { benchPages } from "./ocr";
import { cachedPdf } from "./convert";
import { serveRows } from "./job/serve";
import { docprocCommand } from "./job/command";

const ROOT = path.resolve(import.meta.dir, "..");
const CACHE = path.resolve(import.meta.dir, ".cache", "job");
const CORPUS = path.resolve(ROOT, "fixtures/corpora/invoice2data");
const ROUNDS = Number(process.env.BENCH_ROUNDS) || 2;
/**
 * Rounds of the born-digital rows, at least five: a run takes about a second, and the VM's speed drifts by 5-10% from
 * run to run, so a median of two moved the 500-page ratio by ±0.02 between otherwise equal runs.
 */
export const QUICK_ROUNDS = Math.max(5, ROUNDS);
const OCR_WORKERS = 2;

export interface Run {
  wall: number;
  cpu: number;
  /** Peak RSS of the largest process waited for, MB. */
  rssMB: number;
}

const GNU_TIME = existsSync("/usr/bin/time") ? "/usr/bin/time" : null;

/**
 * Runs a command to its end; wall seconds, CPU seconds (its own and its waited-for children's) and peak RSS.
 * `peakRss`: the peak RSS comes from GNU time when installed (wait4's ru_maxrss of the command): Bun's
 * resourceUsage().maxRSS printed the same figure for different commands of one bench run (843 MB for both 2,000-page
 * files where GNU time gave 408 and 817; 1,203 MB for all three scanned rows), so it is only the fallback. Only
 * docproc's runs ask for it: GNU time adds a process start (~1 ms) to each run, 10% of a 100-file pdftotext loop.
 */
export async function measure(cmd: string[], env: Record<string, string> = {}, peakRss = false): Promise<Run> {
  const report =
    GNU_TIME && peakRss
      ? path.join(tmpdir(), `docproc-bench-time-${process.pid}-${Math.random().toString(36).slice(2)}.txt`)
      : null;
  const started = performance.now();
  const argv = report ? [GNU_TIME!, "-f", "%M", "-o", report, ...cmd] : cmd;
  const proc = Bun.spawn(argv, { stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1", ...env } });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  const wall = (performance.now() - started) / 1000;
  const kb = report ? Number(readFileSync(report, "utf8").trim().split("\n").at(-1)) : NaN;
  if (report) rmSync(report, { force: true });
  // docproc exits 1 when a file failed; its --json summary on stdout says which and why.
  if (code !== 0)
    throw new Error(
      `${path.basename(cmd[0]!)} ${cmd.slice(1, 3).join(" ")} exited with ${code}: ${stderr.trim().slice(-200)} ${failuresIn(stdout)}`,
    );
  const usage = proc.resourceUsage();
  const cpu = usage ? Number(usage.cpuTime.user + usage.cpuTime.system) / 1e6 : NaN;
  // Bun reports maxRSS in bytes.
  return { wall, cpu, rssMB: Number.isFinite(kb) ? kb / 1024 : usage ? usage.maxRSS / (1024 * 1024) : NaN };
}

/** The failed files of a docproc --json summary, briefly ("" for any other output). */
function failuresIn(stdout: string): string {
  try {
    const summary = JSON.parse(stdout) as { files?: Array<{ file: string; status: string; errors: unknown[] }> };
    return JSON.stringify(
      (summary.files ?? [])
        .filter((f) => f.status === "failure" || f.errors.length > 0)
        .map((f) => [path.basename(f.file), f.errors]),
    ).slice(0, 600);
  } catch {
    return stdout.trim().slice(-200);
  }
}

/** A sequence of commands, one after another (a shell loop), as one run. */
async function measureLoop(cmds: string[][]): Promise<Run> {
  const total: Run = { wall: 0, cpu: 0, rssMB: 0 };
  for (const cmd of cmds) {
    const r = await measure(cmd);
    total.wall += r.wall;
    total.cpu += r.cpu;
    total.rssMB = Math.max(total.rssMB, r.rssMB);
  }
  return total;
}

/** Commands run by `lanes` workers at once, as one run (wall from the first start to the last exit). */
async function measureParallel(cmds: string[][], lanes: number): Promise<Run> {
  const started = performance.now();
  let next = 0;
  const runs: Run[] = [];
  const lane = async () => {
    while (next < cmds.length) runs.push(await measure(cmds[next++]!));
  };
  await Promise.all(Array.from({ length: lanes }, lane));
  return {
    wall: (performance.now() - started) / 1000,
    cpu: runs.reduce((s, r) => s + r.cpu, 0),
    rssMB: Math.max(...runs.map((r) => r.rssMB)),
  };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** A and B in turn, `rounds` times; medians of each. */
export async function interleaved(
  a: () => Promise<Run>,
  b: (() => Promise<Run>) | null,
  rounds = ROUNDS,
): Promise<{ a: Run; b: Run | null }> {
  const as: Run[] = [];
  const bs: Run[] = [];
  for (let i = 0; i < rounds; i++) {
    as.push(await a());
    if (b) bs.push(await b());
  }
  const med = (rs: Run[]): Run => ({
    wall: median(rs.map((r) => r.wall)),
    cpu: median(rs.map((r) => r.cpu)),
    rssMB: median(rs.map((r) => r.rssMB)),
  });
  return { a: med(as), b: b ? med(bs) : null };
}

// ---- inputs (cached in bench/.cache/job) ----

/** The corpus's born-digital invoice PDFs, in name order. */
function invoicePdfs(): string[] {
  return readdirSync(CORPUS)
    .filter((f) => f.endsWith(".pdf"))
    .sort()
    .map((f) => path.join(CORPUS, f));
}

/**
 * The invoice pages joined, repeated up to `pages`, in the corpus's order. Each source file is copied in one call,
 * so its fonts and images are stored once and shared by all its copies, as in a real long export.
 */
export async function realPagesPdf(pages: number): Promise<string> {
  const file = path.join(CACHE, `real-v2-${pages}.pdf`);
  if (existsSync(file)) return file;
  mkdirSync(CACHE, { recursive: true });
  const out = await PDFDocument.create();
  const sources = await Promise.all(
    invoicePdfs().map(async (f) => PDFDocument.load(readFileSync(f), { ignoreEncryption: true })),
  );
  const cycle = sources.reduce((n, s) => n + s.getPageCount(), 0);
  const rounds = Math.ceil(pages / cycle);
  const copies = await Promise.all(
    sources.map((src) => out.copyPages(src, Array.from({ length: rounds }, () => src.getPageIndices()).flat())),
  );
  // Round r takes the r-th copy of every source page, so the stream stays "one invoice after another".
  for (let r = 0; r < rounds; r++) {
    sources.forEach((src, i) => {
      const n = src.getPageCount();
      for (const p of copies[i]!.slice(r * n, (r + 1) * n)) if (out.getPageCount() < pages) out.addPage(p);
    });
  }
  writeFileSync(file, await out.save());
  return file;
}

/** 100 one-page invoice PDFs in a folder (the corpus's one-page files, cycled). */
async function onePageFolder(count = 100): Promise<string> {
  const dir = path.join(CACHE, `one-page-${count}`);
  if (existsSync(dir) && readdirSync(dir).length === count) return dir;
  mkdirSync(dir, { recursive: true });
  const singles: string[] = [];
  for (const f of invoicePdfs())
    if ((await PDFDocument.load(readFileSync(f), { ignoreEncryption: true })).getPageCount() === 1) singles.push(f);
  for (let i = 0; i < count; i++)
    copyFileSync(
      singles[i % singles.length]!,
      path.join(dir, `${String(i).padStart(3, "0")}-${path.basename(singles[i % singles.length]!)}`),
    );
  return dir;
}

/** The 20 scanned pages as PNG files in a folder, and as one PDF (each page an A4 image at 300 DPI). */
async function scannedInputs(): Promise<{ dir: string; files: string[]; pdf: string }> {
  const pages = await benchPages();
  const dir = path.join(CACHE, "scans");
  mkdirSync(dir, { recursive: true });
  const files = pages.map((p) => {
    const to = path.join(dir, path.basename(p));
    if (!existsSync(to)) copyFileSync(p, to);
    return to;
  });
  const pdf = path.join(CACHE, "scans.pdf");
  if (!existsSync(pdf)) {
    const doc = await PDFDocument.create();
    for (const f of files) {
      const png = await doc.embedPng(readFileSync(f));
      const page = doc.addPage([595.28, 841.89]);
      page.drawImage(png, { x: 0, y: 0, width: 595.28, height: 841.89 });
    }
    writeFileSync(pdf, await doc.save());
  }
  return { dir, files, pdf };
}

// ---- the commands ----

const tmp = () => mkdtempSync(path.join(tmpdir(), "docproc-job-"));

/** `docproc process` in a fresh process, JSON summary, default project; the output folder is thrown away after. */
export function docproc(input: string, extra: string[] = [], env: Record<string, string> = {}): () => Promise<Run> {
  return async () => {
    const out = tmp();
    try {
      return await measure([...docprocCommand(), "process", input, "--out", out, "--json", ...extra], env, true);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  };
}

/** The per-stage totals of one docproc run. */
interface StageTimes {
  stages: Record<string, { ms: number; calls: number }>;
  /** CPU seconds per kind of thread at exit (src/settings/diagnostics.ts). */
  threads: Record<string, number>;
}

async function stageTimesOf(input: string, extra: string[] = []): Promise<StageTimes> {
  const file = path.join(tmp(), "stages.json");
  await docproc(input, extra, { DOCPROC_STAGE_TIMES: file })();
  const times = JSON.parse(readFileSync(file, "utf8")) as StageTimes;
  rmSync(path.dirname(file), { recursive: true, force: true });
  return times;
}

function which(tool: string): string | null {
  return Bun.which(tool);
}

function tesseractCmds(files: string[], tessdata: string): string[][] {
  return files.map((f) => [
    "env",
    "OMP_THREAD_LIMIT=1",
    "tesseract",
    f,
    "stdout",
    "--tessdata-dir",
    tessdata,
    "-l",
    "eng",
    "--oem",
    "1",
    "--psm",
    "3",
  ]);
}

function ocrmypdf(pdf: string, tessdata: string): () => Promise<Run> {
  return async () => {
    const out = tmp();
    try {
      return await measure(
        [
          "ocrmypdf",
          "-q",
          "-j",
          String(OCR_WORKERS),
          "--output-type",
          "pdf",
          "--sidecar",
          path.join(out, "text.txt"),
          pdf,
          path.join(out, "out.pdf"),
        ],
        {
          TESSDATA_PREFIX: tessdata,
          OMP_THREAD_LIMIT: "1",
        },
      );
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  };
}

// ---- rows ----

interface Pair {
  metric: string;
  units: number;
  unit: string;
  docproc: Run;
  reference: Run | null;
  refName: string;
  target: string;
}

export function pairRows(p: Pair): BenchRow[] {
  const ref = p.reference;
  return [
    {
      metric: `${p.metric} (vs ${p.refName})`,
      docproc: p.units / p.docproc.wall,
      reference: ref ? p.units / ref.wall : "not installed",
      unit: p.unit,
      target: p.target,
    },
    {
      metric: `  same, per CPU-second (${p.docproc.cpu.toFixed(1)} vs ${ref ? ref.cpu.toFixed(1) : "-"} CPU-s; peak RSS ${p.docproc.rssMB.toFixed(0)} MB)`,
      docproc: p.units / p.docproc.cpu,
      reference: ref ? p.units / ref.cpu : null,
      unit: `${p.unit.split("/")[0]}/CPU-s`,
      target: "informative",
    },
  ];
}

function stageRows(label: string, times: StageTimes): BenchRow[] {
  const entries = Object.entries(times.stages).sort((a, b) => b[1].ms - a[1].ms);
  const threads = Object.entries(times.threads).sort((a, b) => b[1] - a[1]);
  const byThread: BenchRow = {
    metric: `  CPU-s by thread at exit, ${label}`,
    docproc: threads.map(([kind, cpu]) => `${kind} ${cpu.toFixed(2)}`).join(" · "),
    reference: null,
    ratio: null,
    unit: "",
    target: "informative",
  };
  return [
    byThread,
    ...entries.map(([stage, t]) => ({
      metric: `  stage time, ${label}: ${stage} (${t.calls} call${t.calls === 1 ? "" : "s"})`,
      docproc: t.ms / 1000,
      reference: null,
      ratio: null,
      unit: "s",
      target: "informative",
    })),
  ];
}

export async function benchJob(parts: string[] = []): Promise<BenchRow[]> {
  mkdirSync(CACHE, { recursive: true });
  const want = (p: string) => parts.length === 0 || parts.includes(p);
  const rows: BenchRow[] = [];
  const pdftotext = which("pdftotext");
  const tessdata = unpackedTessdataDir(resolveTessdataDir());

  if (want("a")) {
    const pdf = await realPagesPdf(500);
    const r = await interleaved(
      docproc(pdf),
      pdftotext ? () => measure([pdftotext, pdf, path.join(tmpdir(), "docproc-job-a.txt")]) : null,
      QUICK_ROUNDS,
    );
    rows.push(
      ...pairRows({
        metric: "process 500 real born-digital invoice pages, one PDF, default project",
        units: 500,
        unit: "pages/s",
        docproc: r.a,
        reference: r.b,
        refName: "pdftotext",
        target: "≥ 0.5×",
      }),
    );
    rows.push(...stageRows("500 real pages", await stageTimesOf(pdf)));
  }
  if (want("b")) {
    const dir = await onePageFolder(100);
    const files = readdirSync(dir)
      .sort()
      .map((f) => path.join(dir, f));
    const loop = pdftotext
      ? () => measureLoop(files.map((f) => [pdftotext, f, path.join(tmpdir(), "docproc-job-b.txt")]))
      : null;
    const r = await interleaved(docproc(dir), loop, QUICK_ROUNDS);
    rows.push(
      ...pairRows({
        metric: "process a folder of 100 one-page invoice PDFs",
        units: 100,
        unit: "docs/s",
        docproc: r.a,
        reference: r.b,
        refName: "a pdftotext loop",
        target: "≥ 0.5×",
      }),
    );
    rows.push(...stageRows("100 one-page PDFs", await stageTimesOf(dir)));
  }
  // "c" runs the three scanned rows; "c-native", "c-wasm" and "c-pdf" one each.
  const wantScans = (row: string) => want("c") || parts.includes(`c-${row}`);
  if (wantScans("native") || wantScans("wasm") || wantScans("pdf")) {
    const scans = await scannedInputs();
    const tesseract = which("tesseract")
      ? () => measureParallel(tesseractCmds(scans.files, tessdata), OCR_WORKERS)
      : null;
    const n = scans.files.length;
    if (wantScans("native")) {
      const native = await interleaved(docproc(scans.dir, ["--ocr-engine", "native"]), tesseract);
      rows.push(
        ...pairRows({
          metric: `process ${n} scanned pages (PNG), native engine`,
          units: n,
          unit: "pages/s",
          docproc: native.a,
          reference: native.b,
          refName: `tesseract CLI, ${OCR_WORKERS} at a time`,
          target: "≥ 1.0×",
        }),
      );
      rows.push(...stageRows(`${n} scans, native`, await stageTimesOf(scans.dir, ["--ocr-engine", "native"])));
    }
    if (wantScans("wasm")) {
      const wasm = await interleaved(docproc(scans.dir, ["--ocr-engine", "wasm"]), tesseract);
      rows.push(
        ...pairRows({
          metric: `process ${n} scanned pages (PNG), embedded engine`,
          units: n,
          unit: "pages/s",
          docproc: wasm.a,
          reference: wasm.b,
          refName: `tesseract CLI, ${OCR_WORKERS} at a time`,
          target: "≥ 0.7×",
        }),
      );
      rows.push(...stageRows(`${n} scans, embedded`, await stageTimesOf(scans.dir, ["--ocr-engine", "wasm"])));
    }
    if (wantScans("pdf")) {
      const viaPdf = await interleaved(docproc(scans.pdf), which("ocrmypdf") ? ocrmypdf(scans.pdf, tessdata) : null);
      rows.push(
        ...pairRows({
          metric: `process ${n} scanned pages as one PDF, default (auto) engine`,
          units: n,
          unit: "pages/s",
          docproc: viaPdf.a,
          reference: viaPdf.b,
          refName: `OCRmyPDF -j ${OCR_WORKERS} --sidecar`,
          target: "≥ 1.5×",
        }),
      );
      rows.push(...stageRows(`${n} scans as one PDF`, await stageTimesOf(scans.pdf)));
    }
  }
  if (want("d")) {
    const one = path.join(CACHE, "tiny");
    mkdirSync(one, { recursive: true });
    copyFileSync(path.join(CORPUS, "AmazonWebServices.pdf"), path.join(one, "AmazonWebServices.pdf"));
    const r = await interleaved(
      docproc(path.join(one, "AmazonWebServices.pdf")),
      () => measure([...docprocCommand(), "--version"]),
      Math.max(5, ROUNDS),
    );
    rows.push({
      metric: "process one tiny PDF (1 page), whole fresh process, wall",
      docproc: r.a.wall,
      reference: r.b!.wall,
      ratio: null,
      unit: "s",
      target: "≤ 0.6 s (reference: docproc --version)",
    });
    rows.push({
      metric: "  same, CPU",
      docproc: r.a.cpu,
      reference: r.b!.cpu,
      ratio: null,
      unit: "s",
      target: "informative",
    });
    rows.push(...stageRows("one tiny PDF", await stageTimesOf(path.join(one, "AmazonWebServices.pdf"))));
  }
  if (want("e")) {
    for (const [label, pdf] of [
      ["real invoice pages", await realPagesPdf(2000)],
      ["synthetic prose pages (bench/convert.ts)", await cachedPdf(2000)],
    ] as const) {
      const r = await docproc(pdf)();
      rows.push({
        metric: `process a 2,000-page born-digital PDF (${label}): peak RSS${GNU_TIME ? "" : " (Bun resourceUsage)"}`,
        docproc: r.rssMB,
        reference: null,
        ratio: null,
        unit: "MB",
        target: "< 600 MB",
      });
      rows.push({
        metric: `  same, throughput (${r.cpu.toFixed(0)} CPU-s)`,
        docproc: 2000 / r.wall,
        reference: null,
        ratio: null,
        unit: "pages/s",
        target: "informative",
      });
    }
  }
  if (want("serve"))
    rows.push(
      ...(await serveRows({
        real500: await realPagesPdf(500),
        onePage: await onePageFolder(100),
        scans: (await scannedInputs()).pdf,
        pdftotext,
      })),
    );
  // Warm serve on every real PDF shape (bench/shapes.ts, BENCH_SHAPES picks some), next to pdftotext.
  if (parts.includes("serve-shapes")) {
    const { SHAPES } = await import("./shapes");
    const words = (process.env.BENCH_SHAPES ?? "").toLowerCase().split(",").filter(Boolean);
    const shapes = [];
    for (const shape of SHAPES) {
      if (words.length > 0 && !words.some((w) => shape.name.toLowerCase().includes(w))) continue;
      if (shape.tools.every((t) => which(t))) shapes.push({ name: shape.name, pdf: await shape.build(500) });
    }
    rows.push(...(await serveRows({ real500: null, onePage: null, scans: null, pdftotext, shapes })));
  }
  // The born-digital serve rows alone (no OCR engine needed beyond the warm-up).
  if (parts.includes("serve-pdf"))
    rows.push(
      ...(await serveRows({
        real500: await realPagesPdf(500),
        onePage: await onePageFolder(100),
        scans: null,
        pdftotext,
      })),
    );
  return rows;
}

if (import.meta.main) {
  const { renderBenchTable } = await import("./index");
  const rows = await benchJob(process.argv.slice(2));
  process.stdout.write(renderBenchTable(rows));
  for (const n of rows.flatMap((r) => (r.note ? [r.note] : []))) process.stdout.write(`note: ${n}\n`);
}
