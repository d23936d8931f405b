/**
 * Profile defaults (options.defaults: BT id → value): which terms may take one and where each lives in the model.
 * A default fills a term the document leaves empty, typically the buyer (the company docproc works for).
 */
import { DocprocError } from "../errors";
import { allDefs } from "./bt-map";

/** Groups whose terms take no default: lines, notes, references, allowances and repeated identifiers. */
const NO_DEFAULTS = new Set(["BG-1", "BG-3", "BG-20", "BG-21", "BG-24", "BG-25", "BG-4-ID", "BG-7-ID", "BG-10-ID"]);

let defaultPaths: Record<string, string[]> | null = null;
/** Where each BT a default may set lives: document level or single groups (the first instance of BG-16, BG-23). */
export function defaultablePaths(): Record<string, string[]> {
  if (!defaultPaths) {
    defaultPaths = {};
    for (const { def, path } of allDefs()) {
      if (!def.id.startsWith("BT-") || path.some((g) => NO_DEFAULTS.has(g.id))) continue;
      defaultPaths[def.id] ??= path.map((g) => g.id);
    }
  }
  return defaultPaths;
}

/** Throws `invalid_settings` naming the keys that cannot take a default. */
export function checkDefaults(defaults: Record<string, string>): void {
  const unknown = Object.keys(defaults).filter((k) => !defaultablePaths()[k]);
  if (unknown.length)
    throw new DocprocError(
      "invalid_settings",
      `options.defaults: ${unknown.join(", ")} cannot be given a default (unknown BT, or a term of lines, notes or repeated identifiers)`,
      { stage: "export" },
    );
}
