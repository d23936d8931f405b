/**
 * The date of a till receipt whose date was not found, read past what OCR does to a till's date marks:
 * - doubled marks ("15.. JUN 2022" for "15. JUN 2022", "24//09/2025");
 * - marks read as the other mark ("11.06,2021": a dot read as a comma);
 * - slashes read as 7 or 1 in a date set beside its time of day ("08704717 10:55" for "08/04/17 10:55").
 * The head is looked at first (where most tills print the date), then the whole first page (European tills print
 * it at the foot). A repaired line must give a real calendar date in the document's date order.
 */
import type { Candidate } from "./candidate";
import type { Line } from "./lines";
import { type DateOrder, findDates } from "./normalize";

/** Lines of the head looked at first. */
const HEAD = 10;

const repairs: Array<{ why: string; fix: (text: string) => string }> = [
  { why: "doubled marks", fix: (t) => t.replace(/([.,/-])\1+/g, "$1") },
  {
    why: "a dot read as a comma",
    fix: (t) => t.replace(/(?<![\d.,])(\d{1,2})[.,](\d{1,2})[.,](\d{4}|\d{2})(?![\d.,])/g, "$1.$2.$3"),
  },
  {
    why: "slashes read as 7 or 1",
    fix: (t) => t.replace(/(?<!\d)(\d{2})[17](\d{2})[17](\d{2}|\d{4})(?=\s+\d{1,2}:\d{2})/g, "$1/$2/$3"),
  },
];

export function misreadDate(lines: Line[], dateOrder: DateOrder): Candidate | undefined {
  const first = lines[0]?.page;
  const page = lines.filter((l) => l.page === first);
  return (
    dateIn(page.slice(0, HEAD), dateOrder, "the receipt's head") ?? dateIn(page.slice(HEAD), dateOrder, "the receipt")
  );
}

function dateIn(lines: Line[], dateOrder: DateOrder, where: string): Candidate | undefined {
  for (const line of lines) {
    for (const { why, fix } of repairs) {
      const date = findDates(fix(line.text), dateOrder).find((d) => d.iso);
      if (!date) continue;
      return {
        match: { value: date.iso!, line, start: 0, end: line.text.length, strength: 0.5 },
        score: 0.5,
        reasoning: `date in ${where}, read past ${why} (page ${line.page.page_number}, line ${line.index + 1})`,
      };
    }
  }
  return undefined;
}
