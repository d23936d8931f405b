/** The `workflow` slice of the project settings: built-in steps, Review nodes and Notification nodes, in order. */
import { z } from "zod";
import { Id } from "./ids";
import { NotificationActivitySchema } from "./notify";

export const BUILTIN_STEPS = ["split", "classify", "extract", "validate", "review", "export"] as const;
export const WorkflowStepSchema = z.discriminatedUnion("type", [
  z.object({
    type: z.enum(["split", "classify", "extract", "validate", "export"]),
    id: Id.optional(),
    enabled: z.boolean().default(true),
  }),
  /**
   * Human review (docs/review.md): on the server an enabled node whose `when` holds pauses the run in
   * `awaiting_input`; the CLI never pauses. `classes` limits the check to those class ids.
   */
  z.object({
    type: z.literal("review"),
    id: Id.optional(),
    enabled: z.boolean().default(true),
    when: z.enum(["review_required", "validation_errors", "always", "never"]).default("review_required"),
    classes: z.array(z.string().min(1)).optional(),
    instructions: z.string().optional(),
    timeout_hours: z
      .number()
      .positive()
      .max(24 * 365)
      .default(24),
    timeout_action: z.enum(["continue", "fail"]).default("continue"),
  }),
  /**
   * A Notification activity. `activity: null` is an unconfigured node: it sends nothing until a webhook_url is set
   * (new projects carry one, enabled, after Export, so setting `activity.webhook_url` is all it needs).
   */
  z.object({
    type: z.literal("notification"),
    id: Id,
    name: z.string().optional(),
    enabled: z.boolean().default(true),
    activity: NotificationActivitySchema.nullable().default(null),
  }),
]);
