/**
 * Imports flow downwards (docs/ARCHITECTURE.md). No import cycle between the top-level folders of src/, none between
 * files anywhere in src/, and inside core/ none between its sub-folders, whose imports never run up the floors
 * stated in core-floors.ts; storage/ is grouped by aggregate with no cycle between its folders. Every import counts,
 * type-only and lazy `import("…")` ones included.
 */
import { describe, expect, test } from "bun:test";
import { CORE_FLOORS, coreNodeOf } from "./core-floors";
import { cyclesOf, fileGraph, floorViolations, foldGraph, type Graph, importsOf, topFolderOf } from "./import-graph";

const edge = (from: string, to: string) => [from, new Map([[to, `${from}/x.ts → ../${to}/y`]])] as const;

describe("architecture", () => {
  test("the scanner sees static, type-only and dynamic imports and finds a planted cycle", () => {
    expect(
      importsOf(
        `import { a } from "../x";\nimport type { B } from "./y";\nconst m = await import("../z/w");\nexport * from "./q";`,
      ),
    ).toEqual(["../x", "./y", "./q", "../z/w"]);
    expect(
      importsOf(`const { a } = require("../einvoice/readiness") as typeof import("../../einvoice/readiness");`),
    ).toEqual(["../../einvoice/readiness", "../einvoice/readiness"]);
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

  test("a core file's node: its sub-folder, its own name, and inside stages/ its stage's folder", () => {
    expect(coreNodeOf("core/split/signals.ts")).toBe("split");
    expect(coreNodeOf("core/pipeline.ts")).toBe("pipeline");
    expect(coreNodeOf("core/stages/split/stage.ts")).toBe("stages/split");
    expect(coreNodeOf("core/stages/classify/train.ts")).toBe("stages/classify");
    expect(coreNodeOf("core/stages/types.ts")).toBe("stages/types");
    expect(coreNodeOf("server/app.ts")).toBeNull();
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
    expect(graph.get("server/routes/auth.ts")?.has("server/route-doc.ts")).toBe(true);
    expect(cyclesOf(graph)).toEqual([]);
  });

  test("inside storage/: every module sits in an aggregate folder, and no cycle between those folders", () => {
    const files = [...fileGraph().keys()].filter((f) => f.startsWith("storage/"));
    expect(files.filter((f) => f.split("/").length < 3)).toEqual([]); // no flat module left in storage/
    const graph = foldGraph(fileGraph(), (f) => (f.startsWith("storage/") ? f.split("/")[1]! : null));
    expect(graph.get("results")?.has("transactions")).toBe(true); // the scan really reads storage
    expect(cyclesOf(graph)).toEqual([]);
  });

  test("inside core/: no cycle between sub-folders and no import up the stated floors", () => {
    const graph = foldGraph(fileGraph(), coreNodeOf);
    expect(graph.get("runner")?.has("stages/split")).toBe(true); // the scan really reads core
    expect(cyclesOf(graph)).toEqual([]);
    expect(floorViolations(graph, CORE_FLOORS)).toEqual([]);
  });
});
