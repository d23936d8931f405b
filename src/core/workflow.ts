/**
 * Reads the project's workflow step list: which built-in steps are switched off, and what the Split and Export
 * steps should do. A project without a step list runs every built-in step.
 */
import type { ProjectSettings } from "./project";
import type { SplitSettings } from "./project/split";

type Step = ProjectSettings["workflow"][number];

export function stepEnabled(project: ProjectSettings, type: Step["type"]): boolean {
  const steps = project.workflow.filter((s) => s.type === type);
  return steps.length === 0 || steps.some((s) => s.enabled !== false);
}

/** Spec rule 5: with the Split step disabled every file becomes one document, whatever its policy. */
export function splitSettingsOf(project: ProjectSettings): SplitSettings {
  return stepEnabled(project, "split") ? project.split : { ...project.split, enabled: false };
}

export function exportProfilesOf(project: ProjectSettings): ProjectSettings["export_profiles"] {
  return stepEnabled(project, "export") ? project.export_profiles : [];
}
