import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Ledger } from "../../src/batch/ledger";
import { perFileProject, removeAll, resultsFiles, tempDir, textPdf } from "./helpers";
import { WatchProc } from "./watch-helpers";

const cleanup: string[] = [];
afterAll(() => removeAll(cleanup));

async function setup(opts: { defaultProject?: boolean } = {}) {
  const root = tempDir("watch", cleanup);
  const inbox = path.join(root, "inbox");
  const out = path.join(root, "out");
  const data = path.join(root, "data");
  const project = opts.defaultProject ? [] : ["--project", await perFileProject(root)];
  return { root, inbox, out, data, args: (extra: string[] = []) => [inbox, "--out", out, "--data", data, ...project, ...extra] };
}

async function mkdirp(dir: string) {
  await Bun.write(path.join(dir, ".keep"), "");
}

for (const mode of ["inotify", "polling"] as const) {
  const flags = mode === "polling" ? ["--poll"] : [];

  describe(`watch (${mode})`, () => {
    test("a file written slowly in chunks is taken only after it is complete", async () => {
      const s = await setup({ defaultProject: true });
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
      const s = await setup();
      await mkdirp(s.inbox);
      const w = new WatchProc(s.args(["--stable-ms", "300", ...flags]));
      try {
        await w.waitFor((ev) => ev.some((e) => e.event === "watching"), 30_000, "watching");
        const bytes = await textPdf(`Duplicate invoice ${mode}`);
        await Bun.write(path.join(s.inbox, "first.pdf"), bytes);
        await w.waitFor((ev) => ev.some((e) => e.event === "done"), 60_000, "first done");
        await Bun.write(path.join(s.inbox, "second.pdf"), bytes);
        await Bun.write(path.join(s.inbox, "broken.pdf"), "%PDF-1.4 this is not really a PDF");
        await w.waitFor((ev) => ev.some((e) => e.event === "skipped") && ev.some((e) => e.event === "failed"), 60_000, "skip + fail");
        expect(w.of("done")).toHaveLength(1);
        expect(w.of("skipped")[0]).toMatchObject({ file: path.join(s.inbox, "second.pdf"), reason: "already_processed" });
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
    const s = await setup();
    await mkdirp(s.inbox);
    const w = new WatchProc(s.args(["--stable-ms", "300"]));
    try {
      await w.waitFor((ev) => ev.some((e) => e.event === "watching"), 30_000, "watching");
      const pdfs = await Promise.all(Array.from({ length: 200 }, (_, i) => textPdf(`Bulk invoice ${i} total ${i + 10} EUR`)));
      await Promise.all(pdfs.map((b, i) => Bun.write(path.join(s.inbox, `bulk-${String(i).padStart(3, "0")}.pdf`), b)));
      await w.waitFor((ev) => ev.filter((e) => e.event === "done" || e.event === "failed").length >= 200, 300_000, "200 outcomes");
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
    const s = await setup();
    await mkdirp(s.inbox);
    const n = 21;
    for (let i = 0; i < n - 1; i++) await Bun.write(path.join(s.inbox, `k-${String(i).padStart(2, "0")}.pdf`), await textPdf(`Killed run invoice ${i}`));
    // A scanned page in the middle: OCR keeps it in hand for seconds, so the kill lands mid-file for certain.
    const scan = path.join(s.inbox, "k-10-scan.pdf");
    await Bun.write(scan, Bun.file(path.resolve(import.meta.dir, "../../fixtures/inbox/scanned-invoice.pdf")));
    const first = new WatchProc(s.args(["--stable-ms", "200", "--concurrency", "1"]));
    await first.waitFor((ev) => ev.some((e) => e.event === "taken" && e.file === scan), 120_000, "scan taken");
    await first.kill9();
    const scanTx = first.of("taken").find((e) => e.file === scan)!.transaction_id;
    const doneBefore = new Set(first.of("done").map((e) => e.transaction_id));
    expect(doneBefore.size).toBeGreaterThanOrEqual(10);
    expect(doneBefore.has(scanTx)).toBe(false);

    const second = new WatchProc(s.args(["--stable-ms", "200", "--concurrency", "2"]));
    try {
      await second.waitFor(() => readdirSync(s.inbox).filter((f) => f.endsWith(".pdf")).length === 0 && second.of("taken").length === second.of("done").length, 180_000, "inbox drained");
      await Bun.sleep(500);
      const doneAfter = second.of("done").map((e) => e.transaction_id);
      // Files in hand at the kill are re-taken (same transaction id, so their outputs are overwritten, not doubled).
      const interrupted = first.of("taken").filter((t) => !doneBefore.has(t.transaction_id)).map((t) => t.transaction_id);
      const retaken = second.of("taken").filter((t) => t.retaken).map((t) => t.transaction_id);
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
    const s = await setup();
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

describe("watch notifications", () => {
  test("a project's webhook receives step_reached for each file taken, signed with its secret", async () => {
    const received: Array<{ body: Record<string, unknown>; headers: Headers }> = [];
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: async (req) => {
        received.push({ body: (await req.json()) as Record<string, unknown>, headers: req.headers });
        return new Response("ok");
      },
    });
    const s = await setup();
    await mkdirp(s.inbox);
    const { defaultProject } = await import("../../src/core/project");
    const projectFile = path.join(s.root, "notify-project.json");
    await Bun.write(
      projectFile,
      JSON.stringify({
        ...JSON.parse(JSON.stringify(defaultProject)),
        split: { mode: "per_file" },
        workflow: [
          { type: "export" },
          { type: "notification", id: "hook", activity: { webhook_url: `http://127.0.0.1:${server.port}/hook`, hmac_secret: "s3cret", retry_max_attempts: 1, api_base_url: "http://127.0.0.1:8080" } },
        ],
      }),
    );
    await Bun.write(path.join(s.inbox, "n.pdf"), await textPdf("Notified invoice total 5 EUR"));
    const w = new WatchProc([s.inbox, "--out", s.out, "--data", s.data, "--project", projectFile, "--stable-ms", "200"], { env: { DOCPROC_WEBHOOK_ALLOW: "127.0.0.0/8" } });
    try {
      await w.waitFor((ev) => ev.some((e) => e.event === "done" || e.event === "failed"), 60_000, "outcome");
      const done = w.of("done")[0]!;
      expect(done.warnings).toEqual([]);
      expect(received).toHaveLength(1);
      expect(JSON.stringify(received[0]!.body)).toContain(String(done.transaction_id));
      expect(received[0]!.headers.get("x-service-signature")).toBeTruthy();
    } finally {
      expect(await w.stop()).toBe(0);
      server.stop(true);
    }
  }, 90_000);
});

describe("watch SIGTERM", () => {
  test("finishes the file in hand, starts no other, exits 0; the next start takes the rest", async () => {
    const s = await setup();
    await mkdirp(s.inbox);
    const scanned = path.resolve(import.meta.dir, "../../fixtures/inbox/scanned-invoice.pdf");
    await Bun.write(path.join(s.inbox, "a-scanned.pdf"), Bun.file(scanned)); // OCR: seconds of work
    await Bun.write(path.join(s.inbox, "b-text.pdf"), await textPdf("Waits for the next start"));
    const args = s.args(["--stable-ms", "200", "--concurrency", "1"]);
    const w = new WatchProc(args);
    await w.waitFor((ev) => ev.some((e) => e.event === "taken"), 60_000, "taken");
    const inHand = w.of("taken")[0]!.file;
    w.proc.kill("SIGTERM");
    expect(await w.proc.exited).toBe(0);
    expect(w.of("taken")).toHaveLength(1);
    expect(w.of("done").map((e) => e.file)).toEqual([inHand]);
    expect(w.events.at(-1)!.event).toBe("stopped");
    expect(existsSync(path.join(s.inbox, "processed", path.basename(inHand!)))).toBe(true);

    const again = new WatchProc(args);
    try {
      await again.waitFor((ev) => ev.some((e) => e.event === "done"), 60_000, "rest done");
      expect(again.of("done").map((e) => path.basename(String(e.file)))).toEqual([inHand!.endsWith("a-scanned.pdf") ? "b-text.pdf" : "a-scanned.pdf"]);
      expect(resultsFiles(s.out)).toHaveLength(2);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  }, 180_000);
});

describe("watch and writers that resume", () => {
  test("a file written to while it is processed stays in place and its new content is taken again", async () => {
    const s = await setup();
    await mkdirp(s.inbox);
    const file = path.join(s.inbox, "resumed.pdf");
    await Bun.write(file, Bun.file(path.resolve(import.meta.dir, "../../fixtures/inbox/scanned-invoice.pdf")));
    const w = new WatchProc(s.args(["--stable-ms", "300", "--concurrency", "1"]));
    try {
      await w.waitFor((ev) => ev.some((e) => e.event === "taken"), 60_000, "taken");
      // The writer comes back during OCR (bytes after %%EOF keep the PDF readable).
      const { appendFileSync } = await import("node:fs");
      appendFileSync(file, "\n% appended by a writer that resumed\n");
      await w.waitFor((ev) => ev.filter((e) => e.event === "done").length >= 2, 120_000, "second done");
      const [first, second] = w.of("done");
      expect(first!.moved_to).toBeNull();
      expect(w.of("changed")).toEqual([expect.objectContaining({ file, transaction_id: first!.transaction_id })]);
      expect(second!.transaction_id).not.toBe(first!.transaction_id);
      expect(second!.moved_to).toBe(path.join(s.inbox, "processed", "resumed.pdf"));
    } finally {
      expect(await w.stop()).toBe(0);
    }
  }, 180_000);
});

describe("watch destinations", () => {
  test("--keep leaves originals in place and a restart does not process them again", async () => {
    const s = await setup();
    await mkdirp(s.inbox);
    await Bun.write(path.join(s.inbox, "kept.pdf"), await textPdf("Kept invoice"));
    const args = s.args(["--stable-ms", "200", "--keep"]);
    const w = new WatchProc(args);
    await w.waitFor((ev) => ev.some((e) => e.event === "done"), 60_000, "done");
    expect(await w.stop()).toBe(0);
    expect(w.of("done")[0]!.moved_to).toBeNull();
    expect(existsSync(path.join(s.inbox, "kept.pdf"))).toBe(true);
    const again = new WatchProc(args);
    try {
      await again.waitFor((ev) => ev.some((e) => e.event === "skipped"), 60_000, "skipped");
      expect(again.of("taken")).toHaveLength(0);
      expect(resultsFiles(s.out)).toHaveLength(1);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  }, 120_000);

  test("--processed and --failed put originals elsewhere, keeping their subfolders", async () => {
    const s = await setup();
    const archive = path.join(s.root, "archive");
    const rejected = path.join(s.root, "rejected");
    await Bun.write(path.join(s.inbox, "acme", "ok.pdf"), await textPdf("Archived invoice"));
    await Bun.write(path.join(s.inbox, "acme", "bad.pdf"), "not a pdf at all");
    const w = new WatchProc(s.args(["--stable-ms", "200", "--processed", archive, "--failed", rejected]));
    try {
      await w.waitFor((ev) => ev.some((e) => e.event === "done") && ev.some((e) => e.event === "failed"), 60_000, "both");
      expect(existsSync(path.join(archive, "acme", "ok.pdf"))).toBe(true);
      expect(existsSync(path.join(rejected, "acme", "bad.pdf"))).toBe(true);
      expect(readFileSync(path.join(rejected, "acme", "bad.pdf.error.txt"), "utf8")).toContain("unsupported_format");
      expect(readdirSync(path.join(s.inbox, "acme"))).toEqual([]);
    } finally {
      expect(await w.stop()).toBe(0);
    }
  }, 120_000);
});
