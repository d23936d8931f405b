/**
 * OCR through the installed command (issue 34): `docproc process` of 20 scanned page images (PNG and JPEG) in a
 * fresh process, native and embedded engine, next to the `tesseract` CLI on the same files with the same
 * traineddata and the same parallelism (`xargs -P2`, one single-threaded tesseract per page), interleaved, with
 * word F1 against the true text beside speed. The pages are the first 20 born-digital invoice pages (bench/job.ts's
 * real pages) rendered at 300 DPI grey by pdftoppm, so their true text is pdftotext's. CPU seconds are user + sys of
 * the whole process tree (docproc with its tesseract hosts; sh, xargs and every tesseract): on a shared machine they
 * move far less than wall time, so the CPU ratio is the figure to quote, with the load beside it.
 * `bun bench/ocr-command.ts` runs it alone (DOCPROC_BENCH_BIN picks the command, see bench/job/command.ts);
 * BENCH_OCR_ROWS=png-native,jpeg-wasm picks rows.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import { resolveTessdataDir, unpackedTessdataDir } from "../src/core/engines/ocr/tessdata.ts";
import type { BenchRow } from "./index";
import { docprocCommand } from "./job/command";
import { median, measure, realPagesPdf, type Run } from "./job";
import { wordF1 } from "./scan-accuracy";

const CACHE = path.resolve(import.meta.dir, ".cache", "ocr-command");
const PAGES = 20;
const WORKERS = 2;
const ROUNDS = Number(process.env.BENCH_ROUNDS) || 2;

/** The page images of one format, cached, and each page's true text (pdftotext of the page they were drawn from). */
async function pageImages(format: "png" | "jpeg"): Promise<{ dir: string; files: string[]; truth: string[] }> {
  const source = await realPagesPdf(PAGES);
  const dir = path.join(CACHE, format);
  if (!existsSync(dir) || readdirSync(dir).length < PAGES) {
    mkdirSync(dir, { recursive: true });
    const kind = format === "png" ? ["-png"] : ["-jpeg", "-jpegopt", "quality=85"];
    const made = Bun.spawnSync(["pdftoppm", "-gray", "-r", "300", ...kind, "-l", String(PAGES), source, `${dir}/p`]);
    if (made.exitCode !== 0) throw new Error(`pdftoppm failed: ${made.stderr.toString()}`);
  }
  const files = readdirSync(dir)
    .sort()
    .map((f) => path.join(dir, f));
  const truth = files.map((_, i) => {
    const n = String(i + 1);
    return Bun.spawnSync(["pdftotext", "-f", n, "-l", n, source, "-"]).stdout.toString();
  });
  return { dir, files, truth };
}

/**
 * A JSON export with every page's text: what docproc read, by page file. The "same model" rows name English, as the
 * CLI is told (`-l eng`); the zero-configuration rows leave the languages out, so a page whose words are German or
 * French is read again with that model (src/core/stages/ocr/language-choice.ts): more work than the CLI does, and
 * more words read right, shown as its own rows.
 */
const project = (languages: "eng" | "auto") => `name: bench ocr command
${languages === "eng" ? "ocr:\n  languages: [eng]\n" : ""}export_profiles:
  - id: json
    name: JSON with page OCR
    output_format: json
    options: { include_page_ocr: true }
`;

interface Reading extends Run {
  /** Page texts in file-name order. */
  texts: string[];
}

