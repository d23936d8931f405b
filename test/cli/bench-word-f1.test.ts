import { expect, test } from "bun:test";
import { wordF1 } from "../../bench/scan-accuracy";

test("word F1 of the scanned-PDF rows: a bag of words, case and surrounding punctuation ignored", () => {
  expect(wordF1("Invoice 42, total: 10.50 EUR", "invoice 42 TOTAL 10.50 eur")).toBe(1);
  expect(wordF1("alpha beta", "gamma delta")).toBe(0);
  expect(wordF1("", "anything")).toBe(0);
  // 2 of 4 true words read, 2 of 3 read words right: F1 = 2·2 / (4 + 3).
  expect(wordF1("one two three four", "one two five")).toBeCloseTo(4 / 7, 10);
  // A word read twice counts once against a single true occurrence.
  expect(wordF1("net net gross", "net net net")).toBeCloseTo(4 / 6, 10);
});
