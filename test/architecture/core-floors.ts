/** The stated floors of src/core, enforced by imports.test.ts and shown in docs/ARCHITECTURE.md. */

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
  // the stages' functions over a run's pages and documents
  ["stages"],
  // the one transaction runner: the Stage list, state, pause and resume
  ["runner"],
  // what wraps the runner: processTransaction
  ["pipeline"],
];

/** A file's node inside core/ (`split`, `project`, `pipeline`), null outside core/. */
export const coreNodeOf = (file: string): string | null => {
  const parts = file.split("/");
  if (parts[0] !== "core") return null;
  return parts.length === 2 ? parts[1]!.replace(/\.tsx?$/, "") : parts[1]!;
};
