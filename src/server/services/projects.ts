/**
 * Project use cases: create, list, read, update (versions bump on update). Settings given through the API MAY be
 * partial: they are merged over the default project at the top level (core/project mergeOverDefault, as for
 * project files) and validated as a whole; every problem is listed in one 400.
 */
import { randomUUID } from "node:crypto";
import { DocprocError } from "../../core/errors";
import { defaultProject, mergeOverDefault, parseProjectSettings } from "../../core/project";
import { isoAt, type Clock } from "../../core/clock";
import type { Db } from "../../storage/schema/db";
import * as projects from "../../storage/projects/projects";
import { ensureTenant, getTenant } from "../../storage/auth/tenants";

export function createProject(
  db: Db,
  clock: Clock,
  tenantId: string,
  input: { name: string; description: string; settings?: unknown },
) {
  const settings =
    input.settings === undefined ? defaultProject : parseProjectSettings(mergeOverDefault(input.settings));
  const now = isoAt(clock);
  return db.transaction(() => {
    ensureTenant(db, tenantId, now);
    return projects.createProject(db, {
      project_id: randomUUID(),
      tenant_id: tenantId,
      name: input.name,
      description: input.description,
      settings,
      now,
    });
  })();
}

export function requireProject(db: Db, tenantId: string, projectId: string): projects.ProjectRecord {
  const p = projects.getProject(db, tenantId, projectId);
  if (!p) throw new DocprocError("not_found", `Project ${projectId} not found in tenant ${tenantId}`);
  return p;
}

export function listProjects(db: Db, tenantId: string): projects.ProjectRecord[] {
  if (!getTenant(db, tenantId)) throw new DocprocError("not_found", `Tenant ${tenantId} not found`);
  return projects.listProjects(db, tenantId);
}

export function updateProject(
  db: Db,
  clock: Clock,
  tenantId: string,
  projectId: string,
  patch: { name?: string; description?: string; settings?: unknown },
  mode: "merge" | "replace" = "replace",
): projects.ProjectRecord {
  // PATCH merges the given top-level keys over the project's current settings (keys left out stay as they are);
  // PUT .../settings replaces them, merged over the default project like a new project's.
  const base = mode === "merge" && isObject(patch.settings) ? requireProject(db, tenantId, projectId).settings : null;
  const raw =
    base && isObject(patch.settings) ? { ...(base as Record<string, unknown>), ...patch.settings } : patch.settings;
  const settings = raw === undefined ? undefined : parseProjectSettings(mergeOverDefault(raw));
  const p = projects.updateProject(db, tenantId, projectId, { ...patch, settings }, isoAt(clock));
  if (!p) throw new DocprocError("not_found", `Project ${projectId} not found in tenant ${tenantId}`);
  return p;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
