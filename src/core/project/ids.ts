/** Building blocks of the project settings schema: ids and regular expression sources. */
import { z } from "zod";

/** A regular expression source (JavaScript syntax, matched case-insensitively). */
export const RegexString = z.string().min(1).refine(isRegex, "not a valid regular expression");

export const Id = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]*$/i, "must be letters, digits, _ or - (starting with a letter or digit)");

/** Whether a source compiles as the matchers compile it (case-insensitive, unicode). */
function isRegex(source: string): boolean {
  try {
    new RegExp(source, "iu");
    return true;
  } catch {
    return false;
  }
}
