import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import path from "node:path";
import { Ledger } from "../../src/storage/watch/watch-ledger";
import { perFileProject, removeAll, resultsFiles, runCli, spawnCli, tempDir, textPdf } from "./helpers";
import { waitFor } from "../support/wait";

const cleanup: string[] = [];
afterAll(() => removeAll(cleanup));

let project = "";
beforeAll(async () => {
  project = await perFileProject(tempDir("cron-project", cleanup));
});

async function inbox(n: number, tag: string): Promise<string> {
  const dir = tempDir("cron-in", cleanup);
  for (let i = 0; i < n; i++)
    await Bun.write(path.join(dir, `doc-${i}.pdf`), await textPdf(`Invoice ${tag}-${i} total ${100 + i} EUR`));
  return dir;
}

describe("process --data (cron-safe batches)", () => {
  test("a second run on the same folder processes nothing; --force redoes everything", async () => {
    const dir = await inbox(3, "twice");
    // A copy of one file under another name: the same content is processed once.
    await Bun.write(path.join(dir, "zz-copy-of-doc-0.pdf"), Bun.file(path.join(dir, "doc-0.pdf")));
    const out = tempDir("cron-out", cleanup);
    const data = tempDir("cron-data", cleanup);
    const args = ["process", dir, "--out", out, "--data", data, "--json", "--project", project];

    const first = await runCli(args);
    expect(first.code).toBe(0);
    const s1 = JSON.parse(first.stdout);
    expect(s1.total).toBe(3);
    expect(s1.succeeded).toBe(3);
    expect(s1.already_processed).toEqual([
      expect.objectContaining({ file: path.join(dir, "zz-copy-of-doc-0.pdf"), reason: "duplicate" }),
    ]);
    expect(resultsFiles(out)).toHaveLength(3);
    // The summary reports the transaction id the outputs were written under.
    for (const f of s1.files) expect(path.basename(f.results_file)).toBe(`${f.transaction_id}_data.json`);

    const second = await runCli(args);
    expect(second.code).toBe(0);
    const s2 = JSON.parse(second.stdout);
    expect(s2.total).toBe(0);
    expect(s2.already_processed.filter((s: { reason: string }) => s.reason === "already_processed")).toHaveLength(4);
    expect(resultsFiles(out)).toHaveLength(3);

    const forced = await runCli([...args, "--force"]);
    expect(forced.code).toBe(0);
    expect(JSON.parse(forced.stdout).total).toBe(3);
    expect(resultsFiles(out)).toHaveLength(6);
  }, 120_000);

  test("two overlapping runs: one processes, the other refuses with exit code 3 and says who holds the lock", async () => {
    const dir = await inbox(6, "overlap");
    // A scanned page keeps the first run busy for seconds (OCR); born-digital pages alone finished before the second
    // run had started on an idle machine, and both exited 0.
    await Bun.write(
      path.join(dir, "doc-1b-scan.pdf"),
      Bun.file(path.resolve(import.meta.dir, "../../fixtures/inbox/scanned-invoice.pdf")),
    );
    const out = tempDir("cron-out", cleanup);
    const data = tempDir("cron-data", cleanup);
    const args = ["process", dir, "--out", out, "--data", data, "--json"];
    const first = runCli(args);
    // The second starts once the first holds the lock, as an overlapping cron run would.
    await waitFor("the first run to hold the lock", () => existsSync(path.join(data, "lock-owner.json")));
    const [a, b] = await Promise.all([first, runCli(args)]);
    const codes = [a.code, b.code].sort();
    expect(codes).toEqual([0, 3]);
    const refused = a.code === 3 ? a : b;
    expect(refused.stderr).toMatch(/data directory .* is in use by docproc process \(pid \d+/);
    expect(refused.stdout).toBe("");
    expect(resultsFiles(out)).toHaveLength(7);
  }, 120_000);

  test("a run killed with SIGKILL mid-file: the next run re-takes that file once and redoes nothing else", async () => {
    const dir = await inbox(3, "killed");
    const scanned = path.join(dir, "doc-1b-scan.pdf"); // sorted between doc-1 and doc-2; OCR keeps it in hand
    await Bun.write(scanned, Bun.file(path.resolve(import.meta.dir, "../../fixtures/inbox/scanned-invoice.pdf")));
    const out = tempDir("cron-out", cleanup);
    const data = tempDir("cron-data", cleanup);
    const args = ["process", dir, "--out", out, "--data", data, "--json", "--project", project, "--concurrency", "1"];
    const killed = spawnCli(args);
    // Wait until the scanned file is claimed (its ledger row is `processing`), then kill -9.
    const claimedNow = () => {
      if (!existsSync(path.join(data, "ledger.sqlite"))) return undefined;
      const ledger = Ledger.open(data);
      const row = ledger.entries().find((e) => e.status === "processing" && e.source_path === scanned);
      ledger.close();
      return row;
    };
    const claimed = await waitFor("the scan claimed", claimedNow, { everyMs: 50 }).catch(() => undefined);
    expect(claimed).toBeDefined();
    killed.kill("SIGKILL");
    await killed.exited;

    const rerun = await runCli(args);
    expect(rerun.code).toBe(0);
    const summary = JSON.parse(rerun.stdout);
    // doc-0 and doc-1 were done before the kill; the scanned file and doc-2 are processed now.
    expect(summary.files.map((f: { file: string }) => path.basename(f.file))).toEqual(["doc-1b-scan.pdf", "doc-2.pdf"]);
    expect(summary.files[0].transaction_id).toBe(claimed!.transaction_id);
    expect(resultsFiles(out)).toHaveLength(4);
    const ledger = Ledger.open(data);
    const entries = ledger.entries();
    ledger.close();
    expect(entries.map((e) => e.status)).toEqual(["done", "done", "done", "done"]);
    expect(entries.find((e) => e.source_path === scanned)?.attempts).toBe(2);
  }, 180_000);

  test("plain text output mentions what the ledger skipped", async () => {
    const dir = await inbox(1, "text");
    const out = tempDir("cron-out", cleanup);
    const data = tempDir("cron-data", cleanup);
    expect((await runCli(["process", dir, "--out", out, "--data", data, "--project", project])).code).toBe(0);
    const again = await runCli(["process", dir, "--out", out, "--data", data, "--project", project]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("Skipped: 1 already processed");
  }, 60_000);

  test("--force without --data is a usage error", async () => {
    const dir = await inbox(1, "force");
    const r = await runCli(["process", dir, "--force"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--data");
  });
});
