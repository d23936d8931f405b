/**
 * What each reading of a scanned page costs and buys (issue 34 item 4): the bench's 20 page images (the first 20
 * real invoice pages at 300 DPI grey, as bench/ocr-command.ts makes them), each read by the OCR stage as its own
 * file, with one engine worker: per page the recognitions asked for (by languages), CPU seconds of this process and
 * its tesseract hosts (user + sys from /proc, so other sessions' load does not count), and word F1 against the
 * page's true text. `BENCH_OCR_SRC=/other/tree/src` reads with another tree's OCR stage (before/after);
 * `BENCH_OCR_LANGS=eng` reads with a project's languages instead of the zero-configuration choice;
 * `BENCH_OCR_ENGINE=wasm` the embedded engine. Linux only (/proc). Not part of `npm run bench`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { realPagesPdf } from "./job";
import { wordF1 } from "./scan-accuracy";

const PAGES = 20;
const DIR = path.resolve(import.meta.dir, ".cache", "ocr-command", "png");
const SRC = path.resolve(process.env.BENCH_OCR_SRC ?? path.join(import.meta.dir, "..", "src"));
const TICK = 100; // USER_HZ on Linux

/** CPU seconds (user + sys) of a process from /proc/<pid>/stat. */
function cpuOf(pid: number | string): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(f[11]) + Number(f[12])) / TICK;
  } catch {
    return 0;
  }
}

/** CPU seconds of this process and its live children (the engine's hosts), with children already reaped. */
function treeCpu(): number {
  let total = cpuOf("self");
  const stat = readFileSync("/proc/self/stat", "utf8");
  const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  total += (Number(f[13]) + Number(f[14])) / TICK;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      const s = readFileSync(`/proc/${pid}/stat`, "utf8");
      if (Number(s.slice(s.lastIndexOf(")") + 2).split(" ")[1]) === process.pid) total += cpuOf(pid);
    } catch {}
  }
  return total;
}

async function pageFiles(): Promise<{ files: string[]; truth: string[] }> {
  const source = await realPagesPdf(PAGES);
  if (!existsSync(DIR) || readdirSync(DIR).length < PAGES) {
    mkdirSync(DIR, { recursive: true });
    Bun.spawnSync(["pdftoppm", "-gray", "-r", "300", "-png", "-l", String(PAGES), source, `${DIR}/p`]);
  }
  const files = readdirSync(DIR)
    .sort()
    .map((f) => path.join(DIR, f));
  const truth = files.map((_, i) => {
    const n = String(i + 1);
    return Bun.spawnSync(["pdftotext", "-f", n, "-l", n, source, "-"]).stdout.toString();
  });
  return { files, truth };
}

const { convertSource } = await import(path.join(SRC, "core/stages/convert/index.ts"));
const { ocrPages } = await import(path.join(SRC, "core/stages/ocr/index.ts"));
const { createOcrEngine } = await import(path.join(SRC, "core/engines/ocr/index.ts"));

const { files, truth } = await pageFiles();
const languages = process.env.BENCH_OCR_LANGS?.split("+");
const base = await createOcrEngine({ engine: process.env.BENCH_OCR_ENGINE ?? "native", workers: 1 });
const calls: string[] = [];
const engine = {
  ...base,
  name: base.name,
  workers: 1,
  has: (l: string) => base.has?.(l) ?? false,
  recognize: (img: unknown, o?: { languages?: string[] }) => {
    calls.push(o?.languages?.join("+") ?? "eng");
    return base.recognize(img, o);
  },
  recognizeMany: async (imgs: unknown[], o?: { languages?: string[] }) => {
    calls.push(`${o?.languages?.join("+") ?? "eng"}×${imgs.length} lines`);
    return base.recognizeMany(imgs, o);
  },
  close: () => base.close(),
};
console.log(`src ${SRC}, engine ${base.name}, languages ${languages?.join("+") ?? "zero configuration"}`);
let cpuTotal = 0;
let f1Total = 0;
let ownTotal = 0;
/** One page read: what it cost and bought. */
function report(i: number, text: string, cpu: number, own: number): void {
  const f1 = wordF1(truth[i]!, text);
  cpuTotal += cpu;
  ownTotal += own;
  f1Total += f1;
  const passes = calls.filter((c) => !c.includes("lines"));
  const lines = calls.filter((c) => c.includes("lines"));
  console.log(
    `p${String(i + 1).padStart(2, "0")} passes ${passes.length} [${passes.join(", ")}]${lines.length ? ` + ${lines.join(", ")}` : ""} cpu ${cpu.toFixed(2)} s (docproc ${own.toFixed(2)}) F1 ${f1.toFixed(3)}`,
  );
  calls.length = 0;
}

const pdf = process.env.BENCH_OCR_PDF;
if (pdf) {
  // One file, read as the runner reads it (one OCR stage over its pages: the file's language is remembered).
  const source = await convertSource(
    { index: 0, filename: path.basename(pdf), data: readFileSync(pdf), split_policy: "auto" },
    { firstPageNumber: 1, maxPages: null },
  );
  let [before, selfBefore] = [treeCpu(), cpuOf("self")];
  await ocrPages(source.pages, engine, {
    concurrency: 1,
    languages,
    onPage: (done: number) => {
      const [now, selfNow] = [treeCpu(), cpuOf("self")];
      report(done - 1, source.pages[done - 1].text, now - before, selfNow - selfBefore);
      [before, selfBefore] = [now, selfNow];
    },
  });
  await source.close();
} else {
  for (const [i, file] of files.entries()) {
    const source = await convertSource(
      { index: i, filename: path.basename(file), data: readFileSync(file), split_policy: "auto" },
      { firstPageNumber: i + 1, maxPages: null },
    );
    const [before, selfBefore] = [treeCpu(), cpuOf("self")];
    await ocrPages(source.pages, engine, { concurrency: 1, languages });
    report(
      i,
      source.pages.map((p: { text: string }) => p.text).join("\n"),
      treeCpu() - before,
      cpuOf("self") - selfBefore,
    );
    await source.close();
  }
}
await base.close();
console.log(
  `total cpu ${cpuTotal.toFixed(1)} s (docproc's own ${ownTotal.toFixed(1)}), mean F1 ${(f1Total / files.length).toFixed(4)}, load ${loadavg()[0]!.toFixed(1)}`,
);
if (process.env.BENCH_OCR_STAGES) {
  const { stageTimes } = await import(path.join(SRC, "core/timing.ts"));
  for (const [name, t] of Object.entries(stageTimes() as Record<string, { ms: number; calls: number }>))
    console.log(`  ${name}: ${(t.ms / 1000).toFixed(2)} s wall in ${t.calls} calls`);
}
