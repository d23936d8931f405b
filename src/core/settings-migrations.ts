/**
 * Versions of the stored project settings' meaning. Settings stored by an earlier build carry the version of that
 * build (0: before versions were recorded); `migrateSettings` brings them to SETTINGS_VERSION with one step per
 * change of meaning, each of which keeps what the project did before. A step MUST say what it changed (its notes
 * go to the project's history) and MUST be safe on settings it has nothing to do for.
 *
 * Pure: storage applies it to the stored rows (storage/schema/settings-migrate.ts), at start on SQLite and PostgreSQL
 * and by `docproc migrate`.
 */

export interface SettingsMigrationStep {
  /** The version the settings have after this step. */
  version: number;
  name: string;
  /** Returns the new settings and a note per change (none: the settings stay as they were). */
  apply(settings: Record<string, unknown>): { settings: Record<string, unknown>; notes: string[] };
}

/**
 * Version 1 (2026-11-24, the Review step that pauses): before it, a `review` node in the workflow did nothing, and
 * every stored project's workflow listed one with `enabled: true` (the schema's default). Such a node is told apart
 * by the keys the Review step's schema fills in at every parse since (`when`, `timeout_hours`): a node without
 * `when` was stored before the step had a meaning. It is turned off, so the project keeps completing its
 * transactions instead of pausing them in `awaiting_input`.
 */
const reviewWasANoOp: SettingsMigrationStep = {
  version: 1,
  name: "review_step_was_a_no_op",
  apply(settings) {
    const workflow = settings.workflow;
    if (!Array.isArray(workflow)) return { settings, notes: [] };
    const notes: string[] = [];
    const next = workflow.map((node: unknown, i: number) => {
      if (!isObject(node) || node.type !== "review" || node.enabled === false || "when" in node) return node;
      notes.push(
        `workflow.${i} (review): stored by a build whose Review step did nothing; set to enabled: false so transactions ` +
          `still complete without pausing. Set enabled: true to have them wait for a reviewer (docs/review.md).`,
      );
      return { ...node, enabled: false };
    });
    return notes.length ? { settings: { ...settings, workflow: next }, notes } : { settings, notes };
  },
};

export const SETTINGS_MIGRATIONS: readonly SettingsMigrationStep[] = [reviewWasANoOp];

/** The version settings written by this build carry. */
export const SETTINGS_VERSION = SETTINGS_MIGRATIONS[SETTINGS_MIGRATIONS.length - 1]!.version;

export interface MigratedSettings {
  settings: unknown;
  version: number;
  /** One line per change, prefixed with the step's name. */
  notes: string[];
}

/** Applies every step above `fromVersion`, in order. Settings that are not an object are left as they are. */
export function migrateSettings(stored: unknown, fromVersion: number): MigratedSettings {
  if (!isObject(stored)) return { settings: stored, version: SETTINGS_VERSION, notes: [] };
  let settings = stored;
  const notes: string[] = [];
  for (const step of SETTINGS_MIGRATIONS) {
    if (step.version <= fromVersion) continue;
    const out = step.apply(settings);
    settings = out.settings;
    for (const n of out.notes) notes.push(`${step.name}: ${n}`);
  }
  return { settings, version: Math.max(fromVersion, SETTINGS_VERSION), notes };
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
