/**
 * searchPlan (src/core/extract/label-index.ts): the label search takes the lines of a long text-layer list, and each
 * line's candidate ranks, from the list's postings. It MUST give exactly the lines for which candidateRanks finds a
 * rank, in their order, each with candidateRanks's ranks; OCR lines and short lists are searched line by line.
 */
import { expect, test } from "bun:test";
import { pageOf } from "./label-rows-page";
import { defaultProject } from "../../../src/core/project";
import { pageLines } from "../../../src/core/extract/lines";
import { candidateRanks, labelIndex, searchPlan } from "../../../src/core/extract/label-index";

// Every label list of the default project (fields and table columns), its labels on lines of their own, joined
// without their spaces ("BILLTO"), inside other text, upper-cased, and lines holding none.
const lists = Object.values(defaultProject.fields)
  .flat()
  .flatMap((f) => [f.hints.labels, ...(f.columns ?? []).map((c) => c.labels)])
  .filter((l) => l.length > 0);
const labels = [...new Set(lists.flat())];
const rows = [
  ...labels,
  ...labels.map((l) => l.replace(/\s+/g, "").toUpperCase()),
  ...labels.map((l, i) => `Acme ${l} ${labels[(i * 7 + 3) % labels.length]}: 12,50 EUR`),
  "Thank you for your business",
  "Musterstraße 12, 12345 Berlin",
];

test("searchPlan gives the lines and ranks candidateRanks gives, for every label list of the default project", () => {
  const lines = pageLines(pageOf(rows));
  expect(lines.length).toBeGreaterThan(1000);
  let ranked = 0;
  for (const list of lists) {
    const index = labelIndex(list);
    const plan = searchPlan(lines, index)!;
    const expected = lines.filter((l) => candidateRanks(l, index).length > 0);
    expect(plan.lines).toEqual(expected);
    expect(plan.ranks).toEqual(expected.map((l) => candidateRanks(l, index)));
    ranked += plan.lines.length;
  }
  expect(ranked).toBeGreaterThan(lines.length);
});

test("short lists and OCR lines are searched line by line", () => {
  const index = labelIndex(lists[0]!);
  expect(searchPlan(pageLines(pageOf(rows.slice(0, 10))), index)).toBeNull();
  expect(searchPlan(pageLines(pageOf(rows, "ocr")), index)).toBeNull();
});
