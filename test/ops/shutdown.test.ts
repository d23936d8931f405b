/**
 * Shutdown that loses no work (issue 17, item 5): a real `docproc serve` gets SIGTERM while it OCRs an image-only
 * PDF of n pages (7 on 2 cores; see PAGES). The running job finishes the pages in flight, stores the converted and
 * read pages (a checkpoint) and is released; after a restart the job continues from there.
 *
 * Pages OCR'd are counted from the servers' `step_finished` lines (step `ocr`, `done` pages): the first run read k
 * pages (0 < k < n), the second reads the n − k others, so the pages were read n times in all and, as each of the n
 * ends up read, none twice. The results equal those of an uninterrupted run of the same file, and
 * processing_time_seconds leaves out the time the server was down.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { freePort, ROOT, spawnServe, type Served } from "../support/process";
import { makeTempDir } from "../support/temp";
import { requestInit } from "../support/http";
import { waitFor as waitForEvent } from "../support/wait";

const KEY = "shutdown-admin-key-8810";
/**
 * OCR reads up to one page more than the engine has workers (one per core) at once. When the first page is seen
 * done, at most `lanes` + 2 have been started (a second may finish in the same moment); 4 more leave at least two
 * unread at the checkpoint on any machine. 7 pages on 2 cores.
 */
const LANES = availableParallelism() + 1;
const PAGES = LANES + 4;
const SOURCE = path.resolve(ROOT, "fixtures/corpora/splitting/paperless-barcodes/split-by-tag-mixed-asn.pdf");
const dir = makeTempDir("ops-shutdown");
const servers: Served[] = [];
afterAll(async () => {
  for (const s of servers) if (s.proc.exitCode === null) s.proc.kill("SIGKILL");
  rmSync(dir, { recursive: true, force: true });
});

/** The source's pages rendered at 200 DPI (greyscale JPEG) and wrapped as an image-only PDF: every page needs OCR. */
async function scannedPdf(): Promise<Uint8Array<ArrayBuffer>> {
  const out = path.join(dir, "render");
  mkdirSync(out);
  const r = Bun.spawnSync(["pdftoppm", "-gray", "-jpeg", "-r", "200", SOURCE, path.join(out, "p")]);
  if (r.exitCode !== 0) throw new Error(`pdftoppm failed: ${r.stderr}`);
  const doc = await PDFDocument.create();
  const images = readdirSync(out).sort();
  // The source's 8 pages, again from the first when more are needed (machines with many cores).
  for (let i = 0; i < PAGES; i++) {
    const img = await doc.embedJpg(readFileSync(path.join(out, images[i % images.length]!)));
    doc.addPage([612, 792]).drawImage(img, { x: 0, y: 0, width: 612, height: 792 });
  }
  expect(doc.getPageCount()).toBe(PAGES);
  return new Uint8Array(await doc.save());
}

const api = async (base: string, method: string, url: string, body?: unknown) => {
  const res = await fetch(`${base}${url}`, requestInit(method, { "x-api-key": KEY }, body));
  return (await res.json()) as any;
};

/** Creates a transaction with the PDF and starts it; returns its id. */
async function submit(base: string, project: string, pdf: Uint8Array<ArrayBuffer>): Promise<string> {
  const created = await api(base, "POST", `/tenants/default/projects/${project}/transactions`, {});
  const form = new FormData();
  form.append("files", new File([pdf], "scan.pdf", { type: "application/pdf" }));
  await api(base, "POST", created.files_url, form);
  await api(base, "POST", created.start_url, {});
  return created.transaction_id;
}

/** OCR of the scans on a loaded machine: minutes, not seconds. */
const waitFor = <T>(what: string, probe: () => Promise<T>, timeoutMs = 180_000) =>
  waitForEvent(what, probe, { timeoutMs, everyMs: 50 });

const completed = (base: string, id: string) =>
  waitFor(`transaction ${id}`, async () => {
    const t = await api(base, "GET", `/transactions/${id}`);
    if (t.status === "failed") throw new Error(`transaction failed: ${t.error_message}`);
    return t.status === "completed" ? t : null;
  });

/**
 * The results file with what differs between two transactions by design taken out: the transaction's id becomes "<id>",
 * timestamps and the random document ids go. Everything the pages' reading decides stays: page text
 * source, OCR confidence, rotation and skew, the split, classification and field values with their boxes.
 */
async function comparable(base: string, id: string) {
  const manifest = await api(base, "GET", `/transactions/${id}/exports`);
  const file = Object.values(manifest.profiles)
    .flatMap((p: any) => p.files)
    .find((f: any) => f.filename.endsWith("_data.json")) as any;
  const text = await (
    await fetch(`${base}/transactions/${id}/exports/download/${file.filename}`, { headers: { "x-api-key": KEY } })
  ).text();
  return JSON.parse(text.replaceAll(id, "<id>"), (k, v) => (/_at$/.test(k) || k === "document_id" ? undefined : v));
}

