/**
 * Understanding benchmark (issue 3, "Done when"): milliseconds per page that classification + extraction add on
 * born-digital input (target ≤ 10 ms/page). The pages are the 11 text PDFs of fixtures/corpora/invoice2data,
 * converted once (conversion is not timed: it has its own bench); classification and extraction then run over
 * them for several rounds after a warm-up round, and the median round counts (CPU time for the target row).
 */
import path from "node:path";
import type { BenchRow } from "./index";
import type { Page } from "../src/core/model";
import { defaultProject } from "../src/core/project";
import { convertSource } from "../src/core/stages/convert";
import { classifyDocument } from "../src/core/stages/classify";
import { extractFields } from "../src/core/stages/extract";

const DIR = path.resolve(import.meta.dir, "../fixtures/corpora/invoice2data");
const FILES = [
  "AmazonWebServices",
  "AzureInterior",
  "FlipkartInvoice",
  "NetpresseInvoice",
  "QualityHosting",
  "SammyMaystoneLinesTest",
  "coolblue1",
  "coolblue2",
  "free_fiber",
  "oyo",
  "saeco",
];
const ROUNDS = 15;

async function loadDocuments(): Promise<Page[][]> {
  const docs: Page[][] = [];
  for (const name of FILES) {
    const data = new Uint8Array(await Bun.file(path.join(DIR, `${name}.pdf`)).arrayBuffer());
    const converted = await convertSource(
      { index: 0, filename: `${name}.pdf`, data, split_policy: "inherit" },
      { firstPageNumber: 1, maxPages: null },
    );
    docs.push(converted.pages.map((p) => ({ ...p, render: undefined })));
    await converted.close();
  }
  return docs;
}

const median = (xs: number[]) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Round {
  classify: number;
  extract: number;
  cpu: number;
}

/** Times one round over all documents: wall time of classification and extraction, and process CPU time, in ms. */
function round(docs: Page[][]): Round {
  let classify = 0;
  let extract = 0;
  const cpu0 = process.cpuUsage();
  for (const pages of docs) {
    const t0 = performance.now();
    const c = classifyDocument(pages, defaultProject);
    const t1 = performance.now();
    extractFields(pages, c.class_id, defaultProject);
    extract += performance.now() - t1;
    classify += t1 - t0;
  }
  const cpu = process.cpuUsage(cpu0);
  return { classify, extract, cpu: (cpu.user + cpu.system) / 1000 };
}

/**
 * The target row uses CPU time: on a shared machine wall time also counts the time other processes hold the
 * cores, which is not work docproc adds per page. Wall-time medians are reported next to it.
 */
export async function benchUnderstanding(): Promise<BenchRow[]> {
  const docs = await loadDocuments();
  const pageCount = docs.reduce((s, d) => s + d.length, 0);
  round(docs); // warm-up: regex compilation and JIT
  const rounds = Array.from({ length: ROUNDS }, () => round(docs));
  const classify = median(rounds.map((r) => r.classify)) / pageCount;
  const extract = median(rounds.map((r) => r.extract)) / pageCount;
  const both = median(rounds.map((r) => r.classify + r.extract)) / pageCount;
  const cpu = median(rounds.map((r) => r.cpu)) / pageCount;
  const note = `${pageCount} born-digital pages (invoice2data text PDFs), median of ${ROUNDS} rounds`;
  return [
    {
      metric: `classification, wall time; ${note}`,
      docproc: classify,
      reference: null,
      ratio: null,
      target: "-",
      unit: "ms/page",
    },
    {
      metric: "extraction (14 invoice fields incl. line items), wall time",
      docproc: extract,
      reference: null,
      ratio: null,
      target: "-",
      unit: "ms/page",
    },
    {
      metric: "classification + extraction, wall time",
      docproc: both,
      reference: null,
      ratio: null,
      target: "-",
      unit: "ms/page",
    },
    {
      metric: "classification + extraction, CPU time",
      docproc: cpu,
      reference: null,
      ratio: null,
      target: "≤ 10 ms/page",
      unit: "ms/page",
    },
  ];
}

if (import.meta.main) {
  for (const row of await benchUnderstanding())
    console.log(`${row.metric}: ${(row.docproc as number).toFixed(2)} ${row.unit} (target ${row.target})`);
}
