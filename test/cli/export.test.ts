import { afterAll, describe, expect, test } from "bun:test";
import { copyFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { removeAll, tempDir } from "../support/temp";
import { INBOX, runCli } from "./helpers";

const temps: string[] = [];
afterAll(() => removeAll(temps));

describe("docproc export", () => {
  test("re-runs CSV and JSON exports from a results folder without the original files", async () => {
    const dir = tempDir("export", temps);
    const first = await runCli([
      "process",
      path.join(INBOX, "born-digital-invoice.pdf"),
      "--out",
      path.join(dir, "run"),
      "--json",
    ]);
    expect(first.code).toBe(0);
    const tid = JSON.parse(first.stdout).files[0].transaction_id as string;

    const r = await runCli([
      "export",
      path.join(dir, "run"),
      "--format",
      "csv,json",
      "--out",
      path.join(dir, "again"),
      "--json",
    ]);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.files[0].transaction_id).toBe(tid);
    const csvPath = summary.files[0].exports.find((p: string) => p.endsWith(".csv"));
    const rows = parse(await Bun.file(csvPath).text(), { columns: true }) as Array<Record<string, string>>;
    expect(rows.length).toBeGreaterThanOrEqual(1);
    const rerun = await Bun.file(path.join(dir, "again", `${tid}_data.json`)).json();
    const original = await Bun.file(path.join(dir, "run", `${tid}_data.json`)).json();
    expect(rerun.documents).toEqual(original.documents);
    expect(rerun.pages).toEqual(original.pages);
  }, 90_000);

  test("re-renders PDF and JPG exports from the original file, and fails only those profiles once it is gone", async () => {
    const dir = tempDir("export", temps);
    const original = path.join(dir, "invoice.pdf");
    await copyFile(path.join(INBOX, "born-digital-invoice.pdf"), original);
    expect((await runCli(["process", original, "--out", path.join(dir, "run")])).code).toBe(0);

    const withOriginal = await runCli([
      "export",
      path.join(dir, "run"),
      "--format",
      "pdf,jpg",
      "--out",
      path.join(dir, "x1"),
      "--json",
    ]);
    expect(withOriginal.code).toBe(0);
    const files: string[] = JSON.parse(withOriginal.stdout).files[0].exports;
    expect(files.some((p) => p.endsWith(".pdf"))).toBe(true);
    expect(files.some((p) => p.endsWith(".jpg"))).toBe(true);

    await unlink(original);
    const without = await runCli([
      "export",
      path.join(dir, "run"),
      "--format",
      "pdf,csv",
      "--out",
      path.join(dir, "x2"),
      "--json",
    ]);
    expect(without.code).toBe(1);
    const outcome = JSON.parse(without.stdout).files[0];
    expect(outcome.errors).toHaveLength(1);
    expect(outcome.errors[0]).toStartWith("profile pdf:");
    expect(outcome.exports.some((p: string) => p.endsWith(".csv"))).toBe(true);
  }, 90_000);

  test("refuses a JSON file that is not a results file with exit code 2", async () => {
    const dir = tempDir("export", temps);
    const file = path.join(dir, "x_data.json");
    await writeFile(file, JSON.stringify({ hello: "world" }));
    const r = await runCli(["export", file, "--out", path.join(dir, "o")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("not a docproc results file");
  }, 90_000);
});
