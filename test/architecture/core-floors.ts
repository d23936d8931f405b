/** The stated floors of src/core, enforced by imports.test.ts and shown in docs/ARCHITECTURE.md. */

/**
 * The floors of src/core, ground first (docs/ARCHITECTURE.md, "Floors of core"). A node is a sub-folder of core or a
 * file directly in it (without `.ts`). A node may import from its own floor and the floors below, never above.
 */
export const CORE_FLOORS: readonly (readonly string[])[] = [
  // ground: the data model, the one error type, project settings and their slices, small shared helpers
  [
    "model",
    "source-data",
    "errors",
    "arrays",
    "abort",
    "timing",
    "cores",
    "clock",
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
  // the stages' vocabulary (Stage, StageContext, RunState, the pause signal) and the helpers they share
  ["stages/types", "stages/run-state"],
  // one folder per stage: its Stage (stage.ts) and its functions over a run's pages and documents
  [
    "stages/convert",
    "stages/ocr",
    "stages/split",
    "stages/classify",
    "stages/extract",
    "stages/validate",
    "stages/review",
    "stages/export",
    "stages/notify",
  ],
  // what is done with several stages' state at once: letting go of their answers computed ahead
  ["stages/run-answers"],
  // the one transaction runner: the Stage list, state, pause and resume
  ["runner"],
  // what wraps the runner: processTransaction
  ["pipeline"],
];

/**
 * A file's node inside core/ (`split`, `project`, `pipeline`), null outside core/. Inside core/stages/ each stage's
 * folder (and each file beside them) is a node of its own (`stages/split`, `stages/types`), so an import between two
 * stages is checked like one between two domain folders.
 */
export const coreNodeOf = (file: string): string | null => {
  const parts = file.split("/");
  if (parts[0] !== "core") return null;
  const [top, rest] = parts[1] === "stages" && parts.length > 2 ? ["stages/", parts.slice(2)] : ["", parts.slice(1)];
  return top + (rest.length === 1 ? rest[0]!.replace(/\.tsx?$/, "") : rest[0]!);
};
