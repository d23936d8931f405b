import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Ledger } from "../../src/storage/watch/watch-ledger";
import { removeAll, resultsFiles, textPdf } from "./helpers";
import { WatchProc, mkdirp, setupWatch } from "./watch-helpers";

const cleanup: string[] = [];
afterAll(() => removeAll(cleanup));

for (const mode of ["inotify", "polling"] as const) {
  const flags = mode === "polling" ? ["--poll"] : [];

  describe(`watch (${mode})`, () => {
    test("a file written slowly in chunks is taken only after it is complete", async () => {
      const s = await setupWatch(cleanup, { defaultProject: true });
      await mkdirp(s.inbox);
      const w = new WatchProc(s.args(["--stable-ms", "800", "--concurrency", "1", ...flags]));
      try {
        await w.waitFor((ev) => ev.some((e) => e.event === "watching"), 30_000, "watching");
        const bytes = await textPdf(`Slowly written invoice ${mode} total 42 EUR`);
        const file = path.join(s.inbox, "acme", "slow.pdf");
        await mkdirp(path.dirname(file));
        const writer = Bun.file(file).writer();
        const chunks = 8;
        const step = Math.ceil(bytes.length / chunks);
        for (let i = 0; i < chunks; i++) {
          writer.write(bytes.subarray(i * step, (i + 1) * step));
          await writer.flush();
          await Bun.sleep(300); // each pause is shorter than --stable-ms
        }
        await writer.end();
        const finished = Date.now();
        await w.waitFor((ev) => ev.some((e) => e.event === "done" || e.event === "failed"), 60_000, "outcome");
        const taken = w.of("taken");
        expect(taken).toHaveLength(1);
        expect(Date.parse(taken[0]!.time)).toBeGreaterThanOrEqual(finished);
        expect(w.of("failed")).toHaveLength(0);
        const done = w.of("done")[0]!;
        expect(done.moved_to).toBe(path.join(s.inbox, "processed", "acme", "slow.pdf"));
        // Subfolders become metadata.
        const results = JSON.parse(readFileSync(String(done.results_file), "utf8"));
        expect(JSON.stringify(results)).toContain('"folder":"acme"');
      } finally {
        expect(await w.stop()).toBe(0);
      }
    }, 120_000);

    test("the same content dropped twice is processed once; a broken file goes to failed/ with its reason", async () => {
      const s = await setupWatch(cleanup);
      await mkdirp(s.inbox);
      const w = new WatchProc(s.args(["--stable-ms", "300", ...flags]));
      try {
        await w.waitFor((ev) => ev.some((e) => e.event === "watching"), 30_000, "watching");
        const bytes = await textPdf(`Duplicate invoice ${mode}`);
        await Bun.write(path.join(s.inbox, "first.pdf"), bytes);
        await w.waitFor((ev) => ev.some((e) => e.event === "done"), 60_000, "first done");
        await Bun.write(path.join(s.inbox, "second.pdf"), bytes);
        await Bun.write(path.join(s.inbox, "broken.pdf"), "%PDF-1.4 this is not really a PDF");
        await w.waitFor(
          (ev) => ev.some((e) => e.event === "skipped") && ev.some((e) => e.event === "failed"),
          60_000,
          "skip + fail",
        );
        expect(w.of("done")).toHaveLength(1);
        expect(w.of("skipped")[0]).toMatchObject({
          file: path.join(s.inbox, "second.pdf"),
          reason: "already_processed",
        });
        expect(resultsFiles(s.out)).toHaveLength(1);
        expect(readdirSync(path.join(s.inbox, "processed")).sort()).toEqual(["first.pdf", "second.pdf"]);
        const note = readFileSync(path.join(s.inbox, "failed", "broken.pdf.error.txt"), "utf8");
        expect(note.length).toBeGreaterThan(10);
      } finally {
        expect(await w.stop()).toBe(0);
      }
    }, 120_000);
  });
}

