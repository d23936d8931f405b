/** "Did you mean …?" for the CLI: the generic matching (src/core/suggest.ts) and oclif's unknown-flag message. */
export { closest, didYouMean, editDistance } from "../core/suggest";

/** The unknown flag of an oclif "Nonexistent flag" parse error (`--foo` or `--foo=1`), else null. */
export function unknownFlagOf(message: string): string | null {
  const m = /Nonexistent flags?: (--?[\w-]+)/.exec(message);
  return m ? m[1].replace(/^-+/, "") : null;
}
