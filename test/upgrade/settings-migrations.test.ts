/**
 * Versioned project settings (issue 38): settings stored before a change of meaning are migrated once, at open,
 * keeping what the project did; the change is noted in the project's history. The fixtures test
 * (fixtures.test.ts) does the same on data directories written by the earlier releases themselves.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { defaultProject } from "../../src/core/project";
import { migrateSettings, SETTINGS_VERSION } from "../../src/core/settings-migrations";
import {
  applySettingsMigrations,
  listProjectHistory,
  settingsMigrationsOf,
} from "../../src/storage/schema/settings-migrate";
import { createProject, getProjectById, updateProject } from "../../src/storage/projects/projects";
import { freshDb } from "../storage/helpers";

/** The default project's workflow as a build before the Review step stored it (its schema stripped other keys). */
const EARLY_WORKFLOW = [
  { type: "split", enabled: true },
  { type: "classify", enabled: true },
  { type: "extract", enabled: true },
  { type: "validate", enabled: true },
  { type: "review", enabled: true },
  { type: "export", enabled: true },
  { type: "notification", id: "notify", name: "Notification", enabled: false, activity: null },
];

describe("migrateSettings", () => {
  test("an early review node (no `when`) is turned off with a note; later nodes keep their choice", () => {
    const out = migrateSettings({ name: "x", workflow: EARLY_WORKFLOW }, 0);
    expect(out.version).toBe(SETTINGS_VERSION);
    const review = (out.settings as { workflow: Array<Record<string, unknown>> }).workflow[4]!;
    expect(review).toEqual({ type: "review", enabled: false });
    expect(out.notes).toHaveLength(1);
    expect(out.notes[0]).toContain("workflow.4 (review)");
    // A node the Review step's schema wrote (it has `when`) was meant: it stays enabled.
    const meant = { type: "review", enabled: true, when: "always", timeout_hours: 24, timeout_action: "continue" };
    expect(migrateSettings({ workflow: [meant] }, 0)).toEqual({
      settings: { workflow: [meant] },
      version: SETTINGS_VERSION,
      notes: [],
    });
    // Already at the version: nothing runs again.
    expect(migrateSettings({ workflow: EARLY_WORKFLOW }, SETTINGS_VERSION).notes).toEqual([]);
  });

  test("today's default project has nothing to migrate", () => {
    expect(migrateSettings(JSON.parse(JSON.stringify(defaultProject)), 0).notes).toEqual([]);
  });
});

describe("stored settings at open", () => {
  let env: ReturnType<typeof freshDb> | null = null;
  afterEach(() => env?.cleanup());

  test("migrated once per project, with a new project_version and a history note; new projects are current", () => {
    env = freshDb();
    const now = "2026-11-24T03:00:00.000Z";
    const old = createProject(env.db, {
      project_id: "p-old",
      tenant_id: "default",
      name: "old",
      description: "",
      settings: { ...defaultProject, workflow: EARLY_WORKFLOW },
      now,
    });
    const fresh = createProject(env.db, {
      project_id: "p-new",
      tenant_id: "default",
      name: "new",
      description: "",
      settings: defaultProject,
      now,
    });
    // As an earlier build left them: no settings version recorded.
    env.db.query("UPDATE projects SET settings_version = 0").run();
    const reports = applySettingsMigrations(env.db, "2026-11-27T00:00:00.000Z");
    expect(reports.map((r) => [r.project_id, r.from_version, r.to_version, r.notes.length]).sort()).toEqual([
      ["p-new", 0, SETTINGS_VERSION, 0],
      ["p-old", 0, SETTINGS_VERSION, 1],
    ]);
    const migrated = getProjectById(env.db, "p-old")!;
    expect((migrated.settings as { workflow: unknown[] }).workflow[4]).toEqual({ type: "review", enabled: false });
    expect(migrated.project_version).toBe(old.project_version + 1);
    expect(getProjectById(env.db, "p-new")!.project_version).toBe(fresh.project_version);
    const history = listProjectHistory(env.db, "p-old");
    expect(history.map((h) => [h.kind, h.project_version])).toEqual([["settings_migration", 2]]);
    expect(history[0]!.note).toContain("enabled: false");
    // A second open (another process, a restart) finds nothing to do.
    const again = env.connect();
    try {
      expect(settingsMigrationsOf(again)).toEqual([]);
    } finally {
      again.close();
    }
    expect(applySettingsMigrations(env.db)).toEqual([]);
    expect(listProjectHistory(env.db, "p-old")).toHaveLength(1);
    // Settings written by this build carry its version: a later open leaves them alone.
    updateProject(env.db, "default", "p-new", { settings: { ...defaultProject, workflow: EARLY_WORKFLOW } }, now);
    expect(applySettingsMigrations(env.db)).toEqual([]);
  });
});
