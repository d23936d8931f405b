/**
 * A project's memories live in its settings (`memory`, see src/core/memory/model.ts), so they travel with the
 * settings (GET/PUT .../settings, project files). Every change bumps `project_version` like any settings change:
 * results record which memories produced them.
 */
import { mergeMemories } from "../../core/memory/merge";
import type { Memory } from "../../core/project/memory";
import type { Db } from "../schema/db";
import { getProjectById, updateProject, type ProjectRecord } from "../projects/projects";

const memoriesOf = (p: ProjectRecord): Memory[] => {
  const m = (p.settings as { memory?: unknown } | null)?.memory;
  return Array.isArray(m) ? (m as Memory[]) : [];
};

export function listMemories(db: Db, projectId: string): Memory[] {
  const p = getProjectById(db, projectId);
  return p ? memoriesOf(p) : [];
}

/**
 * Adds memories: a further confirmation of a known issuer refines that issuer's memory (core/memory/merge.ts); the
 * oldest beyond `cap` per project are dropped (a newer confirmation shows the current template).
 */
export function addMemories(db: Db, projectId: string, added: Memory[], now: string, cap = 500): void {
  if (!added.length) return;
  const p = getProjectById(db, projectId);
  if (!p) return;
  const memory = mergeMemories(memoriesOf(p), added).slice(-cap);
  updateProject(db, p.tenant_id, p.project_id, { settings: { ...(p.settings as object), memory } }, now);
}

/** Removes one memory; false when the project has no such memory. */
export function forgetMemory(db: Db, projectId: string, memoryId: string, now: string): boolean {
  const p = getProjectById(db, projectId);
  if (!p) return false;
  const before = memoriesOf(p);
  const memory = before.filter((m) => m.memory_id !== memoryId);
  if (memory.length === before.length) return false;
  updateProject(db, p.tenant_id, p.project_id, { settings: { ...(p.settings as object), memory } }, now);
  return true;
}
