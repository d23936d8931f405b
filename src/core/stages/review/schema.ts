/**
 * The shapes of human review (actions.ts applies them): the action bodies a reviewer sends, the reviewer, and the
 * history and state stored between calls. Its own module so the review helpers (split.ts, hooks.ts) can name these
 * types without importing the module that imports them.
 */
import { z } from "zod";
import type { ResultsFile } from "../../model";

export interface Reviewer {
  /** User id, client id, `admin`, or the local user name of `docproc review`. */
  id: string;
  kind: "user" | "client" | "admin" | "local";
}

/** One recorded change: a path inside the document and its value before and after. */
export interface ReviewChange {
  path: string;
  before: unknown;
  after: unknown;
}

export interface ReviewEntry {
  action: ReviewAction["action"];
  at: string;
  reviewer: Reviewer;
  document_id?: string;
  field_id?: string;
  changes: ReviewChange[];
}

/** What is stored between review calls. `version` rises by one with every action (stale writes are refused). */
export interface ReviewState {
  version: number;
  results: ResultsFile;
  history: ReviewEntry[];
  /** Set by `finish`; a finished review accepts no more actions. */
  finished_at: string | null;
}

const BoxSchema = z.tuple([z.number(), z.number(), z.number(), z.number()]);
const FieldBoxSchema = z.object({ coordinates: BoxSchema, page_index: z.number().int().min(1) });
const Scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);

/** The body of every review write; `version` is the state version the reviewer saw. */
export const ReviewActionSchema = z.discriminatedUnion("action", [
  z.object({
    action: z.literal("set_field"),
    document_id: z.string().min(1),
    field_id: z.string().min(1),
    /** A string is normalised by the field's type (amounts to numbers, dates to ISO); other values are kept. */
    value: Scalar,
    bounding_boxes: z.array(FieldBoxSchema).optional(),
  }),
  z.object({ action: z.literal("confirm_field"), document_id: z.string().min(1), field_id: z.string().min(1) }),
  z.object({ action: z.literal("set_class"), document_id: z.string().min(1), class_id: z.string().min(1) }),
  z.object({ action: z.literal("confirm_document"), document_id: z.string().min(1) }),
  /** The document starts at `first_page` instead: pages move between it and the document before it. */
  z.object({ action: z.literal("move_boundary"), document_id: z.string().min(1), first_page: z.number().int().min(1) }),
  /** Merges a document with the one right after it. */
  z.object({ action: z.literal("merge_documents"), document_id: z.string().min(1) }),
  /** Splits a document so that `at_page` starts a new one. */
  z.object({ action: z.literal("split_document"), document_id: z.string().min(1), at_page: z.number().int().min(1) }),
  z.object({ action: z.literal("finish") }),
]);
export type ReviewAction = z.infer<typeof ReviewActionSchema>;
