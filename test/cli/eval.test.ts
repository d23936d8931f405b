/**
 * `docproc eval` on fixtures/eval: four text documents (one file holding an invoice and a letter), each with its
 * expected JSON, plus a file without one. The figures are those of the first run (default project): every field
 * right but the invoice number of northwind-77.txt, printed after the unusual label "Ref. doc.". The HTML report is
 * opened in the real chromium and its charts must be drawn (non-empty SVG marks with a layout size).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";
import { defaultProject } from "../../src/core/project";
import { scoreOutcomes, sameValue } from "../../src/eval/score";
import { REPO, runCli } from "./helpers";
import { removeAll, tempDir } from "../support/temp";

const FOLDER = path.join(REPO, "fixtures/eval");
const dirs: string[] = [];
afterAll(() => removeAll(dirs));

describe("docproc eval", () => {
  test("terminal table: per-field accuracy, confusion matrix, split F1, calibration; the file without expectations is skipped", async () => {
    const r = await runCli(["eval", FOLDER], { timeoutMs: 280_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("4 files, 5 documents");
    expect(r.stdout).toMatch(/invoice_number\s+2\/3\s+66\.7%/);
    expect(r.stdout).toMatch(/total_amount\s+4\/4\s+100\.0%/);
    expect(r.stdout).toMatch(/all fields\s+16\/17\s+94\.1%/);
    expect(r.stdout).toContain("classes: 5/5 = 100.0%");
    expect(r.stdout).toContain("split boundaries: F1 1.000");
    expect(r.stdout).toMatch(/0\.9–1\.0\s+\d+\s+\d+\s+100\.0%/);
    expect(r.stdout).toContain("skipped, no expected .json beside: notes.txt");
  }, 600_000);

  test("--json gives the same figures as data; --min-accuracy fails the run below it and passes at it", async () => {
    const r = await runCli(["eval", FOLDER, "--json", "--min-accuracy", "95%"], { timeoutMs: 280_000 });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("accuracy 94.1% is below --min-accuracy 95.0%");
    const report = JSON.parse(r.stdout);
    expect(report.overall).toEqual({ correct: 16, total: 17, accuracy: 16 / 17 });
    expect(report.fields.find((f: { field: string }) => f.field === "invoice_number").misses).toEqual([
      { file: "northwind-77.txt", expected: "NW/77/B", got: null },
    ]);
    expect(report.classes.labels).toEqual(["invoice", "letter", "receipt"]);
    expect(report.classes.matrix).toEqual([
      [3, 0, 0],
      [0, 1, 0],
      [0, 0, 1],
    ]);
    expect(report.split).toMatchObject({ tp: 1, fp: 0, fn: 0, f1: 1 });
    const buckets = report.calibration.buckets as Array<{ total: number; correct: number }>;
    // 16 values offered (the missed invoice number is "not found", no confidence claim), all right.
    expect(buckets.reduce((s, b) => s + b.total, 0)).toBe(16);
    expect(buckets.reduce((s, b) => s + b.correct, 0)).toBe(16);
    expect(report.calibration.above.total + report.calibration.below.total).toBe(16);
    const pass = await runCli(["eval", FOLDER, "--json", "--min-accuracy", "0.94"], { timeoutMs: 280_000 });
    expect(pass.code).toBe(0);
  }, 600_000);

  test('--compare: a project that knows the label "Ref. doc." beside the default one, with the difference', async () => {
    const dir = tempDir("eval-compare", dirs);
    const fields = structuredClone(defaultProject.fields);
    const inv = fields.invoice!.find((f) => f.id === "invoice_number")!;
    inv.hints.labels = ["ref. doc.", ...inv.hints.labels];
    writeFileSync(path.join(dir, "a.json"), JSON.stringify({}));
    writeFileSync(path.join(dir, "b.json"), JSON.stringify({ fields }));
    const r = await runCli(["eval", FOLDER, "--compare", `${dir}/a.json,${dir}/b.json`], { timeoutMs: 280_000 });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/invoice_number\s+66\.7%\s+100\.0%\s+\+33\.3/);
    expect(r.stdout).toMatch(/all fields\s+94\.1%\s+100\.0%\s+\+5\.9/);
  }, 600_000);

  test("usage errors exit 2 before any document is read", async () => {
    expect((await runCli(["eval", FOLDER, "--min-accuracy", "1.5x"], { timeoutMs: 280_000 })).code).toBe(2);
    expect((await runCli(["eval", FOLDER, "--compare", "only-one.yaml"], { timeoutMs: 280_000 })).code).toBe(2);
    const empty = tempDir("eval-empty", dirs);
    const r = await runCli(["eval", empty], { timeoutMs: 280_000 });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no document with an expected .json");
  }, 600_000);

  test("a broken expected file is that document's error in the report, the others are still scored", async () => {
    const dir = tempDir("eval-broken", dirs);
    writeFileSync(path.join(dir, "a.txt"), readFileSync(path.join(FOLDER, "acme-1001.txt")));
    writeFileSync(path.join(dir, "a.json"), readFileSync(path.join(FOLDER, "acme-1001.json")));
    writeFileSync(path.join(dir, "b.txt"), "INVOICE\nInvoice No: 5\nTotal 10.00\n");
    writeFileSync(path.join(dir, "b.json"), "{ not json");
    const r = await runCli(["eval", dir, "--json"], { timeoutMs: 280_000 });
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout);
    expect(report.errors).toHaveLength(1);
    expect(report.errors[0].file).toBe("b.txt");
    expect(report.overall).toMatchObject({ correct: 7, total: 7 });
  }, 600_000);

  test("the HTML report opens in chromium offline with its three charts drawn", async () => {
    const dir = tempDir("eval-html", dirs);
    const html = path.join(dir, "report.html");
    const r = await runCli(["eval", FOLDER, "--html", html], { timeoutMs: 280_000 });
    expect(r.code).toBe(0);
    const text = readFileSync(html, "utf8");
    expect(text).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);
    const browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
    });
    try {
      const page = await browser.newPage();
      const requests: string[] = [];
      page.on("request", (req) => requests.push(req.url()));
      await page.goto(`file://${html}`);
      const charts = await page.evaluate(() =>
        Array.from(document.querySelectorAll("svg[data-chart]")).map((svg) => {
          const box = svg.getBoundingClientRect();
          const marks = Array.from(svg.querySelectorAll("rect[data-field],rect[data-bucket],rect[data-cell]")).map(
            (m) => m.getBoundingClientRect(),
          );
          return {
            name: svg.getAttribute("data-chart"),
            width: box.width,
            height: box.height,
            marks: marks.length,
            drawn: marks.filter((m) => m.width > 0 && m.height > 0).length,
          };
        }),
      );
      expect(charts.map((c) => c.name)).toEqual(["fields", "confusion", "calibration"]);
      for (const c of charts) expect(c.width * c.height).toBeGreaterThan(10_000);
      const [fields, confusion, calibration] = charts;
      expect(fields).toMatchObject({ marks: 7, drawn: 7 });
      expect(confusion).toMatchObject({ marks: 9, drawn: 9 });
      expect(calibration!.drawn).toBe(5);
      // The invoice_number bar is two thirds of the total_amount bar.
      const widths = await page.evaluate(() =>
        Object.fromEntries(
          Array.from(document.querySelectorAll("rect[data-field]")).map((m) => [
            m.getAttribute("data-field"),
            m.getBoundingClientRect().width,
          ]),
        ),
      );
      expect(widths.invoice_number! / widths.total_amount!).toBeCloseTo(2 / 3, 2);
      expect(await page.locator("h1").textContent()).toContain("docproc evaluation");
      expect(requests.filter((u) => !u.startsWith("file://"))).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 600_000);
});

describe("scoring units", () => {
  test("boundary F1 and value conventions", () => {
    expect(sameValue(126, 126.004, "amount")).toBe(true);
    expect(sameValue("2024-03-05", "2024-03-05T00:00:00Z", "date")).toBe(true);
    expect(sameValue("No.INV 1", "inv1")).toBe(true);
    expect(sameValue(null, null)).toBe(true);
    expect(sameValue(null, "x")).toBe(false);
    const r = scoreOutcomes(
      [
        {
          file: "a",
          expected: [
            { page_numbers: [1, 2], fields: {} },
            { page_numbers: [3], fields: {} },
            { page_numbers: [4], fields: {} },
          ],
          produced: [
            { class_id: "x", page_numbers: [1], fields: {} },
            { class_id: "x", page_numbers: [2, 3], fields: {} },
            { class_id: "x", page_numbers: [4], fields: {} },
          ],
        },
      ],
      0.6,
    );
    // Expected starts {3, 4}, produced {2, 4}: one right, one extra, one missed.
    expect(r.split).toMatchObject({ tp: 1, fp: 1, fn: 1, f1: 0.5 });
  });
  test("files in flight at once change nothing: the same report, in the folder's order, with 1 and with 3 lanes", async () => {
    const { evaluateFolder } = await import("../../src/eval/run");
    const { createOcrEngine } = await import("../../src/core/engines/ocr");
    const ocr = await createOcrEngine({ engine: "wasm", workers: 1 });
    try {
      const one = await evaluateFolder(FOLDER, defaultProject, { ocr });
      const three = await evaluateFolder(FOLDER, defaultProject, { ocr, concurrency: 3 });
      expect(three.outcomes.map((o) => o.file)).toEqual([
        "acme-1001.txt",
        "bakery-receipt.txt",
        "northwind-77.txt",
        "two-documents.txt",
      ]);
      expect(three.outcomes).toEqual(one.outcomes);
      expect(three.report).toEqual(one.report);
    } finally {
      await ocr.close();
    }
  }, 120_000);
});
