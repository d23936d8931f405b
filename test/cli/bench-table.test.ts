import { describe, expect, test } from "bun:test";
import { formatNumber, renderBenchTable } from "../../bench/index";

describe("benchmark table", () => {
  test("computes docproc ÷ reference as the ratio and prints a missing tool as given", () => {
    const out = renderBenchTable([
      { metric: "pdf pages/s", docproc: 150, reference: 600, unit: "pages/s", target: "≥ 1.0×" },
      { metric: "ocr pages/s", docproc: 0.8, reference: "not installed", target: "≥ 0.9×" },
      { metric: "peak RSS", docproc: 617.4, reference: null, ratio: null, unit: "MB", target: "< 1024 MB" },
    ]);
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^metric\s+docproc\s+reference\s+ratio\s+target$/);
    expect(lines[2]).toMatch(/^pdf pages\/s\s+150 pages\/s\s+600 pages\/s\s+0\.25×\s+≥ 1\.0×$/);
    expect(lines[3]).toMatch(/^ocr pages\/s\s+0\.80\s+not installed\s+-\s+≥ 0\.9×$/);
    expect(lines[4]).toMatch(/^peak RSS\s+617 MB\s+-\s+-\s+< 1024 MB$/);
  });

  test("formats numbers with precision that shrinks as they grow", () => {
    expect(formatNumber(0.1234)).toBe("0.12");
    expect(formatNumber(12.345)).toBe("12.3");
    expect(formatNumber(123.4)).toBe("123");
    expect(formatNumber(25112.3)).toBe("25,112");
  });
});
