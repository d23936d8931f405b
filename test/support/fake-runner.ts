import path from "node:path";
import type { PipelineRunner, QueueRunOutcome } from "../../src/queue/pipeline-runner";

/** A runner that makes one document per source file and writes `<id>_data.json` plus a CSV in a subfolder. */
export const fakeRunner: PipelineRunner = async (input, ctx): Promise<QueueRunOutcome> => {
  ctx.onProgress("convert", 1, 1);
  const id = ctx.meta.transaction_id;
  const documents = input.sources.map((s, i) => ({
    document_id: `${id}-doc-${i}`,
    document_index: i,
    document_type: "invoice",
    classification_confidence: 0.9,
    classification: {
      class_id: "invoice",
      type: "invoice",
      confidence: 0.9,
      reasoning: "",
      alternatives: [],
      confirmed: null,
      review_required: false,
    },
    split: {
      mode: "per_file",
      policy: s.split_policy,
      confidence: 1,
      reason: "",
      review_required: false,
      page_numbers: [i + 1],
      source_file_indexes: [s.index],
    },
    fields: {
      invoice_number: {
        name: "Invoice number",
        value: `INV-${s.filename}`,
        confidence: 0.9,
        bounding_boxes: [],
        reasoning: "",
        review_required: false,
        is_confirmed: null,
      },
    },
  }));
  const json = JSON.stringify({ transaction_id: id, documents });
  await Bun.write(path.join(ctx.exportDir, `${id}_data.json`), json);
  await Bun.write(path.join(ctx.exportDir, "csv/summary file.csv"), "a,b\n1,2\n");
  const now = new Date().toISOString();
  return {
    status: "success",
    documents,
    pages: [],
    manifest: {
      transaction_id: id,
      profiles: {
        json: {
          profile_id: "json",
          profile_name: "JSON",
          output_format: "json",
          scope_mode: "per_transaction",
          files: [
            {
              filename: `${id}_data.json`,
              path: `exports/${id}_data.json`,
              size_bytes: json.length,
              document_ids: documents.map((d) => d.document_id),
              created_at: now,
            },
          ],
        },
        csv: {
          profile_id: "csv",
          profile_name: "CSV",
          output_format: "csv",
          scope_mode: "per_transaction",
          files: [
            {
              filename: "csv/summary file.csv",
              path: "exports/csv/summary file.csv",
              size_bytes: 8,
              document_ids: [],
              created_at: now,
            },
          ],
        },
      },
      total_files: 2,
      total_size_bytes: json.length + 8,
    },
    errors: [],
    warnings: [],
  };
};
