/**
 * What docproc remembers of a confirmed document (docs/memory.md): who issued it and where each field was printed.
 * One memory per confirmed document; several of one issuer may exist, the most recent match wins.
 *
 * A memory is plain JSON (it lives in the project settings under `memory`, so it travels with every project file,
 * `GET`/`PUT .../settings` and a project export); the schema below MUST accept what `learnMemory` writes and SHOULD
 * reject anything else with a path, like every other settings problem.
 */
import { z } from "zod";

const Pair = z.tuple([z.number(), z.number()]);

/**
 * Fields added by issue 33 are optional, so that a memory written before (label offsets in page fractions only)
 * still loads and is used as it was (test/core/memory-format.test.ts loads one).
 */
const PlacementSchema = z.object({
  /** Label printed next to the value, as printed (null: the value stood alone). */
  label: z.string().nullable(),
  /** Where the value stood relative to the label: on its line to the right, or on the line below. */
  relation: z.enum(["right", "below", "none"]),
  /** Value's top-left relative to the label's top-right (right) or bottom-left (below), in page fractions. */
  offset: z.tuple([z.number(), z.number()]).nullable(),
  /** Value's top-left on its page, in page fractions (x, y), and the page's position in the document (1-based). */
  position: z.tuple([z.number(), z.number()]),
  page: z.number().int().min(1),
  /** Letters → A, digits → 9, runs collapsed ("NW/77/B" → "A/9/A"); "" for amounts and dates (their reader checks). */
  shape: z.string(),
  /** How many words the value spanned. */
  words: z.number().int().min(1),
  example: z.union([z.string(), z.number(), z.boolean()]),
  /** Value's top-left from the label's anchor point (as `offset`), in the page's word heights: survives DPI and crops. */
  rel: Pair.optional(),
  /** A value without a label: the nearest fixed word of the issuer's page and the value's offset from it (word heights). */
  anchor: z.object({ text: z.string(), rel: Pair }).nullable().optional(),
  /** Value's place relative to the page's text (x: share of its width, y: word heights below its top); see frame.ts. */
  place: Pair.optional(),
  /** The value was confirmed but not printed (a shop's currency): used only where the page gives nothing. */
  constant: z.boolean().optional(),
  /** A value over several lines of one block (an address): how many, the confirmed separator, last line's words. */
  lines: z.number().int().min(2).optional(),
  joiner: z.string().optional(),
  tail: z.number().int().min(1).optional(),
  /** How many confirmations this placement was averaged over. */
  seen: z.number().int().min(1).optional(),
});

export const RememberedFieldSchema = PlacementSchema.extend({
  /** Other placements of the field seen in later confirmations (an issuer with two templates). */
  variants: z.array(PlacementSchema).optional(),
});

export const IssuerSchema = z.object({
  vat_ids: z.array(z.string()).default([]),
  ibans: z.array(z.string()).default([]),
  /** Lower-case letters and digits of the issuer's name, legal form kept (it tells "Acme GmbH" from "Acme Inc"). */
  name: z.string().nullable().default(null),
  domains: z.array(z.string()).default([]),
  /** Layout fingerprint of the first page: "word@column,row" cells of its label-like words (see fingerprint()). */
  fingerprint: z.array(z.string()).default([]),
  /** Names as confirmed (printed form kept) and where the name stood (frame place; one per template seen). */
  names: z.array(z.string()).default([]),
  name_places: z.array(Pair).default([]),
  /** Fixed strings of the issuer's letterhead and footer (address, phone, greetings), compact, with their places. */
  anchors: z.array(z.object({ text: z.string(), at: Pair, from: z.enum(["top", "bottom"]) })).default([]),
  /** Layouts of the header block after deskewing ("word@x,y" in frame terms), one per template seen. */
  layouts: z.array(z.array(z.string())).default([]),
});

export const MemorySchema = z.object({
  memory_id: z.string().min(1),
  class_id: z.string().min(1),
  /** `memory` (a document submitted to the memory dataset with expected values) or `review` (a confirmation). */
  source: z.enum(["memory", "review", "cli"]),
  confirmed_at: z.string(),
  transaction_id: z.string().nullable().default(null),
  document_id: z.string().nullable().default(null),
  issuer: IssuerSchema,
  fields: z.record(z.string(), RememberedFieldSchema),
  /** How many confirmed documents this memory was refined from (learning merges an issuer's confirmations). */
  confirmations: z.number().int().min(1).default(1),
});

export type RememberedField = z.infer<typeof RememberedFieldSchema>;
export type Placement = z.infer<typeof PlacementSchema>;
export type Issuer = z.infer<typeof IssuerSchema>;
export type Memory = z.infer<typeof MemorySchema>;

/** A short listing of a memory (API list and `docproc memory list`). */
export function summaryOf(m: Memory) {
  return {
    memory_id: m.memory_id,
    class_id: m.class_id,
    source: m.source,
    confirmed_at: m.confirmed_at,
    issuer: { name: m.issuer.name, vat_ids: m.issuer.vat_ids, ibans: m.issuer.ibans, domains: m.issuer.domains },
    fields: Object.keys(m.fields),
    confirmations: m.confirmations,
    transaction_id: m.transaction_id,
  };
}
