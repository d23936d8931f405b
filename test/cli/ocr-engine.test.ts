/**
 * A project's `ocr.engine` is honoured by `docproc process` and by the server (it used to be stripped by the
 * settings schema, so both always ran `auto`); the CLI's --ocr-engine overrides it. The page is a small generated
 * image: what is checked is which engine read it, not what it says.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { buildTestApp } from "../support/app";
import { requestInit } from "../support/http";
import { makeTempDir } from "../support/temp";
import { runCli } from "./helpers";
import { waitFor } from "../support/wait";

const dir = makeTempDir("ocr-engine");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="200"><rect width="100%" height="100%" fill="white"/><text x="20" y="110" font-size="48" fill="black">INVOICE 4711</text></svg>`;
const png = await sharp(Buffer.from(svg)).png().toBuffer();
const image = path.join(dir, "scan.png");
writeFileSync(image, png);
const wasmProject = path.join(dir, "wasm.json");
writeFileSync(wasmProject, JSON.stringify({ id: "scans", ocr: { engine: "wasm" } }));

describe("ocr.engine of a project", () => {
  test("docproc process reads with the project's engine; --ocr-engine overrides it", async () => {
    const run = await runCli(
      ["process", image, "--project", wasmProject, "--out", path.join(dir, "out-wasm"), "--json"],
      { timeoutMs: 180_000 },
    );
    expect(run.code).toBe(0);
    const summary = JSON.parse(run.stdout);
    expect(summary.ocr_engine).toBe("wasm");
    expect(summary.files[0].text_source).toBe("OCR");
    const results = JSON.parse(await Bun.file(summary.files[0].results_file).text());
    expect(results.project_id).toBe("scans"); // the project file's id is kept too

    const native = await runCli(
      [
        "process",
        image,
        "--project",
        wasmProject,
        "--ocr-engine",
        "native",
        "--out",
        path.join(dir, "out-native"),
        "--json",
      ],
      { timeoutMs: 180_000 },
    );
    expect(native.code).toBe(0);
    expect(JSON.parse(native.stdout).ocr_engine).toStartWith("native");
  }, 400_000);

  test("the server reads a wasm project's pages with the embedded engine", async () => {
    const t = buildTestApp({ adminKey: "k", prefix: "ocr-engine-serve", runner: "core", workers: 1 });
    try {
      const call = async (method: string, url: string, body?: unknown) => {
        const res = await t.app.handle(
          new Request(`http://local${url}`, requestInit(method, { "x-api-key": "k" }, body)),
        );
        return (await res.json()) as any;
      };
      expect((await call("GET", "/health")).ocr.engines ?? []).not.toContain("wasm");
      const pid = (
        await call("POST", "/tenants/default/projects", { name: "Scans", settings: { ocr: { engine: "wasm" } } })
      ).project_id;
      // no languages named: each page's language is chosen from its words (stages/ocr/language-choice.ts)
      expect((await call("GET", `/tenants/default/projects/${pid}`)).settings.ocr).toEqual({ engine: "wasm" });
      const files = [{ filename: "scan.png", base64_data: png.toString("base64"), split_policy: "inherit" }];
      const id = (await call("POST", `/tenants/default/projects/${pid}/transactions/process`, { source_files: files }))
        .transaction_id;
      let view: any;
      for (let i = 0; i < 150 && view?.status !== "completed" && view?.status !== "failed"; i++)
        view = await call("GET", `/transactions/${id}?timeout=2`);
      expect(view.status).toBe("completed");
      // The pipeline thread reports its engines every 250 ms. Its warm-up engine is `auto` (native where tesseract
      // is installed): "wasm" appears only because this project's page was read with it.
      const reported = async () => {
        const h = await call("GET", "/health");
        return h?.ocr?.engines?.includes("wasm") && h;
      };
      const health: any = await waitFor("wasm among the engines", reported, { timeoutMs: 8_000, everyMs: 100 });
      expect(health.ocr.engines).toContain("wasm");
    } finally {
      await t.close();
    }
  }, 400_000);
});
