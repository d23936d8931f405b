/**
 * Quiet by default: the human log format is one line per event, step lines are debug lines, and `--quiet` /
 * `--verbose` mean the same on every command that reports as it goes.
 */
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { createLogger } from "../../src/telemetry/log";
import { loggerFromFlags } from "../../src/telemetry/cli";
import { REPO, runCli } from "./helpers";

const dir = mkdtempSync(path.join(tmpdir(), "docproc-verbosity-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const PDF = path.join(REPO, "fixtures/inbox/born-digital-invoice.pdf");

test("pretty logs: one line per event, the component before the sentence, the fields compact on the same line", () => {
  const lines: string[] = [];
  const stream = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
  const log = createLogger({ format: "pretty", colour: false, stream }).child({ component: "watch" });
  log.info(
    { event: "job_completed", transaction_id: "t1", documents: 2, duration_ms: 1200 },
    "done a.pdf → t1_data.json (2 documents, 1.2 s)",
  );
  log.error({ event: "job_failed", error_code: "corrupt_file" }, "failed b.pdf: not a PDF");
  const text = lines.join("");
  expect(text.trimEnd().split("\n")).toHaveLength(2);
  expect(text).toMatch(
    /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: watch: done a\.pdf → t1_data\.json \(2 documents, 1\.2 s\) \{"transaction_id":"t1","documents":2,"duration_ms":1200\}\n/,
  );
  expect(text).toContain('ERROR: watch: failed b.pdf: not a PDF {"error_code":"corrupt_file"}');
});

test("--quiet is the warn level, --verbose the debug level, over the environment's level", () => {
  expect(loggerFromFlags({ quiet: true, "log-format": "json" }, "x", { level: "debug" }).level).toBe("warn");
  expect(loggerFromFlags({ verbose: true, "log-format": "json" }, "x", { level: "error" }).level).toBe("debug");
  expect(loggerFromFlags({ "log-format": "json" }, "x").level).toBe("info");
});

test("process --quiet prints only failures; --verbose a line per step and file; both together are a usage error", async () => {
  const broken = path.join(dir, "broken.pdf");
  writeFileSync(broken, "%PDF-1.4\nnot really a pdf");
  const quiet = await runCli(["process", PDF, broken, "--out", path.join(dir, "q"), "--quiet"]);
  expect(quiet.code).toBe(1);
  expect(quiet.stdout).toBe("");
  expect(quiet.stderr.trim().split("\n")).toHaveLength(1);
  expect(quiet.stderr).toMatch(/^docproc: \S*broken\.pdf: .*\[corrupt_file, convert\]\n$/);

  const allGood = await runCli(["process", PDF, "--out", path.join(dir, "q2"), "--quiet"]);
  expect([allGood.code, allGood.stdout, allGood.stderr]).toEqual([0, "", ""]);

  const verbose = await runCli(["process", PDF, "--out", path.join(dir, "v"), "--verbose"]);
  expect(verbose.code).toBe(0);
  const steps = verbose.stderr.trim().split("\n");
  expect(steps[0]).toMatch(/^born-digital-invoice\.pdf: convert \(\d+\.\d s\)$/);
  expect(steps).toContainEqual(expect.stringMatching(/^born-digital-invoice\.pdf: export \(/));
  expect(steps[steps.length - 1]).toMatch(/^born-digital-invoice\.pdf: done \(\d+\.\d s\)$/);
  expect(verbose.stdout).toContain("1 of 1 files processed");

  const both = await runCli(["process", PDF, "--quiet", "--verbose"]);
  expect(both.code).toBe(2);
  expect(both.stderr).toContain("--verbose");
}, 120_000);
