/**
 * Imports flow downwards (docs/ARCHITECTURE.md). No import cycle between the top-level folders of src/, none between
 * files anywhere in src/, and inside core/ none between its sub-folders, whose imports never run up the floors
 * stated below. Every import counts, type-only and lazy `import("…")` ones included.
 */
import { describe, expect, test } from "bun:test";
import { cyclesOf, fileGraph, floorViolations, foldGraph, type Graph, importsOf, topFolderOf } from "./import-graph";

/**
 * The floors of src/core, ground first (docs/ARCHITECTURE.md, "Floors of core"). A node is a sub-folder of core or a
 * file directly in it (without `.ts`). A node may import from its own floor and the floors below, never above.
 */
export const CORE_FLOORS: readonly (readonly string[])[] = [
  // ground: the data model, the one error type, project settings and their slices, small shared helpers
  [
    "model",
    "errors",
    "arrays",
    "abort",
    "timing",
    "cores",
    "suggest",
    "unknown-keys",
    "geometry",
    "word-lines",
    "convert-limits",
    "project",
  ],
  ["workflow", "results", "separator-sheet", "settings-migrations"],
  // engines behind interfaces, and raster/grey-image helpers
  ["engines", "imaging"],
  // domain: what each stage knows, without running as a stage
  ["convert", "page-memo", "split", "classify", "extract", "validate", "memory", "einvoice", "exporters", "notify"],
  // the stages' functions over a run's pages and documents
  ["stages"],
  // the one transaction runner: the Stage list, state, pause and resume
  ["runner"],
  // what plugs into the runner or wraps it: the review stage and its corrections, processTransaction
  ["review", "pipeline"],
];

/**
 * Upward arrows whose fix is a move inside a folder another change is editing right now (the export profiles'
 * schema and the OCR language constants go down into core/project/). This list may only shrink.
 */
const WAITING_FOR_A_MOVE: ReadonlyArray<readonly [string, string]> = [
  ["project", "exporters"],
  ["project", "engines"],
];

/** A file's node inside core/ (`split`, `project`, `pipeline`), null outside core/. */
export const coreNodeOf = (file: string): string | null => {
  const parts = file.split("/");
  if (parts[0] !== "core") return null;
  return parts.length === 2 ? parts[1]!.replace(/\.tsx?$/, "") : parts[1]!;
};

const edge = (from: string, to: string) => [from, new Map([[to, `${from}/x.ts → ../${to}/y`]])] as const;

describe("architecture", () => {
  test("the scanner sees static, type-only and dynamic imports and finds a planted cycle", () => {
    expect(
      importsOf(
        `import { a } from "../x";\nimport type { B } from "./y";\nconst m = await import("../z/w");\nexport * from "./q";`,
      ),
    ).toEqual(["../x", "./y", "./q", "../z/w"]);
    const planted: Graph = new Map([edge("a", "b"), edge("b", "a")]);
    expect(cyclesOf(planted)).toEqual([["a/x.ts → ../b/y", "b/x.ts → ../a/y"]]);
  });

  test("the floor check finds a planted upward arrow and a node on no floor, and passes a downward one", () => {
    const floors = [["model"], ["split"], ["stages"]];
    expect(floorViolations(new Map([edge("stages", "split"), edge("split", "model")]), floors)).toEqual([]);
    expect(floorViolations(new Map([edge("split", "split")]), floors)).toEqual([]);
    expect(floorViolations(new Map([edge("split", "stages")]), floors)).toEqual([
      "upward: split/x.ts → ../stages/y (floor 2 → 3)",
    ]);
    expect(floorViolations(new Map([edge("newcomer", "model")]), floors)).toEqual([
      "newcomer is on no floor: place it in the floors list",
    ]);
    // Two folders of one floor may import each other's way only once: the loop is a cycle.
    const sameFloor: Graph = new Map([edge("split", "classify"), edge("classify", "split")]);
    expect(floorViolations(sameFloor, [["split", "classify"]])).toEqual([]);
    expect(cyclesOf(sameFloor)).toHaveLength(1);
  });

  test("no import cycle between the top-level folders of src/", () => {
    const graph = foldGraph(fileGraph(), topFolderOf);
    expect(graph.get("server")?.has("core")).toBe(true); // the scan really reads the tree
    expect(graph.get("core")?.size).toBe(0); // core imports nothing outside itself
    expect(cyclesOf(graph)).toEqual([]);
  });

  test("no import cycle between files anywhere in src/ (type-only and lazy imports count)", () => {
    const graph = fileGraph();
    expect(graph.size).toBeGreaterThan(300); // the scan really reads the tree
    expect(graph.get("server/openapi.ts")?.has("server/routes/auth.ts")).toBe(true);
    expect(cyclesOf(graph)).toEqual([]);
  });

  test("inside core/: no cycle between sub-folders and no import up the stated floors", () => {
    const graph = foldGraph(fileGraph(), coreNodeOf);
    expect(graph.get("runner")?.has("stages")).toBe(true); // the scan really reads core
    for (const [from, to] of WAITING_FOR_A_MOVE) {
      expect(graph.get(from)?.has(to)).toBe(true); // an arrow that is gone leaves this list
      graph.get(from)!.delete(to);
    }
    expect(cyclesOf(graph)).toEqual([]);
    expect(floorViolations(graph, CORE_FLOORS)).toEqual([]);
  });
});
