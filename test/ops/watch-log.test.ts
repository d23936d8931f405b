/**
 * `docproc watch` logs like serve and worker (issue 17, item 1): pino lines on stderr with --log-format and
 * --log-level (DOCPROC_LOG_FORMAT / DOCPROC_LOG_LEVEL below them): the file picked up, each step with its duration,
 * completed or failed with the error code; never the file's text or the values extracted from it.
 */
import { afterAll, expect, test } from "bun:test";
import { copyFileSync, readFileSync } from "node:fs";
import path from "node:path";
import { removeAll } from "../batch/helpers";
import { WatchProc, mkdirp, setupWatch } from "../batch/watch-helpers";
import { ROOT, runCli } from "../support/process";

const cleanup: string[] = [];
afterAll(() => removeAll(cleanup));

const INVOICE = path.join(ROOT, "fixtures/inbox/born-digital-invoice.pdf");

/** Runs watch until `expected` events were seen for the files, stops it; returns its events and stderr. */
async function watchOnce(
  flags: string[],
  files: Record<string, string | Uint8Array>,
  until: (w: WatchProc) => boolean,
  env: Record<string, string> = {},
) {
  const s = await setupWatch(cleanup);
  await mkdirp(s.inbox);
  for (const [name, content] of Object.entries(files)) await Bun.write(path.join(s.inbox, name), content);
  const w = new WatchProc(s.args(["--stable-ms", "200", "--concurrency", "1", "--keep", ...flags]), { env });
  try {
    await w.waitFor(() => until(w), 90_000, "the files' outcomes");
  } finally {
    expect(await w.stop()).toBe(0);
  }
  // stop() returned once stderr was read to its end.
  return { s, w, stderr: w.stderr };
}

test("JSON lines: watching, job_started, step_finished with durations, job_completed, job_failed with error_code; no text or values", async () => {
  const { w, stderr } = await watchOnce(
    ["--log-format", "json", "--verbose"],
    { "invoice.pdf": readFileSync(INVOICE), "broken.pdf": "%PDF-1.4\nnot really a pdf" },
    (w) => w.of("done").length + w.of("failed").length === 2,
  );
  const lines = stderr
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  for (const l of lines) {
    expect(l).toMatchObject({
      component: "watch",
      pid: expect.any(Number),
      level: expect.any(String),
      msg: expect.any(String),
    });
    expect(Date.parse(l.time)).not.toBeNaN();
  }
  expect(lines.find((l) => l.event === "watching")).toMatchObject({ level: "info", polling: expect.any(Boolean) });

  const done = w.of("done")[0]!;
  const failed = w.of("failed")[0]!;
  expect(failed.error_code).toBe("corrupt_file");
  const about = (id: unknown) => lines.filter((l) => l.transaction_id === id);

  const ok = about(done.transaction_id);
  expect(ok.find((l) => l.event === "job_started")).toMatchObject({
    kind: "watch_file",
    file: done.file,
    retaken: false,
  });
  const steps = ok.filter((l) => l.event === "step_finished");
  expect(steps.map((l) => l.step)).toEqual(expect.arrayContaining(["convert", "extract", "export"]));
  expect(steps.find((l) => l.step === "ocr")?.total ?? 0).toBe(0); // a text-layer PDF: no page to read
  for (const l of steps) expect(l.duration_ms).toBeGreaterThanOrEqual(0);
  expect(ok.find((l) => l.event === "job_completed")).toMatchObject({
    level: "info",
    documents: 1,
    duration_ms: expect.any(Number),
    results_file: done.results_file,
  });

  expect(about(failed.transaction_id).find((l) => l.event === "job_failed")).toMatchObject({
    level: "error",
    kind: "watch_file",
    file: failed.file,
    error_code: "corrupt_file",
    error: expect.stringContaining("broken.pdf"),
  });
  expect(lines.find((l) => l.event === "shutdown")).toMatchObject({ signal: "SIGTERM" });
  expect(lines.at(-1)).toMatchObject({ event: "stopped" });

  // Never the file's text or what was extracted from it.
  const results = JSON.parse(readFileSync(done.results_file as string, "utf8"));
  const values = results.documents
    .flatMap((d: any) => Object.values(d.fields).map((f: any) => f.value))
    .filter((v: unknown) => v !== null && String(v).length >= 4);
  expect(values.length).toBeGreaterThan(2);
  // Compared without each line's clock and pid: a timestamp such as "…T02:15:16.940Z" holds the total "16.94".
  const logged = lines.map(({ time: _time, pid: _pid, ...rest }) => JSON.stringify(rest)).join("\n");
  for (const v of values) expect(logged).not.toContain(String(v));
  const text = Bun.spawnSync(["pdftotext", INVOICE, "-"]).stdout.toString();
  const phrases = text
    .split("\n")
    .map((l) => l.trim())
    .filter((l) => l.length >= 12);
  expect(phrases.length).toBeGreaterThan(3);
  for (const p of phrases) expect(logged).not.toContain(p);
}, 120_000);

test("--log-level warn keeps failures only; --log-format pretty writes lines for people; the environment sets both", async () => {
  const files = { "broken.pdf": "%PDF-1.4\nnot really a pdf", "invoice.pdf": readFileSync(INVOICE) };
  const until = (w: WatchProc) => w.of("done").length + w.of("failed").length === 2;
  const viaFlags = await watchOnce(["--log-format", "pretty", "--log-level", "warn"], files, until);
  expect(viaFlags.stderr).toContain("failed");
  expect(viaFlags.stderr).toContain("broken.pdf");
  expect(viaFlags.stderr).not.toContain("taken"); // info lines are below the level
  expect(viaFlags.stderr).not.toContain("watching");
  expect(viaFlags.stderr.split("\n").some((l) => l.startsWith("{"))).toBe(false);

  // The same from the environment; a flag wins over it.
  const viaEnv = await watchOnce([], files, until, { DOCPROC_LOG_FORMAT: "json", DOCPROC_LOG_LEVEL: "error" });
  const lines = viaEnv.stderr
    .split("\n")
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  expect(lines.map((l) => l.event)).toEqual(["job_failed"]);
  const flagWins = await watchOnce(["--log-level", "info"], files, until, {
    DOCPROC_LOG_FORMAT: "json",
    DOCPROC_LOG_LEVEL: "error",
  });
  expect(flagWins.stderr).toContain('"event":"job_started"');
}, 180_000);

test("a bad DOCPROC_LOG_LEVEL is a usage error before anything starts", async () => {
  const s = await setupWatch(cleanup);
  await mkdirp(s.inbox);
  copyFileSync(INVOICE, path.join(s.inbox, "invoice.pdf"));
  const r = await runCli(["watch", ...s.args()], { env: { DOCPROC_LOG_LEVEL: "loud" } });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("DOCPROC_LOG_LEVEL must be one of");
  expect(r.stdout).toBe("");
});
