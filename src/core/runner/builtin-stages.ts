/**
 * The built-in stages, one per stage name: each lives in its stage's folder (core/stages/<stage>/stage.ts) and
 * reads and changes the run state; the runner skips a disabled node, except Split, which then makes one document
 * per source file (spec rule 5).
 *
 * Split creates the documents (unclassified, no fields); Classify fills `classification`, Extract `fields`,
 * Validate `validation` and the transaction rules. A document that skipped Classify stays `other` at confidence 0.
 */
import { classifyStage } from "../stages/classify/stage";
import { convertStage } from "../stages/convert/stage";
import { exportStage } from "../stages/export/stage";
import { extractStage } from "../stages/extract/stage";
import { notifyStage } from "../stages/notify/stage";
import { noReviewStage } from "../stages/review/stage";
import { splitStage } from "../stages/split/stage";
import type { Stage, StageName } from "../stages/types";
import { validateStage } from "../stages/validate/stage";
import { ocrStage } from "./convert-stages";

export const BUILTIN_STAGES: Record<StageName, Stage> = {
  convert: convertStage,
  ocr: ocrStage,
  split: splitStage,
  classify: classifyStage,
  extract: extractStage,
  validate: validateStage,
  review: noReviewStage,
  export: exportStage,
  notify: notifyStage,
};
