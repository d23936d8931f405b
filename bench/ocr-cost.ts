/**
 * Where a scanned page's CPU goes beyond tesseract's own recognition (issue 34): the 20 pages of `bun bench/job.ts c`
 * (bench/ocr.ts's page images) read one after another through the runner's conversion and the OCR stage, one engine
 * worker, nothing else in flight, so each CPU figure belongs to one item: the engine's start and model load, each
 * page's decode (conversion) and render, the recognitions by kind (the page itself, blocks read again, the second
 * look's single lines, orientation probes and other passes), and the stage's own work around them (layout analysis,
 * crops, reading order). CPU seconds from /proc (user + sys of this process and of its tesseract hosts), so other
 * sessions' load counts little; the load is printed beside. `BENCH_OCR_ENGINE=wasm` for the embedded engine
 * (its workers are threads of this process: their recognition is counted as this process's CPU during the call),
 * `BENCH_OCR_SRC=/tree/src` another tree (before/after), `BENCH_OCR_LANGS=eng` a project's languages. Linux only.
 */
import { readFileSync, readdirSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { benchPages } from "./ocr";

const SRC = path.resolve(process.env.BENCH_OCR_SRC ?? path.join(import.meta.dir, "..", "src"));
const TICK = 100; // USER_HZ on Linux

function statFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** CPU seconds of this process (all its threads). */
function selfCpu(): number {
  const f = statFields("self")!;
  return (Number(f[11]) + Number(f[12])) / TICK;
}

/** CPU seconds of this process's children: live ones (the engine's hosts) and those already reaped. */
function childrenCpu(): number {
  const own = statFields("self")!;
  let total = (Number(own[13]) + Number(own[14])) / TICK;
  for (const pid of readdirSync("/proc")) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    const f = statFields(pid);
    if (f && Number(f[1]) === process.pid) total += (Number(f[11]) + Number(f[12])) / TICK;
  }
  return total;
}

const { convertSource } = await import(path.join(SRC, "core/stages/convert/index.ts"));
const { ocrPages } = await import(path.join(SRC, "core/stages/ocr/index.ts"));
const { createOcrEngine } = await import(path.join(SRC, "core/engines/ocr/index.ts"));

const files = await benchPages();
const languages = process.env.BENCH_OCR_LANGS?.split("+");
const engineName = process.env.BENCH_OCR_ENGINE ?? "native";
const load: number[] = [loadavg()[0]!];
const costs = new Map<string, { cpu: number; host: number; calls: number; images: number }>();
const add = (item: string, cpu: number, host: number, images = 1) => {
  const c = costs.get(item) ?? { cpu: 0, host: 0, calls: 0, images: 0 };
  c.cpu += cpu;
  c.host += host;
  c.calls++;
  c.images += images;
  costs.set(item, c);
};
/** What a call of `work` cost this process and the hosts, under `item`. */
async function timed<T>(item: string, work: () => Promise<T>, images = 1): Promise<T> {
  const [self, kids] = [selfCpu(), childrenCpu()];
  try {
    return await work();
  } finally {
    add(item, selfCpu() - self, childrenCpu() - kids, images);
  }
}
const kindOf = (o?: { psm?: number }) =>
  o?.psm === 7 ? "second look: single lines (psm 7)" : o?.psm === 6 ? "crossed blocks (psm 6)" : "page recognitions";

let started = [selfCpu(), childrenCpu()];
const base = await createOcrEngine({ engine: engineName, workers: 1 });
await base.warm?.(languages, 1);
add("engine start and model load", selfCpu() - started[0]!, childrenCpu() - started[1]!);
let inCalls = 0;
const engine = {
  name: base.name,
  workers: 1,
  has: (l: string) => base.has?.(l) ?? false,
  recognize: (img: unknown, o?: { psm?: number }) => {
    inCalls++;
    return timed(kindOf(o), () => base.recognize(img, o)).finally(() => inCalls--);
  },
  ...(base.recognizeMany
    ? {
        recognizeMany: (imgs: unknown[], o?: { psm?: number }) => {
          inCalls++;
          return timed(kindOf(o), () => base.recognizeMany(imgs, o), imgs.length).finally(() => inCalls--);
        },
      }
    : {}),
  close: () => base.close(),
};
for (const [i, file] of files.entries()) {
  type Source = { pages: Array<{ render: (o: unknown) => Promise<unknown> }>; close(): Promise<void> };
  const source: Source = await timed(
    "decode (conversion)",
    (): Promise<Source> =>
      convertSource(
        { index: i, filename: path.basename(file), data: readFileSync(file), split_policy: "auto" },
        { firstPageNumber: i + 1, maxPages: null },
      ),
  );
  for (const page of source.pages) {
    const render = page.render;
    page.render = (o: unknown) => timed("render to grey", () => render(o));
  }
  started = [selfCpu(), childrenCpu()];
  const before = new Map([...costs].map(([k, v]) => [k, { ...v }]));
  await ocrPages(source.pages, engine, { concurrency: 1, languages });
  // The stage's own work: its CPU minus what the timed items inside it took.
  let inside = [0, 0];
  for (const [k, v] of costs) {
    const b = before.get(k) ?? { cpu: 0, host: 0 };
    if (k !== "decode (conversion)") inside = [inside[0]! + v.cpu - b.cpu, inside[1]! + v.host - b.host];
  }
  add("OCR stage's own work (layout, crops, order)", selfCpu() - started[0]! - inside[0]!, 0);
  await source.close();
  load.push(loadavg()[0]!);
}
started = [selfCpu(), childrenCpu()];
await base.close();
add("engine close", selfCpu() - started[0]!, childrenCpu() - started[1]!);
console.log(
  `src ${SRC}, engine ${base.name}, ${files.length} pages, one worker, load ${Math.min(...load).toFixed(1)}-${Math.max(...load).toFixed(1)}`,
);
console.log("| item | calls | images | CPU-s docproc process | CPU-s tesseract hosts | total |");
console.log("|---|---:|---:|---:|---:|---:|");
let total = 0;
for (const [item, c] of costs) {
  total += c.cpu + c.host;
  console.log(
    `| ${item} | ${c.calls} | ${c.images} | ${c.cpu.toFixed(2)} | ${c.host.toFixed(2)} | ${(c.cpu + c.host).toFixed(2)} |`,
  );
}
console.log(`| all | | | | | ${total.toFixed(2)} |`);
if (inCalls) console.log(`(${inCalls} calls still open)`);