/** One fresh `docproc process` of the folder; its texts from the JSON export. */
async function docprocRun(dir: string, engine: "native" | "wasm", languages: "eng" | "auto"): Promise<Reading> {
  const out = mkdtempSync(path.join(tmpdir(), "docproc-ocr-cmd-"));
  try {
    writeFileSync(path.join(out, "project.yaml"), project(languages));
    const cmd = [...docprocCommand(), "process", dir, "--out", path.join(out, "o"), "--json"];
    const run = await measure([...cmd, "--project", path.join(out, "project.yaml"), "--ocr-engine", engine], {}, true);
    const byFile = new Map<string, string>();
    for (const e of readdirSync(path.join(out, "o"), { recursive: true, withFileTypes: true })) {
      if (!e.isFile() || !e.name.endsWith("_data.json")) continue;
      const json = JSON.parse(readFileSync(path.join(e.parentPath, e.name), "utf8")) as {
        pages?: Array<{ source_filename?: string; text?: string }>;
      };
      for (const p of json.pages ?? []) byFile.set(String(p.source_filename), p.text ?? "");
    }
    return { ...run, texts: [...byFile.keys()].sort().map((k) => byFile.get(k)!) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** The reference, as a user runs it: `ls | xargs -P2 tesseract … --psm 3`, text files beside the pages. */
async function tesseractRun(files: string[], tessdata: string): Promise<Reading> {
  const out = mkdtempSync(path.join(tmpdir(), "docproc-ocr-cli-"));
  try {
    const list = path.join(out, "list");
    writeFileSync(list, files.map((f) => `${f}\n`).join(""));
    const script =
      `xargs -P${WORKERS} -I{} sh -c 'OMP_THREAD_LIMIT=1 tesseract "$1" "$2/$(basename "$1")" ` +
      `--tessdata-dir "$3" -l eng --oem 1 --psm 3 2>/dev/null' _ {} "${out}" "${tessdata}" < "${list}"`;
    const run = await measure(["sh", "-c", script]);
    return { ...run, texts: files.map((f) => readFileSync(path.join(out, `${path.basename(f)}.txt`), "utf8")) };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

/** docproc and the reference in turn, `ROUNDS` times; medians, and the load at each run. */
async function pair(a: () => Promise<Reading>, b: () => Promise<Reading>) {
  const as: Reading[] = [];
  const bs: Reading[] = [];
  const loads: number[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    loads.push(loadavg()[0]!);
    as.push(await a());
    loads.push(loadavg()[0]!);
    bs.push(await b());
  }
  const med = (rs: Reading[]): Reading => ({
    wall: median(rs.map((r) => r.wall)),
    cpu: median(rs.map((r) => r.cpu)),
    rssMB: median(rs.map((r) => r.rssMB)),
    texts: rs[0]!.texts,
  });
  return { a: med(as), b: med(bs), load: `${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)}` };
}

/** format-engine: the same model as the CLI (English); with "-auto": zero configuration (the page's language). */
const ROWS = ["png-native", "png-wasm", "jpeg-native", "jpeg-wasm", "jpeg-native-auto", "jpeg-wasm-auto"] as const;

export async function benchOcrCommand(): Promise<BenchRow[]> {
  if (!Bun.which("tesseract") || !Bun.which("pdftoppm")) {
    return [
      {
        metric: "OCR through the installed command: tesseract or pdftoppm not installed",
        docproc: null,
        reference: null,
        target: "≥ 1.0×",
      },
    ];
  }
  const picked = (process.env.BENCH_OCR_ROWS ?? "").split(",").filter(Boolean);
  const tessdata = unpackedTessdataDir(resolveTessdataDir());
  const rows: BenchRow[] = [];
  for (const row of ROWS.filter((r) => picked.length === 0 || picked.includes(r))) {
    const [format, engine, auto] = row.split("-") as ["png" | "jpeg", "native" | "wasm", "auto" | undefined];
    const pages = await pageImages(format);
    const r = await pair(
      () => docprocRun(pages.dir, engine, auto ?? "eng"),
      () => tesseractRun(pages.files, tessdata),
    );
    const truth = pages.truth.join("\n");
    const languages = auto ? "zero configuration (each page's language)" : "English as the CLI";
    const label = `${PAGES} scanned pages (${format.toUpperCase()}, 300 DPI), ${engine === "native" ? "native" : "embedded"} engine, ${languages}`;
    rows.push(
      {
        metric: `${label}, docproc process vs tesseract CLI (xargs -P${WORKERS}), CPU-s of the process tree (load ${r.load})`,
        docproc: r.a.cpu,
        reference: r.b.cpu,
        ratio: r.b.cpu / r.a.cpu,
        unit: "CPU-s",
        target: auto ? "informative: more work than the CLI" : engine === "native" ? "≥ 1.0×" : "≥ 0.7×",
      },
      {
        metric: `  same, wall (peak RSS ${r.a.rssMB.toFixed(0)} MB)`,
        docproc: PAGES / r.a.wall,
        reference: PAGES / r.b.wall,
        unit: "pages/s",
        target: "informative under load",
      },
      {
        metric: "  same, word F1 against the true text",
        docproc: Number(wordF1(truth, r.a.texts.join("\n")).toFixed(3)),
        reference: Number(wordF1(truth, r.b.texts.join("\n")).toFixed(3)),
        unit: "",
        target: "not lower than the CLI",
      },
    );
  }
  return rows;
}

if (import.meta.main) {
  const { renderBenchTable } = await import("./index");
  process.stdout.write(renderBenchTable(await benchOcrCommand()));
}
