/**
 * The import graph of src/ as the architecture tests read it: file → file edges from the import text (static,
 * type-only, re-exports and lazy `import("…")`: a cycle of types is still a cycle of modules), folded into
 * folder graphs, and the cycles and upward arrows of a graph.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { SRC, sourceFiles } from "./source-files";

/** A graph: node → (node it imports → one example import, to name the edge in a failure message). */
export type Graph = Map<string, Map<string, string>>;

/** Relative specifiers of static imports, re-exports, dynamic imports and literal `require()`s. */
export function importsOf(text: string): string[] {
  const specs: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /^\s*import\s*["']([^"']+)["']/gm,
    /\brequire\s*\(\s*["']([^"']+)["']\s*\)/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) specs.push(m[1]!);
  return specs.filter((s) => s.startsWith("."));
}

/** The file an import names (`./x` → x.ts, x.tsx or x/index.ts), or null outside src/ or not a TypeScript file. */
function fileOf(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** File → file import graph of src/ (paths relative to src/), each edge named by the import that makes it. */
export function fileGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(SRC)) {
    const edges = new Map<string, string>();
    for (const spec of importsOf(readFileSync(file, "utf8"))) {
      const to = fileOf(file, spec);
      if (to && to !== file && !edges.has(path.relative(SRC, to)))
        edges.set(path.relative(SRC, to), `${path.relative(SRC, file)} → ${spec}`);
    }
    graph.set(path.relative(SRC, file), edges);
  }
  return graph;
}

/**
 * The file graph folded onto nodes: `nodeOf(file)` names a file's node, or null to leave the file out. Edges
 * inside one node are dropped; every node that holds a file is in the graph, importing something or not.
 */
export function foldGraph(files: Graph, nodeOf: (file: string) => string | null): Graph {
  const graph: Graph = new Map();
  for (const [file, edges] of files) {
    const from = nodeOf(file);
    if (from === null) continue;
    if (!graph.has(from)) graph.set(from, new Map());
    for (const [target, example] of edges) {
      const to = nodeOf(target);
      if (to === null || to === from) continue;
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, example);
    }
  }
  return graph;
}

/** `core`, `queue`, …; a file directly in src/ is its own node (`cli.ts`). */
export const topFolderOf = (file: string) => file.split("/")[0]!;

/** Every cycle found by depth-first search, as the list of example imports that close it. */
export function cyclesOf(graph: Graph): string[][] {
  const cycles: string[][] = [];
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (node: string) => {
    state.set(node, "open");
    stack.push(node);
    for (const next of graph.get(node)?.keys() ?? []) {
      if (state.get(next) === "open") {
        const loop = [...stack.slice(stack.indexOf(next)), next];
        cycles.push(loop.slice(1).map((to, i) => graph.get(loop[i]!)!.get(to)!));
      } else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(node, "done");
  };
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node);
  return cycles;
}

/**
 * What breaks a stated order of floors (`floors[0]` is the ground): a node on no floor, and every import from a
 * node to one on a higher floor. Imports between nodes of one floor are allowed (cyclesOf catches their loops).
 */
export function floorViolations(graph: Graph, floors: readonly (readonly string[])[]): string[] {
  const floorOf = new Map<string, number>();
  floors.forEach((nodes, i) => {
    for (const node of nodes) floorOf.set(node, i);
  });
  const problems: string[] = [];
  for (const node of [...graph.keys()].sort()) {
    if (!floorOf.has(node)) problems.push(`${node} is on no floor: place it in the floors list`);
  }
  for (const [from, edges] of graph) {
    for (const [to, example] of edges) {
      const up = (floorOf.get(to) ?? -1) > (floorOf.get(from) ?? Infinity);
      if (up) problems.push(`upward: ${example} (floor ${floorOf.get(from)! + 1} → ${floorOf.get(to)! + 1})`);
    }
  }
  return problems;
}
