/**
 * A run's outcome crossing from the pipeline thread (src/queue/outcome-transfer.ts): the documents travel as the
 * bytes of their JSON text, moved with the run's texts, and arrive as that JSON parsed; a finished run's documents
 * text (made once for the results file and the run state) is reused, not made again.
 */
import { describe, expect, test } from "bun:test";
import type { DocumentResult } from "../../src/core/model";
import type { QueueRunOutcome } from "../../src/queue/pipeline-runner";
import { outcomeForTransfer, outcomeFromTransfer } from "../../src/queue/outcome-transfer";

const documents = [
  {
    document_id: "d1",
    document_index: 0,
    document_type: "invoice",
    classification_confidence: 0.93,
    classification: { class_id: "invoice", review_required: false },
    split: { page_numbers: [1, 2], review_required: false },
    fields: {
      total: { name: "Total", value: 12.5, confidence: 0.9, bounding_boxes: [], reasoning: "", review_required: false },
      note: { name: "Note", value: 'a "quoted" é', confidence: 0.5, raw_text: undefined, review_required: true },
    },
    validation: undefined,
  },
] as unknown as DocumentResult[];

function outcome(json: QueueRunOutcome["json"]): QueueRunOutcome {
  return {
    status: "success",
    documents,
    pages: [],
    manifest: { profiles: {} } as never,
    errors: [],
    warnings: [],
    json,
  };
}

describe("the outcome crossing threads", () => {
  test("documents go as moved JSON bytes and arrive as their JSON view", () => {
    const { wire, transfer } = outcomeForTransfer(outcome(undefined));
    expect(wire.documents).toBeUndefined();
    expect(transfer).toContain(wire.documentsJson.buffer as ArrayBuffer);
    const arrived = outcomeFromTransfer(structuredClone(wire, { transfer }));
    // Moved, not copied: the sender's buffer is detached.
    expect(transfer.every((b) => b.byteLength === 0)).toBe(true);
    expect(arrived.documents).toEqual(JSON.parse(JSON.stringify(documents)));
    expect(JSON.stringify(arrived.documents)).toBe(JSON.stringify(documents));
    expect(arrived.status).toBe("success");
  });

  test("a finished run's documents text is reused, with the results and run state texts moved beside it", () => {
    const shared = { tag: "\u0001documents:x", text: '[{"document_id":"from-the-shared-text"}]' };
    const json = {
      results: '{"documents":[]}',
      lastHumanReview: { reviewed: false },
      saved: { head: { version: 1 } as never, files: "[]", documents: shared },
    };
    const { wire, transfer } = outcomeForTransfer(outcome(json));
    expect(transfer).toHaveLength(3);
    const arrived = outcomeFromTransfer(structuredClone(wire, { transfer }));
    expect(arrived.documents).toEqual([{ document_id: "from-the-shared-text" }] as never);
    expect(new TextDecoder().decode(arrived.json!.results as Uint8Array)).toBe('{"documents":[]}');
  });
});