describe("watch under load and after kill -9", () => {
  test("200 files dropped at once are all processed exactly once", async () => {
    const s = await setupWatch(cleanup);
    await mkdirp(s.inbox);
    const w = new WatchProc(s.args(["--stable-ms", "300"]));
    try {
      await w.waitFor((ev) => ev.some((e) => e.event === "watching"), 30_000, "watching");
      const pdfs = await Promise.all(
        Array.from({ length: 200 }, (_, i) => textPdf(`Bulk invoice ${i} total ${i + 10} EUR`)),
      );
      await Promise.all(pdfs.map((b, i) => Bun.write(path.join(s.inbox, `bulk-${String(i).padStart(3, "0")}.pdf`), b)));
      await w.waitFor(
        (ev) => ev.filter((e) => e.event === "done" || e.event === "failed").length >= 200,
        300_000,
        "200 outcomes",
      );
      await Bun.sleep(1000); // anything processed twice would show up now
      const done = w.of("done");
      expect(done).toHaveLength(200);
      expect(new Set(done.map((e) => e.file)).size).toBe(200);
      expect(new Set(done.map((e) => e.transaction_id)).size).toBe(200);
      expect(w.of("taken")).toHaveLength(200);
      expect(resultsFiles(s.out)).toHaveLength(200);
      expect(readdirSync(path.join(s.inbox, "processed"))).toHaveLength(200);
    } finally {
      expect(await w.stop()).toBe(0);
    }
  }, 360_000);

  test("kill -9 in the middle, then a restart: every file processed exactly once", async () => {
    const s = await setupWatch(cleanup);
    await mkdirp(s.inbox);
    const n = 21;
    for (let i = 0; i < n - 1; i++)
      await Bun.write(
        path.join(s.inbox, `k-${String(i).padStart(2, "0")}.pdf`),
        await textPdf(`Killed run invoice ${i}`),
      );
    // A scanned page in the middle: OCR keeps it in hand for seconds, so the kill lands mid-file for certain.
    const scan = path.join(s.inbox, "k-10-scan.pdf");
    await Bun.write(scan, Bun.file(path.resolve(import.meta.dir, "../../fixtures/inbox/scanned-invoice.pdf")));
    const first = new WatchProc(s.args(["--stable-ms", "200", "--concurrency", "1"]));
    await first.waitFor((ev) => ev.some((e) => e.event === "taken" && e.file === scan), 120_000, "scan taken");
    await first.kill9();
    const scanTx = first.of("taken").find((e) => e.file === scan)!.transaction_id;
    const doneBefore = new Set(first.of("done").map((e) => e.transaction_id));
    // How many files finished before the kill depends on the order the watcher saw them and on when their "done"
    // lines were read; what matters is that the scan was in hand, unfinished, when the process died.
    expect(doneBefore.has(scanTx)).toBe(false);

    const second = new WatchProc(s.args(["--stable-ms", "200", "--concurrency", "2"]));
    try {
      await second.waitFor(
        () =>
          readdirSync(s.inbox).filter((f) => f.endsWith(".pdf")).length === 0 &&
          second.of("taken").length === second.of("done").length,
        180_000,
        "inbox drained",
      );
      await Bun.sleep(500);
      const doneAfter = second.of("done").map((e) => e.transaction_id);
      // Files in hand at the kill are re-taken (same transaction id, so their outputs are overwritten, not doubled).
      const interrupted = first
        .of("taken")
        .filter((t) => !doneBefore.has(t.transaction_id))
        .map((t) => t.transaction_id);
      const retaken = second
        .of("taken")
        .filter((t) => t.retaken)
        .map((t) => t.transaction_id);
      // (a file claimed just before the kill may not have had its "taken" line read yet, hence "contain", not "equal").
      const skippedIds = new Set(second.of("skipped").map((k) => k.transaction_id));
      for (const id of interrupted) expect(retaken.includes(id!) || skippedIds.has(id)).toBe(true);
      for (const id of retaken) expect(doneBefore.has(id)).toBe(false);
      expect(second.of("taken").find((e) => e.file === scan)).toMatchObject({ transaction_id: scanTx, retaken: true });
      // Nothing finished by the killed run runs again.
      expect(doneAfter.filter((id) => doneBefore.has(id))).toEqual([]);
      // Interrupted files were re-taken under their transaction id: one results file per content, no more.
      expect(resultsFiles(s.out)).toHaveLength(n);
      expect(readdirSync(path.join(s.inbox, "processed"))).toHaveLength(n);
    } finally {
      expect(await second.stop()).toBe(0);
    }
    const ledger = Ledger.open(s.data);
    const entries = ledger.entries();
    ledger.close();
    expect(entries).toHaveLength(n);
    expect(entries.every((e) => e.status === "done" && existsSync(String(e.results_path)))).toBe(true);
    expect(entries.find((e) => e.transaction_id === scanTx)?.attempts).toBe(2);
  }, 360_000);

  test("a second watch on the same data directory is refused with exit code 3", async () => {
    const s = await setupWatch(cleanup);
    await mkdirp(s.inbox);
    const a = new WatchProc(s.args(["--stable-ms", "300"]));
    try {
      await a.waitFor((ev) => ev.some((e) => e.event === "watching"), 30_000, "watching");
      const b = new WatchProc(s.args(["--stable-ms", "300"]));
      expect(await b.proc.exited).toBe(3);
    } finally {
      expect(await a.stop()).toBe(0);
    }
  }, 60_000);
});
