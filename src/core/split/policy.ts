/** Per-file split policies (spec "Per-file split policies"). */
import { DocprocError } from "../errors";
import { SPLIT_POLICIES, type SplitPolicy } from "../model";

/**
 * Parses a split policy from untrusted input (form field, JSON body, CLI flag).
 * `undefined`, `null` and "" mean the default, `inherit`. Matching ignores case and surrounding whitespace.
 * MUST throw DocprocError("invalid_input") naming the allowed values for anything else (spec rule 8 → HTTP 400).
 */
export function parseSplitPolicy(value: unknown): SplitPolicy {
  if (value === undefined || value === null || value === "") return "inherit";
  if (typeof value === "string") {
    const normalised = value.trim().toLowerCase();
    const found = SPLIT_POLICIES.find((p) => p === normalised);
    if (found) return found;
  }
  const shown = typeof value === "string" ? JSON.stringify(value) : typeof value;
  throw new DocprocError(
    "invalid_input",
    `invalid split_policy ${shown}: allowed values are ${SPLIT_POLICIES.join(", ")}`,
    { stage: "split", details: { field: "split_policy", value, allowed_values: [...SPLIT_POLICIES] } },
  );
}
