import { afterAll, describe, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { INBOX, runCli } from "./helpers";

const temps: string[] = [];
afterAll(async () => {
  for (const d of temps) await rm(d, { recursive: true, force: true });
});

describe("docproc export", () => {
  test("re-runs CSV and JSON exports from a results folder without the original files", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "docproc-export-"));
    temps.push(dir);
    const first = await runCli(["process", path.join(INBOX, "born-digital-invoice.pdf"), "--out", path.join(dir, "run"), "--json"]);
    expect(first.code).toBe(0);
    const tid = JSON.parse(first.stdout).files[0].transaction_id as string;

    const r = await runCli(["export", path.join(dir, "run"), "--format", "csv,json", "--out", path.join(dir, "again"), "--json"]);
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

  test("refuses a JSON file that is not a results file with exit code 2", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "docproc-export-"));
    temps.push(dir);
    const file = path.join(dir, "x_data.json");
    await writeFile(file, JSON.stringify({ hello: "world" }));
    const r = await runCli(["export", file, "--out", path.join(dir, "o")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("not a docproc results file");
  }, 90_000);
});
