/**
 * The single binary, as a user gets it: `bun run build` once, then dist/docproc and dist/docproc-lib/ copied to a
 * fresh temporary folder with no node_modules anywhere above it, and run from there.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pkg from "../../package.json" with { type: "json" };
import { BINARY, LIB_DIR, buildBinary } from "../../scripts/build";
import { openPostgres } from "../../src/storage/schema/pg/open";
import { textPdf } from "../batch/helpers";
import { requestInit } from "../support/http";
import { freshPostgresUrl } from "../support/postgres";
import { startTestS3 } from "../support/s3";
import { waitFor } from "../support/wait";

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
async function run(args: string[], timeoutMs = 120_000, env: Record<string, string> = {}) {
  const proc = Bun.spawn([bin, ...args], {
    cwd: home,
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: "/usr/bin:/bin", HOME: home, NO_COLOR: "1", ...env },
  });
  const timer = setTimeout(() => proc.kill(), timeoutMs);
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  clearTimeout(timer);
  return { code, stdout, stderr };
}

describe("single binary copied into an empty folder", () => {
  test("has no node_modules to lean on", () => {
    for (let dir = home; dir !== path.dirname(dir); dir = path.dirname(dir))
      expect(existsSync(path.join(dir, "node_modules"))).toBe(false);
  });

  test("--version prints the package version and the commit embedded at build time (no git in the folder)", async () => {
    const r = await run(["--version"]);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(
      new RegExp(`^${pkg.version.replaceAll(".", "\\.")} \\(commit [0-9a-f]{40}(\\+changes)?\\)$`),
    );
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

  // The native engine's tesseract host is docproc-lib/native-host.js, run by the binary itself as Bun (BUN_BE_BUN=1).
  // A `tesseract` on PATH that logs its calls tells host from CLI: with the host, the CLI runs only the engine's
  // start-up self-test (one blank image); without it, once more per page and per list of second-look lines.
  test.skipIf(!Bun.which("tesseract", { PATH: "/usr/bin:/bin" }))(
    "process OCRs a scanned PDF in the native tesseract host, reading as from source",
    async () => {
      const tbin = path.join(home, "tbin");
      const log = path.join(home, "tesseract-calls.log");
      mkdirSync(tbin, { recursive: true });
      writeFileSync(
        path.join(tbin, "tesseract"),
        `#!/bin/sh\necho "$*" >> '${log}'\nexec ${Bun.which("tesseract", { PATH: "/usr/bin:/bin" })} "$@"\n`,
        { mode: 0o755 },
      );
      const cliReads = () =>
        existsSync(log)
          ? readFileSync(log, "utf8")
              .split("\n")
              .filter((l) => l && !l.startsWith("--")).length
          : 0;
      const reading = async (out: string, cmd: string[], cwd: string) => {
        rmSync(log, { force: true });
        const proc = Bun.spawn([...cmd, "process", SCANNED_PDF, "--ocr-engine", "native", "--out", out, "--json"], {
          cwd,
          stdout: "pipe",
          stderr: "pipe",
          env: { PATH: `${tbin}:/usr/bin:/bin`, HOME: home, NO_COLOR: "1" },
        });
        const [stdout, stderr, code] = await Promise.all([
          new Response(proc.stdout).text(),
          new Response(proc.stderr).text(),
          proc.exited,
        ]);
        expect({ code, stderr }).toEqual({ code: 0, stderr: "" });
        const file = JSON.parse(stdout).files[0];
        expect(file.text_source).toBe("OCR");
        const results = JSON.parse(readFileSync(path.resolve(cwd, file.results_file), "utf8"));
        // What OCR read, as the fields' values, boxes and confidences and the pages' confidence show it.
        return {
          cli: cliReads(),
          read: {
            fields: results.documents.map((d: any) => d.fields),
            confidence: results.pages.map((p: any) => p.ocr_confidence),
          },
        };
      };
      const ROOT = path.resolve(import.meta.dir, "../..");
      const fromSource = await reading(
        path.join(home, "native-src"),
        [process.execPath, path.join(ROOT, "src/cli.ts")],
        ROOT,
      );
      const hosted = await reading("native-bin", [bin], home);
      expect(hosted.cli).toBeLessThanOrEqual(1); // the self-test only: the page went to the host
      const hostScript = path.join(home, "docproc-lib", "native-host.js");
      renameSync(hostScript, `${hostScript}.off`);
      const withoutHost = await reading("native-cli", [bin], home).finally(() =>
        renameSync(`${hostScript}.off`, hostScript),
      );
      expect(withoutHost.cli).toBeGreaterThan(hosted.cli); // no host script: the CLI per page, still working
      expect(hosted.read.fields[0].invoice_number.value).toBe("42183017");
      expect(hosted.read).toEqual(fromSource.read);
      expect(withoutHost.read).toEqual(fromSource.read);
    },
    240_000,
  );

  test("watch takes a dropped file and stops cleanly on SIGTERM", async () => {
    const inbox = path.join(home, "inbox");
    await Bun.write(path.join(inbox, "a.pdf"), await textPdf("Binary watch invoice total 12 EUR"));
    const proc = Bun.spawn([bin, "watch", "inbox", "--stable-ms", "200", "--json"], {
      cwd: home,
      stdout: "pipe",
      stderr: "pipe",
      env: { PATH: "/usr/bin:/bin", HOME: home },
    });
    const processed = () => existsSync(path.join(inbox, "processed", "a.pdf"));
    await waitFor("a.pdf processed", processed, { timeoutMs: 120_000, everyMs: 200 }).catch(() => {});
    proc.kill("SIGTERM");
    expect(await proc.exited).toBe(0);
    const events = (await new Response(proc.stdout).text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(events.filter((e) => e.event === "done")).toHaveLength(1);
  }, 180_000);

  test("without its companion folder the binary says what to copy where", async () => {
    const alone = mkdtempSync(path.join(tmpdir(), "docproc-binary-alone-"));
    try {
      cpSync(BINARY, path.join(alone, "docproc"));
      const proc = Bun.spawn([path.join(alone, "docproc"), "process", SCANNED_PDF, "--out", path.join(alone, "out")], {
        cwd: alone,
        stdout: "pipe",
        stderr: "pipe",
        env: { PATH: "/usr/bin:/bin" },
      });
      const [stdout, stderr, code] = await Promise.all([
        new Response(proc.stdout).text(),
        new Response(proc.stderr).text(),
        proc.exited,
      ]);
      expect(code).not.toBe(0);
      expect(stdout + stderr).toContain("companion folder docproc-lib/ is missing");
    } finally {
      rmSync(alone, { recursive: true, force: true });
    }
  }, 60_000);

  test("serve answers GET /health, and serves the API explorer's bundled files and the OpenAPI document", async () => {
    const { proc, url } = await serveBinary("serve-data", { ADMIN_API_KEY: "binary-test-key" });
    try {
      const res = await fetch(`${url}/health`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: "ok", version: pkg.version });
      // Swagger UI is embedded in the binary (text imports), not read from a node_modules folder.
      expect(await (await fetch(`${url}/api-docs`)).text()).toContain('src="/api-docs/swagger-ui-bundle.js"');
      expect(await (await fetch(`${url}/api-docs/swagger-ui-bundle.js`)).text()).toContain("SwaggerUIBundle");
      expect((await fetch(`${url}/api-docs/swagger-ui.css`)).status).toBe(200);
      const doc = await (await fetch(`${url}/api-docs/openapi.json`)).json();
      expect(Object.keys(doc.paths).length).toBeGreaterThan(40);
    } finally {
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
    }
  }, 90_000);

  // The PostgreSQL engine runs its connection on a worker thread, which the binary must embed (scripts/build.ts).
  test("serve on PostgreSQL and the S3 stand-in completes a transaction", async () => {
    const s3 = await startTestS3();
    const databaseUrl = freshPostgresUrl();
    const { proc, url } = await serveBinary(
      "serve-pg",
      { ADMIN_API_KEY: "binary-test-key", DOCPROC_DATABASE_URL: databaseUrl, ...s3.env("binary") },
      ["--workers", "1"],
    );
    try {
      const call = async (method: string, route: string, body?: unknown) => {
        const res = await fetch(url + route, requestInit(method, { "x-api-key": "binary-test-key" }, body));
        return { status: res.status, json: (await res.json()) as any };
      };
      const project = await call("POST", "/tenants/default/projects", { name: "binary", description: "" });
      expect(project.status).toBe(201);
      const t = await call("POST", `/tenants/default/projects/${project.json.project_id}/transactions`, {});
      const form = new FormData();
      form.append(
        "files",
        new File(["INVOICE 77\nACME Supplies Ltd\nTotal: 12.50 EUR\n"], "invoice.txt", { type: "text/plain" }),
      );
      expect((await call("POST", `/transactions/${t.json.transaction_id}/source-files`, form)).status).toBe(200);
      expect((await call("POST", `/transactions/${t.json.transaction_id}/start`, {})).status).toBe(200);
      let status: { status?: string; error_message?: string | null } = {};
      for (
        let polls = 0;
        !["completed", "failed", "awaiting_input"].includes(status.status ?? "") && polls < 6;
        polls++
      ) {
        status = (await call("GET", `/transactions/${t.json.transaction_id}?timeout=30`)).json;
      }
      expect({ status: status.status, error: status.error_message }).toEqual({ status: "completed", error: undefined });
      // The rows are in PostgreSQL and the exports in the bucket: the data directory has neither.
      const db = openPostgres(databaseUrl);
      try {
        expect(
          db
            .query<{ status: string }, [string]>("SELECT status FROM transactions WHERE transaction_id = ?")
            .get(t.json.transaction_id)?.status,
        ).toBe("completed");
      } finally {
        db.close();
      }
      expect(existsSync(path.join(home, "serve-pg", "docproc.db"))).toBe(false);
      const manifest = (await call("GET", `/transactions/${t.json.transaction_id}/exports`)).json;
      const files = Object.values(
        manifest.profiles as Record<string, { files: Array<{ filename: string; size_bytes: number }> }>,
      ).flatMap((p) => p.files);
      expect(files.length).toBeGreaterThan(0);
      const download = await fetch(
        `${url}/transactions/${t.json.transaction_id}/exports/download/${files[0]!.filename}`,
        { headers: { "x-api-key": "binary-test-key" } },
      );
      expect((await download.arrayBuffer()).byteLength).toBe(files[0]!.size_bytes);
    } finally {
      proc.kill("SIGTERM");
      expect(await proc.exited).toBe(0);
      await s3.stop();
    }
  }, 120_000);
});

/** Starts the copied binary's `serve` on a free port; resolves with its URL once it says it is listening. */
async function serveBinary(dataDir: string, env: Record<string, string>, args: string[] = []) {
  const proc = Bun.spawn([bin, "serve", "--port", "0", "--data", dataDir, ...args], {
    cwd: home,
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: "/usr/bin:/bin", HOME: home, ...env },
  });
  // Both streams are read to the end, so a chatty log never fills a pipe and stalls the server.
  const stderr = new Response(proc.stderr).text();
  const reader = proc.stdout.getReader();
  let text = "";
  const deadline = Date.now() + 60_000;
  while (!/listening on (http:\/\/\S+)/.test(text) && Date.now() < deadline) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  const url = /listening on (http:\/\/\S+)/.exec(text)?.[1];
  if (!url) {
    proc.kill("SIGKILL");
    throw new Error(`the binary's serve did not start: ${text}${await stderr}`);
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
  return { proc, url };
}
