/**
 * `npm run bench`: runs every benchmark module and prints one table (metric, docproc, reference, ratio, target).
 * `npm run bench -- convert ocr` runs only the named modules.
 *
 * A bench module is `bench/<name>.ts` exporting `bench<Name>(): Promise<BenchRow[]>` (convert.ts → benchConvert).
 * It SHOULD print a missing reference tool as "not installed" (a row, not an exception). The modules of ORDER run
 * first, in that order (an absent one is skipped with a note), then any other module found, alphabetically; one
 * that throws becomes a row saying so, and the others still run.
 */
import { readdir } from "node:fs/promises";
import { renderTable } from "../src/cli/table";

/** One line of the benchmark table. Numbers are formatted by the harness; strings are printed as given. */
export interface BenchRow {
  metric: string;
  /** docproc's figure (null: not measured). */
  docproc: number | string | null;
  /** The reference tool's figure on the same input ("not installed" when the tool is missing). */
  reference: number | string | null;
  /** docproc ÷ reference (or reference ÷ docproc for lower-is-better metrics); computed when left out. */
  ratio?: number | string | null;
  /** E.g. "≥ 1.0×", "< 1 GB". */
  target: string;
  /** Appended to docproc and reference numbers, e.g. "pages/s", "MB". */
  unit?: string;
  /** Printed under the table as `note: …` (how a figure was measured, why a target is missed). */
  note?: string;
}

type BenchFn = () => Promise<BenchRow[]>;

/** Modules the table shows first, in this order (the pipeline's order). */
const ORDER = ["job", "convert", "ocr", "understanding", "export", "server"];

function functionNameOf(module: string): string {
  return `bench${module.charAt(0).toUpperCase()}${module.slice(1).replace(/[-_](\w)/g, (_, c: string) => c.toUpperCase())}`;
}

/** Module names to run: ORDER first, then the other bench/*.ts files; `only` narrows the list. */
async function moduleList(only: string[]): Promise<string[]> {
  const found = (await readdir(import.meta.dir))
    .filter((f) => f.endsWith(".ts") && f !== "index.ts" && !f.startsWith("."))
    .map((f) => f.slice(0, -3));
  const names = [...ORDER, ...found.filter((m) => !ORDER.includes(m)).sort()];
  return only.length > 0 ? names.filter((m) => only.includes(m)) : names;
}

export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  if (abs >= 1000) return Math.round(n).toLocaleString("en-US");
  if (abs >= 100) return n.toFixed(0);
  if (abs >= 10) return n.toFixed(1);
  return n.toFixed(2);
}

function cell(v: number | string | null | undefined, unit?: string): string {
  if (v === null || v === undefined) return "-";
  if (typeof v === "number") return unit ? `${formatNumber(v)} ${unit}` : formatNumber(v);
  return v;
}

function ratioCell(row: BenchRow): string {
  if (row.ratio !== undefined) return typeof row.ratio === "number" ? `${row.ratio.toFixed(2)}×` : cell(row.ratio);
  if (typeof row.docproc === "number" && typeof row.reference === "number" && row.reference > 0) {
    return `${(row.docproc / row.reference).toFixed(2)}×`;
  }
  return "-";
}

export function renderBenchTable(rows: BenchRow[]): string {
  return renderTable(
    ["metric", "docproc", "reference", "ratio", "target"],
    rows.map((r) => [r.metric, cell(r.docproc, r.unit), cell(r.reference, r.unit), ratioCell(r), r.target]),
    ["left", "right", "right", "right", "left"],
  );
}

async function loadBench(module: string, name: string): Promise<BenchFn | null> {
  const file = `${import.meta.dir}/${module}.ts`;
  if (!(await Bun.file(file).exists())) return null;
  const mod = (await import(file)) as Record<string, unknown>;
  const fn = mod[name];
  if (typeof fn !== "function") throw new Error(`bench/${module}.ts does not export ${name}()`);
  return fn as BenchFn;
}

async function main(only: string[]): Promise<void> {
  const rows: BenchRow[] = [];
  const notes: string[] = [];
  for (const module of await moduleList(only)) {
    const name = functionNameOf(module);
    const started = performance.now();
    try {
      const fn = await loadBench(module, name);
      if (!fn) {
        notes.push(`bench/${module}.ts not present: skipped`);
        continue;
      }
      process.stderr.write(`running ${name} …\n`);
      rows.push(...(await fn()));
      process.stderr.write(`  ${name} done in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      rows.push({
        metric: `${name} failed: ${message.split("\n")[0]!.slice(0, 80)}`,
        docproc: null,
        reference: null,
        ratio: null,
        target: "-",
      });
    }
  }
  process.stdout.write("\n" + renderBenchTable(rows));
  for (const n of [...rows.flatMap((r) => (r.note ? [r.note] : [])), ...notes]) process.stdout.write(`note: ${n}\n`);
}

if (import.meta.main) await main(process.argv.slice(2));
