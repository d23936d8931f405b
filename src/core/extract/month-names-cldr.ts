/**
 * How the month-name table (month-names.ts) is made: from `Intl` (CLDR, as built into the runtime) rather than typed
 * lists. Long, abbreviated ("ene", "dic.", "ott") and the genitive form a day puts them in ("15 stycznia",
 * "3. března"), each also without accents (OCR and ASCII systems drop them). A name two languages give different
 * months is left out; abbreviations of one or two letters are too short to tell a month from a word.
 *
 * Not imported when documents are read: `scripts/month-names.ts` writes the table, and a test compares it with this
 * derivation, so a runtime whose CLDR data differs fails the test instead of silently reading other dates.
 */

/** Languages whose month names dates are read in: the languages of the default project's labels and OCR data. */
export const DATE_LANGUAGES = ["en", "de", "fr", "nl", "es", "it", "pt", "pl", "sv", "da", "nb", "cs"];

/** Forms printed in practice that CLDR does not list: Austrian "Jänner", "Sept", "Mrz", German "Maerz". */
const EXTRA_NAMES = [
  ["jänner", 1],
  ["sept", 9],
  ["mrz", 3],
  ["maerz", 3],
  ["juil", 7],
] as const;

const foldAccents = (s: string) => s.normalize("NFD").replace(/\p{M}/gu, "");

/** Lower-case month name → month (1-12), in the order the names were found (the table keeps it). */
export function monthNamesFromIntl(): Record<string, number> {
  const out = new Map<string, number>();
  const clash = new Set<string>();
  const add = (name: string, month: number) => {
    for (const n of new Set([name, foldAccents(name)])) {
      if (n.length < 3 || !/^\p{L}+$/u.test(n)) continue;
      if (out.has(n) && out.get(n) !== month) clash.add(n);
      else out.set(n, month);
    }
  };
  for (const lang of DATE_LANGUAGES) {
    const long = new Intl.DateTimeFormat(lang, { month: "long", timeZone: "UTC" });
    const short = new Intl.DateTimeFormat(lang, { month: "short", timeZone: "UTC" });
    const withDay = new Intl.DateTimeFormat(lang, { day: "numeric", month: "long", timeZone: "UTC" });
    for (let m = 0; m < 12; m++) {
      const date = new Date(Date.UTC(2024, m, 15));
      add(long.format(date).toLowerCase(), m + 1);
      add(short.format(date).toLowerCase().replace(/\.$/, ""), m + 1);
      for (const part of withDay.formatToParts(date)) if (part.type === "month") add(part.value.toLowerCase(), m + 1);
    }
  }
  for (const [name, month] of EXTRA_NAMES) add(name, month);
  for (const n of clash) out.delete(n);
  return Object.fromEntries(out);
}

/** The source text of month-names.ts for a table (what scripts/month-names.ts writes). */
export function monthNamesModule(names: Record<string, number>): string {
  const entries = Object.entries(names).map(([name, month]) => `  ${JSON.stringify(name)}: ${month},`);
  return [
    "/**",
    " * Lower-case month names of the date languages → month (1-12), in the order month-names-cldr.ts finds them. Written",
    " * by `bun scripts/month-names.ts` from the runtime's CLDR data; do not edit by hand (a test compares it with the",
    " * derivation). A table rather than the derivation at start-up: its 36 Intl.DateTimeFormat objects cost ~25 ms of",
    " * the main thread in every fresh process, before the first page could be read (issue 18).",
    " */",
    "export const MONTH_NAMES: Readonly<Record<string, number>> = {",
    ...entries,
    "};",
    "",
  ].join("\n");
}
