/**
 * Names that say their room (issue 36): no two modules of src/ export the same name for different things. A
 * re-export (`export { x } from "./y"`, `export type { T }`) is the same thing under its own name and is allowed; a
 * second declaration (function, class, const, interface, type, enum) of an exported name is a duplicate.
 *
 * KNOWN lists the duplicates that remain in folders being restructured by other work (core's floors, the server's
 * services); it may only shrink: a name on it that is no longer duplicated fails the test too, so the list stays
 * true. The run outcome, the queue, storage, auth, mail, batch and settings have none.
 */
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { SRC, sourceFiles } from "./source-files";

const DECLARATION =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(function\*?|const|let|var|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;

/** Exported name → the files that declare it (a file that declares it twice, as overloads, counts once). */
function declaredExports(files: string[]): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const file of files) {
    const rel = path.relative(SRC, file);
    for (const m of readFileSync(file, "utf8").matchAll(DECLARATION)) {
      const homes = byName.get(m[2]!) ?? [];
      if (!homes.includes(rel)) homes.push(rel);
      byName.set(m[2]!, homes);
    }
  }
  return byName;
}

const KNOWN = new Set([
  // core (its floors are being restructured)
  "Evidence",
  "Finding",
  "GreyImage",
  "Syntax",
  "ValidateOptions",
  "editDistance",
  "exportStage",
  "locate",
  "matchMemory",
  "meanConfidence",
  "notifyStage",
  "overallStatus",
  "pagesOf",
  "readValue",
  "reviewStage",
  "toGrey",
  "validateDocument",
  // cli, eval and capture
  "FileOutcome",
  "renderSummary",
  // server services over storage (the service and the table function share a name)
  "createProject",
  "createTransaction",
  "listProjects",
  "updateProject",
]);

test("no exported name is declared in two modules, beyond the shrinking KNOWN list", () => {
  const duplicates = [...declaredExports(sourceFiles(SRC))]
    .filter(([, homes]) => homes.length > 1)
    .map(([name, homes]) => `${name}: ${homes.sort().join(", ")}`)
    .sort();
  const fresh = duplicates.filter((d) => !KNOWN.has(d.split(":")[0]!));
  expect(fresh).toEqual([]);
  const gone = [...KNOWN].filter((name) => !duplicates.some((d) => d.startsWith(`${name}:`)));
  expect(gone).toEqual([]);
});

test("the scan tells a second declaration from a re-export", () => {
  const text = [
    "export interface RunOutcome { a: 1 }",
    'export type { RunOutcome } from "./types";',
    'export { runTransaction } from "./run";',
    "export async function runTransaction() {}",
    "export const STAGE_NAMES = [];",
  ].join("\n");
  const names = [...text.matchAll(DECLARATION)].map((m) => m[2]);
  expect(names).toEqual(["RunOutcome", "runTransaction", "STAGE_NAMES"]);
});
