import type { Stage } from "../types";

/**
 * The built-in Review slot passes through: the server plugs in `reviewStage` (core/review/stage.ts, pauses for a
 * reviewer) through `RunOptions.stages.review`; the CLI never pauses (`docproc review` opens marked files later).
 */
export const noReviewStage: Stage = async () => {};
