import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { removeAll, resultsFiles, textPdf } from "./helpers";
import { WatchProc, mkdirp, setupWatch } from "./watch-helpers";
import { waitFor } from "../support/wait";

const cleanup: string[] = [];
afterAll(() => removeAll(cleanup));

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
    const s = await setupWatch(cleanup);
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
          {
            type: "notification",
            id: "hook",
            activity: {
              webhook_url: `http://127.0.0.1:${server.port}/hook`,
              hmac_secret: "s3cret",
              retry_max_attempts: 1,
              api_base_url: "http://127.0.0.1:8080",
            },
          },
        ],
      }),
    );
    await Bun.write(path.join(s.inbox, "n.pdf"), await textPdf("Notified invoice total 5 EUR"));
    const w = new WatchProc(
      [s.inbox, "--out", s.out, "--data", s.data, "--project", projectFile, "--stable-ms", "200"],
      { env: { DOCPROC_WEBHOOK_ALLOW: "127.0.0.0/8" } },
    );
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
    const s = await setupWatch(cleanup);
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
      expect(again.of("done").map((e) => path.basename(String(e.file)))).toEqual([
        inHand!.endsWith("a-scanned.pdf") ? "b-text.pdf" : "a-scanned.pdf",
      ]);
      expect(resultsFiles(s.out)).toHaveLength(2);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  }, 180_000);
});

describe("watch and writers that resume", () => {
  test("a file written to while it is processed stays in place and its new content is taken again", async () => {
    const s = await setupWatch(cleanup);
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
    const s = await setupWatch(cleanup);
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
      await again.waitFor((ev) => ev.some((e) => e.event === "watching"), 60_000, "watching");
      await Bun.sleep(1500); // well past --stable-ms: a file that was going to be taken would be by now
      // The ledger recognises the kept content at the scan (hashes are cached from then on): no event at all.
      expect(again.events.filter((e) => e.event !== "watching")).toEqual([]);
      expect(resultsFiles(s.out)).toHaveLength(1);
    } finally {
      expect(await again.stop()).toBe(0);
    }
  }, 120_000);

  test("--processed and --failed put originals elsewhere, keeping their subfolders", async () => {
    const s = await setupWatch(cleanup);
    const archive = path.join(s.root, "archive");
    const rejected = path.join(s.root, "rejected");
    await Bun.write(path.join(s.inbox, "acme", "ok.pdf"), await textPdf("Archived invoice"));
    await Bun.write(path.join(s.inbox, "acme", "bad.pdf"), "not a pdf at all");
    const w = new WatchProc(s.args(["--stable-ms", "200", "--processed", archive, "--failed", rejected]));
    try {
      await w.waitFor(
        (ev) => ev.some((e) => e.event === "done") && ev.some((e) => e.event === "failed"),
        60_000,
        "both",
      );
      expect(existsSync(path.join(archive, "acme", "ok.pdf"))).toBe(true);
      expect(existsSync(path.join(rejected, "acme", "bad.pdf"))).toBe(true);
      expect(readFileSync(path.join(rejected, "acme", "bad.pdf.error.txt"), "utf8")).toContain("unsupported_format");
      expect(readdirSync(path.join(s.inbox, "acme"))).toEqual([]);
    } finally {
      expect(await w.stop()).toBe(0);
    }
  }, 120_000);
});

describe("watch pdf.js workers", () => {
  test("a running hot folder keeps two pdf.js worker threads ready before any file arrives, and still stops cleanly", async () => {
    const s = await setupWatch(cleanup);
    await mkdirp(s.inbox);
    const w = new WatchProc(s.args());
    await w.waitFor((ev) => ev.some((e) => e.event === "watching"), 30_000, "watching");
    const workerThreads = () =>
      readdirSync(`/proc/${w.proc.pid}/task`).filter((tid) => {
        try {
          // pdf.js workers are named threads (src/core/engines/pdf/pdf-client.ts).
          return readFileSync(`/proc/${w.proc.pid}/task/${tid}/comm`, "utf8").trim() === "docproc-pdfjs";
        } catch {
          return false; // the thread ended meanwhile
        }
      }).length;
    await waitFor("two worker threads", () => workerThreads() >= 2, { timeoutMs: 15_000, everyMs: 100 }).catch(
      () => {},
    );
    expect(workerThreads()).toBe(2); // no OCR engine yet: it loads with the first scan
    expect(await w.stop()).toBe(0);
  });
});
