/**
 * The answers computed ahead for a run's pages (classes, fields: core/page-memo.ts) are let go when the run stops,
 * whichever stage it stopped at; Classify and Extract let go of theirs as soon as they have run. Its own module, not
 * run-state.ts: the stages import run-state, and run-state importing them back would make a cycle.
 */
import { forgetClassifications } from "./classify";
import { forgetExtractedAhead } from "./extract";
import type { RunState } from "./types";

export function forgetRunAnswers(state: RunState): void {
  forgetClassifications(state.pages);
  forgetExtractedAhead(state.pages);
}
