/**
 * A page that cannot be read, through the API: `docproc serve` in its own process on loopback, a PDF cut short inside
 * its last page's content stream. The results say so (the document's validation and the transaction's overall status
 * are `warning`, a rule result names the page and the reason), and a project whose Review step stops for documents
 * needing review stops for it (`awaiting_input`), as the CLI marks the file `review`. A whole file stays `success`.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { DEFAULT_PROJECT_RAW } from "../../src/core/project/default";
import { freePort, spawnServe, type Served } from "../support/process";
import { makeTempDir } from "../support/temp";
import { requestInit } from "../support/http";

const KEY = "unreadable-key";
const dir = makeTempDir("unreadable-api");
let server: Served;

beforeAll(async () => {
  server = await spawnServe({ dataDir: path.join(dir, "data"), port: await freePort(), key: KEY });
}, 30_000);
afterAll(async () => {
  server?.proc.kill("SIGTERM");
  await server?.proc.exited;
  rmSync(dir, { recursive: true, force: true });
});

const api = async (method: string, url: string, body?: unknown) => {
  const res = await fetch(`${server.base}${url}`, requestInit(method, { "x-api-key": KEY }, body));
  return { status: res.status, json: (await res.json()) as any };
};

/** Three pages of an invoice's text; `cut`: the file ends halfway through page 3's content stream. */
async function threePages(cut: boolean): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let p = 1; p <= 3; p++) {
    const page = pdf.addPage([595, 842]);
    page.drawText(p === 1 ? "INVOICE" : `Page ${p}`, { x: 50, y: 800, size: 14, font });
    for (let i = 0; i < 20; i++)
      page.drawText(`Page ${p} line ${i}: Invoice number INV-${p}${i} total 12.50`, {
        x: 50,
        y: 770 - i * 24,
        size: 11,
        font,
      });
  }
  const full = await pdf.save({ useObjectStreams: false });
  if (!cut) return full;
  const text = new TextDecoder("latin1").decode(full);
  const lastStream = text.lastIndexOf(">>\nstream\n");
  const end = text.indexOf("endstream", lastStream);
  return full.subarray(0, Math.floor((lastStream + end) / 2));
}

/**
 * Submits `pdf` to a new project with `workflow` in one call and waits (long poll) for the transaction to leave
 * processing; its documents, and its exported results file once completed.
 */
async function run(pdf: Uint8Array, workflow: unknown[]): Promise<{ transaction: any; results: any; exported: any }> {
  const project = await api("POST", "/tenants/default/projects", {
    name: `unreadable ${Math.random()}`,
    description: "",
    settings: { workflow },
  });
  expect(project.status).toBe(201);
  const started = await api("POST", `/tenants/default/projects/${project.json.project_id}/transactions/process`, {
    source_files: [{ filename: "scan.pdf", base64_data: Buffer.from(pdf).toString("base64") }],
  });
  expect(started.status).toBeLessThan(300);
  let transaction: any;
  for (const until = Date.now() + 120_000; Date.now() < until; ) {
    transaction = (await api("GET", started.json.poll_url)).json;
    if (!["created", "queued", "processing"].includes(transaction.status)) break;
  }
  const id = started.json.transaction_id as string;
  const documents = await api("GET", `/transactions/${id}/documents`);
  const manifest = await api("GET", `/transactions/${id}/exports`);
  const file = manifest.json.profiles.json?.files[0]?.filename;
  const exported = file ? (await api("GET", `/transactions/${id}/exports/download/${file}`)).json : null;
  return { transaction, results: documents.json, exported };
}

const workflowWithReview = (enabled: boolean) =>
  (DEFAULT_PROJECT_RAW.workflow as Array<Record<string, unknown>>).map((step) =>
    step.type === "review" ? { ...step, enabled } : step,
  );

describe("an unreadable page through the API", () => {
  test("the results warn with the page and the reason (document and transaction); the transaction completes", async () => {
    const { transaction, results, exported } = await run(await threePages(true), workflowWithReview(false));
    expect(transaction.status).toBe("completed");
    const warning = {
      rule_id: "page_unreadable",
      status: "warning",
      message: expect.stringMatching(/^page 3 \(scan\.pdf p\.3\) could not be read: \S/),
    };
    // The document the page ended up in (read as empty, it may be the separator the document was cut at).
    const doc = results.documents.find((d: any) =>
      d.validation?.rule_results.some((r: any) => r.rule_id === "page_unreadable"),
    );
    expect(doc.validation).toMatchObject({
      overall_status: "warning",
      rule_results: expect.arrayContaining([warning]),
    });
    expect(exported.validation).toMatchObject({
      overall_status: "warning",
      transaction_rule_results: expect.arrayContaining([warning]),
    });
    // Pages 1 and 2 were read: the document still has their text's fields.
    expect(doc.fields.invoice_number?.value).toBe("INV-10");
  }, 150_000);

  test("a Review step that stops for documents needing review stops for it: awaiting_input", async () => {
    const { transaction } = await run(await threePages(true), workflowWithReview(true));
    expect(transaction.status).toBe("awaiting_input");
  }, 150_000);

  test("the same file whole is read without such a warning", async () => {
    const { transaction, results } = await run(await threePages(false), workflowWithReview(false));
    expect(transaction.status).toBe("completed");
    expect(results.documents.flatMap((d: any) => d.validation?.rule_results ?? [])).not.toContainEqual(
      expect.objectContaining({ rule_id: "page_unreadable" }),
    );
  }, 150_000);
});
