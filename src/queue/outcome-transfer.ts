/**
 * A run's outcome crossing from the pipeline thread to the HTTP thread (pipeline-thread.ts → threaded-runner.ts).
 * Its large parts travel as UTF-8 bytes whose buffers are moved, not copied: the results and run state texts
 * (storage/results/run-json.ts) and the documents. The documents go as their JSON text, parsed on arrival: a
 * structured clone of the 423 documents of 500 pages (~30,000 objects) took 34-74 ms at load 10 against 5-13 ms to
 * decode and parse their text, and a finished run has that text already (made once for the results file and the
 * run state). The HTTP thread stores documents as JSON (rows and the results file), so the JSON view is what it
 * needs: values JSON cannot hold (undefined members) are left out as the results file leaves them out.
 */
import type { QueueRunOutcome } from "./pipeline-runner";
import { textsForTransfer } from "../storage/results/run-json";

/** The outcome as it crosses: documents replaced by the bytes of their JSON text. */
export type OutcomeOnWire = Omit<QueueRunOutcome, "documents"> & { documents?: never; documentsJson: Uint8Array };

/** The outcome to post and the buffers to move with it. */
export function outcomeForTransfer(result: QueueRunOutcome): { wire: OutcomeOnWire; transfer: ArrayBuffer[] } {
  const moved = result.json ? textsForTransfer(result.json) : null;
  const text = result.json?.saved?.documents?.text ?? JSON.stringify(result.documents);
  const documentsJson = new TextEncoder().encode(text);
  const { documents: _d, ...rest } = result;
  return {
    wire: { ...rest, ...(moved ? { json: moved.json } : {}), documentsJson },
    transfer: [...(moved?.transfer ?? []), documentsJson.buffer as ArrayBuffer],
  };
}

/** The outcome as the queue stores it (the run's texts stay bytes: see RunJson). */
export function outcomeFromTransfer(wire: OutcomeOnWire): QueueRunOutcome {
  const { documentsJson, ...rest } = wire;
  return { ...rest, documents: JSON.parse(new TextDecoder().decode(documentsJson)) };
}
