import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import path from "node:path";
import { MONTH_NAMES } from "../../../src/core/extract/month-names";
import { monthNamesFromIntl, monthNamesModule } from "../../../src/core/extract/month-names-cldr";
import { normalizeDate } from "../../../src/core/extract/normalize";

describe("month-name table", () => {
  test("is the CLDR derivation of this runtime, entry for entry and in the same order", () => {
    // Order matters: the date regex tries names of equal length in table order.
    expect(Object.entries(MONTH_NAMES)).toEqual(Object.entries(monthNamesFromIntl()));
  });

  test("is the file scripts/month-names.ts writes (not edited by hand)", () => {
    const file = readFileSync(path.resolve(import.meta.dir, "../../../src/core/extract/month-names.ts"), "utf8");
    expect(file).toBe(monthNamesModule(monthNamesFromIntl()));
  });

  test("holds long, short, genitive and accent-free forms, and no clashing or too-short name", () => {
    expect(MONTH_NAMES["march"]).toBe(3);
    expect(MONTH_NAMES["dic"]).toBe(12);
    expect(MONTH_NAMES["stycznia"]).toBe(1);
    expect(MONTH_NAMES["brezna"]).toBe(3);
    expect(MONTH_NAMES["jänner"]).toBe(1);
    expect(Object.keys(MONTH_NAMES).every((n) => n.length >= 3 && /^\p{L}+$/u.test(n))).toBe(true);
    // "mar" is March in most languages; a name two languages give different months would be dropped.
    expect(MONTH_NAMES["mar"]).toBe(3);
  });

  test("dates with month names read through the table", () => {
    expect(normalizeDate("3. března 2024")).toBe("2024-03-03");
    expect(normalizeDate("15 stycznia 2023")).toBe("2023-01-15");
    expect(normalizeDate("12-Dic-24")).toBe("2024-12-12");
  });
});
