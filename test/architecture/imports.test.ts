/**
 * No import cycle between the top-level folders of src/ (docs/ARCHITECTURE.md: imports flow downwards). Every
 * import counts, type-only and lazy `import("…")` ones included: a cycle of types is still a cycle of modules.
 */
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { SRC, sourceFiles } from "./source-files";

/** `core`, `queue`, …; a file directly in src/ is its own node (`cli.ts`). */
const folderOf = (file: string) => path.relative(SRC, file).split(path.sep)[0]!;

/** Relative specifiers of static imports, re-exports and dynamic imports. */
export function importsOf(text: string): string[] {
  const specs: string[] = [];
  const patterns = [
    /\b(?:import|export)\s[^'"`;]*?\bfrom\s*["']([^"']+)["']/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /^\s*import\s*["']([^"']+)["']/gm,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) specs.push(m[1]!);
  return specs.filter((s) => s.startsWith("."));
}

export function folderGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    for (const spec of importsOf(readFileSync(file, "utf8"))) {
      const target = path.resolve(path.dirname(file), spec);
      if (!target.startsWith(SRC + path.sep)) continue;
      const to = folderOf(target.endsWith(".ts") ? target : target + ".ts");
      if (to === from) continue;
      if (!graph.has(from)) graph.set(from, new Map());
      // One example edge per folder pair, to name it in the failure message.
      if (!graph.get(from)!.has(to)) graph.get(from)!.set(to, `${path.relative(SRC, file)} → ${spec}`);
    }
  }
  return graph;
}

/** Every cycle found by depth-first search, as the list of example imports that close it. */
export function cyclesOf(graph: Map<string, Map<string, string>>): string[][] {
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

/** The file an import names (`./x` → x.ts, x.tsx or x/index.ts), or null outside src/ or not a TypeScript file. */
function fileOf(from: string, spec: string): string | null {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")]) {
    if (/\.tsx?$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  }
  return null;
}

/** File → file import graph of src/, each edge named by the import that makes it. */
export function fileGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
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

describe("architecture", () => {
  test("the scanner sees static, type-only and dynamic imports and finds a planted cycle", () => {
    expect(
      importsOf(
        `import { a } from "../x";\nimport type { B } from "./y";\nconst m = await import("../z/w");\nexport * from "./q";`,
      ),
    ).toEqual(["../x", "./y", "./q", "../z/w"]);
    const planted = new Map([
      ["a", new Map([["b", "a/1.ts → ../b/2"]])],
      ["b", new Map([["a", "b/2.ts → ../a/1"]])],
    ]);
    expect(cyclesOf(planted)).toEqual([["a/1.ts → ../b/2", "b/2.ts → ../a/1"]]);
  });

  test("no import cycle between the top-level folders of src/", () => {
    const graph = folderGraph();
    expect(graph.get("server")?.has("core")).toBe(true); // the scan really reads the tree
    expect(graph.get("core")).toBeUndefined(); // core imports nothing outside itself
    expect(cyclesOf(graph)).toEqual([]);
  });

  test("no import cycle between files anywhere in src/ (type-only and lazy imports count)", () => {
    const graph = fileGraph();
    expect(graph.size).toBeGreaterThan(300); // the scan really reads the tree
    expect(graph.get("server/routes/auth.ts")?.has("server/route-doc.ts")).toBe(true);
    expect(cyclesOf(graph)).toEqual([]);
  });
});
