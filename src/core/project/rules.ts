/** The `validation_rules` slice of the project settings: one schema per rule type (core/validate/rules.ts applies them). */
import { z } from "zod";
import { Id, RegexString } from "./ids";

export const ValidationRuleSchema = z.discriminatedUnion("type", [
  z.object({
    id: Id,
    type: z.literal("required"),
    field: z.string(),
    class_ids: z.array(z.string()).optional(),
    severity: z.enum(["warning", "error"]).default("error"),
  }),
  z.object({
    id: Id,
    type: z.literal("pattern"),
    field: z.string(),
    pattern: RegexString,
    class_ids: z.array(z.string()).optional(),
    severity: z.enum(["warning", "error"]).default("warning"),
  }),
  z.object({
    id: Id,
    type: z.literal("range"),
    field: z.string(),
    min: z.number().optional(),
    max: z.number().optional(),
    class_ids: z.array(z.string()).optional(),
    severity: z.enum(["warning", "error"]).default("warning"),
  }),
  z.object({
    id: Id,
    type: z.literal("allowed_values"),
    field: z.string(),
    values: z.array(z.string()),
    class_ids: z.array(z.string()).optional(),
    severity: z.enum(["warning", "error"]).default("warning"),
  }),
  z.object({
    id: Id,
    type: z.literal("sum_equals"),
    fields: z.array(z.string()).min(1),
    total: z.string(),
    tolerance: z.number().min(0).default(0.02),
    class_ids: z.array(z.string()).optional(),
    severity: z.enum(["warning", "error"]).default("warning"),
  }),
  z.object({
    id: Id,
    type: z.literal("table_sum_equals"),
    table: z.string(),
    column: z.string(),
    total: z.string(),
    or_totals: z.array(z.string()).default([]),
    tolerance: z.number().min(0).default(0.02),
    class_ids: z.array(z.string()).optional(),
    severity: z.enum(["warning", "error"]).default("warning"),
  }),
  z.object({
    id: Id,
    type: z.literal("date_order"),
    before: z.string(),
    after: z.string(),
    class_ids: z.array(z.string()).optional(),
    severity: z.enum(["warning", "error"]).default("warning"),
  }),
  z.object({
    id: Id,
    type: z.literal("unique_in_transaction"),
    field: z.string(),
    class_ids: z.array(z.string()).optional(),
    severity: z.enum(["warning", "error"]).default("warning"),
  }),
]);
export type ValidationRule = z.infer<typeof ValidationRuleSchema>;
