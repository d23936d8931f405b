/**
 * The answers computed ahead for a run's pages (classes, fields: core/page-memo.ts; Split's page features) are let go
 * when the run stops, whichever stage it stopped at; Classify and Extract let go of theirs as soon as they have run,
 * the runner of Split's once Split has. Its own module, not run-state.ts: the stages import run-state, and run-state
 * importing them back would make a cycle.
 */
import { forgetClassifications } from "./classify";
import { forgetExtractedAhead } from "./extract";
import type { RunState } from "./types";
import { forgetPageFeatures } from "../split/signals";

export function forgetRunAnswers(state: RunState): void {
  forgetClassifications(state.pages);
  forgetExtractedAhead(state.pages);
  forgetPageFeatures(state.pages);
}
