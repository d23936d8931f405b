/**
 * The accuracy floors (fixtures/accuracy/floors.json): per corpus, per figure, the value the gate measured when it
 * was last recorded. A measured figure below its floor fails the gate; floors only move up by themselves
 * (`UPDATE_FIXTURES=1`), and a lower floor needs `ACCURACY_ALLOW_LOWER=1` as well, in a commit that says why.
 * Also renders the accuracy table of docs/accuracy.md from the floors.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Figure, Figures } from "./measure";

export const FLOORS_FILE = path.resolve(import.meta.dir, "../../fixtures/accuracy/floors.json");
export const ACCURACY_DOC = path.resolve(import.meta.dir, "../../docs/accuracy.md");
/** The README shows the invoice corpus (text and scans side by side) and the OCR pages; docs/accuracy.md all. */
export const README_DOC = path.resolve(import.meta.dir, "../../README.md");
export const README_GROUPS = ["invoice2data", "smallbiz", "einvoice-visual", "receipts", "receipts-hard", "ocr-text"];
/** A figure this far above its floor is reported, so someone raises the floor. */
export const RAISE_MARGIN = 0.02;
const EPS = 1e-9;

export interface CorpusFloors {
  about: string;
  figures: Figures;
}
export interface FloorsFile {
  note: string;
  corpora: Record<string, CorpusFloors>;
}

export const readFloors = (file = FLOORS_FILE): FloorsFile => JSON.parse(readFileSync(file, "utf8")) as FloorsFile;
export const writeFloors = (floors: FloorsFile, file = FLOORS_FILE) =>
  writeFileSync(file, JSON.stringify(floors, null, 2) + "\n");

const show = (f: Figure | undefined) =>
  f === undefined ? "missing" : f.total !== undefined ? `${f.value} (${f.correct}/${f.total})` : String(f.value);
const worse = (got: Figure, floor: Figure) =>
  floor.lower ? got.value > floor.value + EPS : got.value < floor.value - EPS;
const better = (got: Figure, floor: Figure, by: number) =>
  floor.lower ? got.value < floor.value - by - EPS : got.value > floor.value + by + EPS;

/** What fails the gate (a figure below its floor, or gone) and what deserves a higher floor. */
export function compareFigures(floor: Figures, got: Figures): { failures: string[]; raise: string[] } {
  const failures: string[] = [];
  const raise: string[] = [];
  for (const [name, f] of Object.entries(floor)) {
    const g = got[name];
    if (!g) failures.push(`${name}: floor ${show(f)}, no longer measured`);
    else if (worse(g, f))
      failures.push(`${name}: ${show(g)} is ${f.lower ? "above its ceiling" : "below its floor"} ${show(f)}`);
    else if (better(g, f, RAISE_MARGIN)) raise.push(`${name}: ${show(g)}, floor ${show(f)}`);
  }
  for (const name of Object.keys(got))
    if (!floor[name]) raise.push(`${name}: ${show(got[name])}, no floor recorded yet`);
  return { failures, raise };
}

/** New floors from measured figures: each figure's better of old and new (or the new one where lowering is allowed). */
export function raisedFloors(old: Figures | undefined, got: Figures, allowLower: boolean): Figures {
  if (allowLower || !old) return got;
  const out: Figures = {};
  for (const [name, g] of Object.entries(got)) {
    const f = old[name];
    out[name] = f && worse(g, f) ? f : g;
  }
  // A figure no longer measured keeps failing until someone removes its floor on purpose.
  for (const [name, f] of Object.entries(old)) if (!got[name]) out[name] = f;
  return out;
}

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const cell = (f: Figure | undefined) =>
  f === undefined
    ? ""
    : f.lower
      ? `${(100 * f.value).toFixed(2)}%`
      : f.total !== undefined
        ? `${pct(f.value)} (${f.correct}/${f.total})`
        : pct(f.value);

/** Per corpus group (the part before `/`), a table: one row per figure, one column per variant (text, scans...). */
export function renderAccuracyTable(floors: FloorsFile, only?: string[]): string {
  const groups = new Map<string, string[]>();
  for (const id of Object.keys(floors.corpora)) {
    const g = id.split("/")[0]!;
    if (only && !only.includes(g)) continue;
    groups.set(g, [...(groups.get(g) ?? []), id]);
  }
  const out: string[] = [];
  for (const [group, ids] of groups) {
    const variants = ids.map((id) => id.slice(group.length + 1));
    const names = [...new Set(ids.flatMap((id) => Object.keys(floors.corpora[id]!.figures)))];
    const order = (n: string) => (n === "files_read" ? 2 : n === "class" || n === "split_f1" || n === "cer" ? 1 : 0);
    names.sort((a, b) => order(a) - order(b) || (a < b ? -1 : a > b ? 1 : 0));
    out.push(`### ${group}`, "");
    out.push(`| figure | ${variants.join(" | ")} |`, `|---|${variants.map(() => "---:").join("|")}|`);
    for (const n of names)
      out.push(
        `| ${n === "cer" ? "character error rate (lower is better)" : n} | ${ids.map((id) => cell(floors.corpora[id]!.figures[n])).join(" | ")} |`,
      );
    out.push("", ...ids.map((id, i) => `- **${variants[i]}**: ${floors.corpora[id]!.about}`), "");
  }
  return out.join("\n");
}

export const START = "<!-- accuracy:start -->";
export const END = "<!-- accuracy:end -->";

/** `doc` with the text between the markers replaced by the table of `floors`; throws when a marker is missing. */
export function withTable(doc: string, floors: FloorsFile, only?: string[]): string {
  const [a, b] = [doc.indexOf(START), doc.indexOf(END)];
  if (a < 0 || b < a) throw new Error(`the document lacks the ${START} … ${END} markers`);
  const more = only ? "Every corpus and figure: [docs/accuracy.md](docs/accuracy.md).\n" : "";
  return `${doc.slice(0, a + START.length)}\n<!-- generated by \`bun scripts/accuracy-table.ts\` from fixtures/accuracy/floors.json: do not edit by hand -->\n\n${renderAccuracyTable(floors, only)}\n${more}${doc.slice(b)}`;
}
