/**
 * `docproc watch --retry-failed`: content the ledger recorded as failed is taken again when it is dropped again
 * (after the cause was fixed), instead of being moved straight back to failed/; content that succeeded stays done.
 */
import { afterAll, expect, test } from "bun:test";
import { renameSync } from "node:fs";
import path from "node:path";
import { Ledger } from "../../src/storage/watch/watch-ledger";
import { removeAll, tempDir } from "../batch/helpers";
import { WatchProc, mkdirp, setupWatch } from "../batch/watch-helpers";

const cleanup: string[] = [];
afterAll(() => removeAll(cleanup));

test("ledger: retryFailed re-takes failed content under a new transaction id and leaves done content finished", () => {
  const ledger = Ledger.open(tempDir("ledger-retry", cleanup));
  const bad = "f".repeat(64);
  const good = "d".repeat(64);
  const first = ledger.claim(bad, "/in/a.pdf");
  ledger.finish(bad, { status: "failed", error: "ENOSPC: no space left on device" });
  ledger.claim(good, "/in/b.pdf");
  ledger.finish(good, { status: "done", results_path: "/out/b.json" });
  expect(ledger.claim(bad, "/in/a.pdf").kind).toBe("finished");
  const again = ledger.claim(bad, "/in/a.pdf", { retryFailed: true });
  expect(again.kind).toBe("claimed");
  expect(again.entry.transaction_id).not.toBe(first.entry.transaction_id);
  expect(again.entry.attempts).toBe(2);
  expect(ledger.claim(good, "/in/b.pdf", { retryFailed: true }).kind).toBe("finished");
  ledger.close();
});

test("watch: a failed file moved back is skipped without the flag and taken again with --retry-failed", async () => {
  const s = await setupWatch(cleanup);
  await mkdirp(s.inbox);
  const file = path.join(s.inbox, "scan.pdf");
  await Bun.write(file, "%PDF-1.4\nnot really a pdf");
  const run = async (flags: string[], expected: string) => {
    const w = new WatchProc(s.args(["--stable-ms", "200", "--concurrency", "1", ...flags]));
    try {
      await w.waitFor((ev) => ev.some((e) => e.file === file && e.event === expected), 60_000, expected);
      return w.events.filter((e) => e.file === file).map((e) => e.event);
    } finally {
      expect(await w.stop()).toBe(0);
    }
  };
  expect(await run([], "failed")).toEqual(["taken", "failed"]);
  renameSync(path.join(s.inbox, "failed", "scan.pdf"), file);
  expect(await run([], "skipped")).toEqual(["skipped"]);
  renameSync(path.join(s.inbox, "failed", "scan.pdf"), file);
  expect(await run(["--retry-failed"], "failed")).toEqual(["taken", "failed"]);
}, 180_000);