/** The JSON log lines of one server about one transaction. */
const linesOf = (server: Served, id: string) =>
  server
    .output()
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l))
    .filter((l) => l.transaction_id === id);

test("SIGTERM mid-OCR: the job stops after the pages in flight, a restart reads only the other pages; same results, downtime not counted", async () => {
  const pdf = await scannedPdf();
  const data = path.join(dir, "data");
  const port = await freePort();
  const env = { DOCPROC_LOG_FORMAT: "json", DOCPROC_LOG_LEVEL: "debug" };
  const first = await spawnServe({ dataDir: data, port, key: KEY, workers: 1, env });
  servers.push(first);
  const project = (await api(first.base, "POST", "/tenants/default/projects", { name: "Shutdown" })).project_id;

  // Reference: the same file, uninterrupted.
  const t0 = performance.now();
  const reference = await submit(first.base, project, pdf);
  await completed(first.base, reference);
  const expected = await comparable(first.base, reference);
  console.log(`reference run: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  expect(expected.pages.map((p: any) => p.text_source)).toEqual(Array(PAGES).fill("ocr"));
  expect(expected.pages.every((p: any) => p.ocr_confidence > 0)).toBe(true);

  const submittedAt = performance.now();
  const id = await submit(first.base, project, pdf);
  await waitFor("the first OCR'd page", async () => {
    const t = await api(first.base, "GET", `/transactions/${id}`);
    return (t.metadata?.step_progress?.steps?.ocr?.done ?? 0) >= 1;
  });
  first.proc.kill("SIGTERM"); // pages are still unread: see LANES
  expect(await first.proc.exited).toBe(0);
  const stoppedAt = performance.now();

  const before = linesOf(first, id);
  const released = before.find((l) => l.event === "job_released");
  expect(released).toMatchObject({ reason: "checkpoint", kind: "process_transaction", pages: PAGES });
  const ocrBefore = before.filter((l) => l.event === "step_finished" && l.step === "ocr");
  expect(ocrBefore).toHaveLength(1);
  const readBefore = ocrBefore[0].done as number;
  expect(ocrBefore[0].total).toBe(PAGES);
  expect(released.pages_read).toBe(readBefore);
  // Stopped mid-OCR: some pages read, others not started.
  expect(readBefore).toBeGreaterThan(0);
  expect(readBefore).toBeLessThan(PAGES);
  expect(before.some((l) => l.event === "job_completed")).toBe(false);

  await Bun.sleep(3_000); // the server stays down a while: this must not count as processing
  const restartedAt = performance.now();
  const second = await spawnServe({ dataDir: data, port: await freePort(), key: KEY, workers: 1, env });
  servers.push(second);
  const done = await completed(second.base, id);
  const finishedAt = performance.now();
  // The worker logs job_completed once the job's handler has returned, after the transaction was stored completed.
  await waitFor(
    "the job_completed log line",
    async () => linesOf(second, id).some((l) => l.event === "job_completed"),
    10_000,
  );

  const after = linesOf(second, id);
  // Conversion is not redone, and OCR reads exactly the pages the first run left.
  expect(after.filter((l) => l.event === "step_finished").map((l) => l.step)).not.toContain("convert");
  const ocrAfter = after.filter((l) => l.event === "step_finished" && l.step === "ocr");
  expect(ocrAfter).toHaveLength(1);
  expect(ocrAfter[0]).toMatchObject({ done: PAGES - readBefore, total: PAGES - readBefore });
  expect(after.filter((l) => l.event === "job_completed")).toHaveLength(1);

  expect(await comparable(second.base, id)).toEqual(expected);

  // Processing time: the two stretches the job ran, not the downtime between them (3 s + the restart).
  const downtime = (restartedAt - stoppedAt) / 1000;
  const wall = (finishedAt - submittedAt) / 1000;
  expect(downtime).toBeGreaterThanOrEqual(3);
  expect(done.processing_time_seconds).toBeGreaterThan(0);
  expect(done.processing_time_seconds).toBeLessThan(wall - downtime + 0.5);

  console.log(
    `pages read before SIGTERM ${readBefore}/${PAGES}; downtime ${downtime.toFixed(1)} s; wall ${wall.toFixed(1)} s; processing_time_seconds ${done.processing_time_seconds}`,
  );
  second.proc.kill("SIGTERM");
  expect(await second.proc.exited).toBe(0);
}, 300_000);
