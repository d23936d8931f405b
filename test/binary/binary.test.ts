/**
 * The single binary, as a user gets it: `bun run build` once, then dist/docproc and dist/docproc-lib/ copied to a
 * fresh temporary folder with no node_modules anywhere above it, and run from there.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { BINARY, LIB_DIR, buildBinary } from "../../scripts/build";
import { textPdf } from "../batch/helpers";

const SCANNED_PDF = path.resolve(import.meta.dir, "../../fixtures/inbox/scanned-invoice.pdf");
let home = "";
let bin = "";

beforeAll(async () => {
  await buildBinary(); // one build per test run
  home = mkdtempSync(path.join(tmpdir(), "docproc-binary-"));
  cpSync(BINARY, path.join(home, "docproc"));
  cpSync(LIB_DIR, path.join(home, "docproc-lib"), { recursive: true });
  bin = path.join(home, "docproc");
}, 300_000);

afterAll(() => {
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Runs the copied binary from its folder, with an environment that offers no Bun and no node_modules. */
async function run(args: string[], timeoutMs = 120_000) {
  const proc = Bun.spawn([bin, ...args], { cwd: home, stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin", HOME: home, NO_COLOR: "1" } });
  const timer = setTimeout(() => proc.kill(), timeoutMs);
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

describe("single binary copied into an empty folder", () => {
  test("has no node_modules to lean on", () => {
    for (let dir = home; dir !== path.dirname(dir); dir = path.dirname(dir)) expect(existsSync(path.join(dir, "node_modules"))).toBe(false);
  });

  test("--version prints the package version", async () => {
    const r = await run(["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  test("--help lists every command with an example", async () => {
    const r = await run(["--help"]);
    expect(r.code).toBe(0);
    for (const cmd of ["process", "watch", "export", "serve", "worker"]) {
      expect(r.stdout).toContain(`  ${cmd} `);
      expect(r.stdout).toContain(`docproc ${cmd} `);
    }
    const watchHelp = await run(["watch", "--help"]);
    expect(watchHelp.code).toBe(0);
    expect(watchHelp.stdout).toContain("--stable-ms");
  });

  test("process OCRs a scanned PDF with the embedded wasm engine", async () => {
    const r = await run(["process", SCANNED_PDF, "--ocr-engine", "wasm", "--out", "out", "--json"], 240_000);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    // "review" when a field is flagged for a person (docs/review.md); either way the file was processed.
    expect(["success", "review"]).toContain(summary.files[0].status);
    expect(summary.files[0]).toMatchObject({ text_source: "OCR", documents: 1 });
    const results = JSON.parse(readFileSync(path.resolve(home, summary.files[0].results_file), "utf8"));
    // Read by OCR from the scanned page: the invoice number and the total.
    expect(results.documents[0].fields.invoice_number.value).toBe("42183017");
    expect(results.documents[0].fields.total_amount.value).toBe(4.11);
    expect(results.pages[0].ocr_confidence).toBeGreaterThan(0.8);
  }, 240_000);

  test("watch takes a dropped file and stops cleanly on SIGTERM", async () => {
    const inbox = path.join(home, "inbox");
    await Bun.write(path.join(inbox, "a.pdf"), await textPdf("Binary watch invoice total 12 EUR"));
    const proc = Bun.spawn([bin, "watch", "inbox", "--stable-ms", "200", "--json"], { cwd: home, stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin", HOME: home } });
    const deadline = Date.now() + 120_000;
    while (!existsSync(path.join(inbox, "processed", "a.pdf")) && Date.now() < deadline) await Bun.sleep(200);
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    const events = (await new Response(proc.stdout).text()).trim().split("\n").map((l) => JSON.parse(l));
    expect(events.filter((e) => e.event === "done")).toHaveLength(1);
  }, 180_000);

  test("without its companion folder the binary says what to copy where", async () => {
    const alone = mkdtempSync(path.join(tmpdir(), "docproc-binary-alone-"));
    try {
      cpSync(BINARY, path.join(alone, "docproc"));
      const proc = Bun.spawn([path.join(alone, "docproc"), "process", SCANNED_PDF, "--out", path.join(alone, "out")], { cwd: alone, stdout: "pipe", stderr: "pipe", env: { PATH: "/usr/bin:/bin" } });
      const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
      expect(code).not.toBe(0);
      expect(stdout + stderr).toContain("companion folder docproc-lib/ is missing");
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  }, 60_000);

  test("serve answers GET /health", async () => {
    const proc = Bun.spawn([bin, "serve", "--port", "0", "--data", "serve-data"], {
      cwd: home,
      stdout: "pipe",
      stderr: "pipe",
      env: { PATH: "/usr/bin:/bin", HOME: home, ADMIN_API_KEY: "binary-test-key" },
    });
    try {
      const reader = proc.stdout.getReader();
      let text = "";
      const deadline = Date.now() + 60_000;
      while (!/listening on (http:\/\/\S+)/.test(text) && Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
      expect(url).toBeDefined();
      const res = await fetch(`${url}/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: "ok", version: pkg.version });
    } finally {
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
    }
  }, 90_000);
});
