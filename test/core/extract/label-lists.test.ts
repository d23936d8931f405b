/**
 * listsMayHold (src/core/extract/label-index.ts): the table header search asks, per line, how many columns may have a
 * label there; it MUST count exactly the lists for which mayHoldLabel says yes.
 */
import { expect, test } from "bun:test";
import { pageOf } from "./label-rows-page";
import { defaultProject } from "../../../src/core/project";
import { pageLines } from "../../../src/core/extract/lines";
import { infoOf, listsMayHold, mayHoldLabel } from "../../../src/core/extract/label-index";
import { labelRegex } from "../../../src/core/extract/label-regex";

const columns = defaultProject.fields.invoice!.find((f) => f.type === "table")!.columns!;
const lists = columns.map((c) => c.labels);
const allLabels = lists.flat();
// Every label alone, pairs of labels, labels inside other text, accents, non-word labels, and lines holding none.
const rows = [
  ...allLabels,
  ...allLabels.map((l, i) => `${l} ${allLabels[(i * 7 + 3) % allLabels.length]}`),
  ...allLabels.map((l) => `Total ${l.toUpperCase()}: 12,50 EUR`),
  "Pos. Bezeichnung Menge Einzelpreis Gesamt",
  "# Item Qty Unit price Amount",
  "N° Désignation Qté Prix unitaire Montant",
  "Thank you for your business",
  "Invoice date 12.03.2024",
  "Seite 1 von 2",
];

test("listsMayHold counts the lists mayHoldLabel says yes to, up to the number asked", () => {
  const lines = pageLines(pageOf(rows));
  expect(lines.length).toBeGreaterThan(allLabels.length);
  let some = 0;
  for (const line of lines) {
    const yes = lists.filter((labels) => mayHoldLabel(line, labels)).length;
    if (yes >= 2) some++;
    for (const enough of [1, 2, 3, lists.length]) expect(listsMayHold(line, lists, enough)).toBe(Math.min(enough, yes));
  }
  expect(some).toBeGreaterThan(10); // the rows above do name several columns at once
});

test("more than 30 lists, and OCR lines, are counted the same way", () => {
  const many = Array.from({ length: 33 }, (_, i) => lists[i % lists.length]!);
  for (const line of pageLines(pageOf(rows.slice(0, 40)))) {
    const yes = many.filter((labels) => mayHoldLabel(line, labels)).length;
    expect(listsMayHold(line, many, 40)).toBe(yes);
  }
  for (const line of pageLines(pageOf(["nothing to see", "Qty Amount"], "ocr")))
    expect(listsMayHold(line, lists, 2)).toBe(2);
});

test("a line a label's regex matches is never passed over, and a label not starting with a word needs its longest word", () => {
  const labels = [
    ...new Set(
      Object.values(defaultProject.fields)
        .flat()
        .flatMap((f) => [...f.hints.labels, ...(f.columns ?? []).flatMap((c) => c.labels)]),
    ),
  ];
  const texts = labels.flatMap((l) => {
    const bare = l.replace(/^\^/, "");
    return [bare, `Total ${bare.toUpperCase()}: 12,50 EUR`, `${bare.replace(/ /g, "  ")} 4711`];
  });
  const lines = pageLines(pageOf(texts));
  let matched = 0;
  for (const line of lines) {
    const folded = infoOf(line).folded;
    for (const label of labels) {
      if (!labelRegex(label).test(folded)) continue;
      matched++;
      expect(mayHoldLabel(line, [label])).toBe(true);
    }
  }
  expect(matched).toBeGreaterThan(labels.length);
  // "n. fattura" was looked for as "n": nearly every line passed.
  const [other] = pageLines(pageOf(["Nome del cliente: Anna Rossi"]));
  const [fattura] = pageLines(pageOf(["N. fattura: 2024/118"]));
  expect(mayHoldLabel(other!, ["n. fattura"])).toBe(false);
  expect(mayHoldLabel(fattura!, ["n. fattura"])).toBe(true);
});
