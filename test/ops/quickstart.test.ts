/**
 * docs/quickstart.md, run as printed: its ```sh block with bash (curl) and its ```python block with python3
 * (requests), each against a real `docproc serve` (real pipeline, SQLite, loopback) with a real PDF, in an empty
 * folder. Both must end with the JSON results file downloaded, holding the invoice's fields.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { DEFAULT_CONFIG } from "../../src/server/config";
import { startServer, type RunningServer } from "../../src/server/start";
import { makeTempDir } from "../support/temp";

const ROOT = path.resolve(import.meta.dir, "../..");
const PDF = path.join(ROOT, "fixtures/inbox/born-digital-invoice.pdf");
const KEY = "quickstart-admin-key";
const doc = readFileSync(path.join(ROOT, "docs/quickstart.md"), "utf8");
const block = (lang: string) => {
  const m = new RegExp("```" + lang + "\\n([\\s\\S]*?)```").exec(doc.slice(doc.indexOf("## 2.")));
  if (!m) throw new Error(`docs/quickstart.md: no ${lang} block after "## 2."`);
  return m[1];
};

let server: RunningServer;
let dataDir: string;
beforeAll(async () => {
  dataDir = makeTempDir("quickstart-data");
  server = await startServer({
    host: "127.0.0.1",
    port: 0,
    dataDir,
    workers: 1,
    config: { ...DEFAULT_CONFIG, adminApiKey: KEY },
  });
});
afterAll(async () => {
  await server?.stop(5000);
  rmSync(dataDir, { recursive: true, force: true });
});

async function runScript(argv: string[], script: string) {
  const cwd = makeTempDir("quickstart-run");
  const file = path.join(cwd, argv[0] === "bash" ? "quickstart.sh" : "quickstart.py");
  await Bun.write(file, script);
  const proc = Bun.spawn([...argv, file], {
    cwd,
    env: { PATH: process.env.PATH, HOME: cwd, BASE: server.url, ADMIN_API_KEY: KEY, FILE: PDF },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { cwd, stdout, stderr, code };
}

function checkResults(cwd: string, stdout: string) {
  const tx = /transaction (\S+): completed/.exec(stdout)?.[1];
  expect(tx).toBeDefined();
  const results = path.join(cwd, "results");
  const json = path.join(results, `${tx}_data.json`);
  expect(existsSync(json)).toBe(true);
  const data = JSON.parse(readFileSync(json, "utf8"));
  expect(data.documents.length).toBeGreaterThan(0);
  expect(Object.keys(data.documents[0].fields).length).toBeGreaterThan(3);
  expect(readdirSync(results, { recursive: true }).length).toBeGreaterThanOrEqual(1);
  rmSync(cwd, { recursive: true, force: true });
}

test("the curl walkthrough runs green and downloads the results", async () => {
  const r = await runScript(["bash"], block("sh"));
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/downloaded results\/.+_data\.json/);
  checkResults(r.cwd, r.stdout);
}, 120_000);

test("the Python requests walkthrough runs green, prints the fields and downloads the results", async () => {
  const r = await runScript(["python3"], block("python"));
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  expect(r.stdout).toMatch(/^Invoice \{.*'total_amount': 279.84/m);
  checkResults(r.cwd, r.stdout);
}, 120_000);
