/**
 * End to end over real HTTP: `docproc serve` in its own process, real pipeline, text-layer invoices from the shared
 * corpus. Compares the served JSON results with what `docproc process` writes for the same files.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { freePort, ROOT, spawnServe, type Served } from "../support/process";
import { makeTempDir } from "../support/temp";
import { requestInit } from "../support/http";

const CORPUS = path.resolve(ROOT, "fixtures/corpora/invoice2data");
const KEY = "e2e-key";
const dir = makeTempDir("e2e");
let server: Served;

beforeAll(async () => {
  server = await spawnServe({ dataDir: path.join(dir, "data"), port: await freePort(), key: KEY });
});
afterAll(async () => {
  server?.proc.kill("SIGTERM");
  await server?.proc.exited;
  rmSync(dir, { recursive: true, force: true });
});

const api = async (method: string, url: string, body?: unknown) => {
  const res = await fetch(`${server.base}${url}`, requestInit(method, { "x-api-key": KEY }, body));
  return {
    status: res.status,
    res,
    json: res.headers.get("content-type")?.includes("json") ? ((await res.json()) as any) : null,
  };
};

const pdf = (name: string) => new File([readFileSync(path.join(CORPUS, name))], name, { type: "application/pdf" });
const upload = (files: Array<[File, string, string?]>) => {
  const f = new FormData();
  for (const [file, token, as] of files) {
    f.append("files", as ? new File([file], as, { type: file.type }) : file);
    f.append("upload_tokens", token);
  }
  return f;
};
const blobCount = () =>
  readdirSync(path.join(dir, "data", "blobs", "sha256"), { recursive: true }).filter((f) => String(f).length > 10)
    .length;

/** What must agree between server and CLI: per document its type and field values. */
const essence = (results: any) =>
  results.documents.map((d: any) => ({
    type: d.document_type,
    fields: Object.fromEntries(Object.entries(d.fields).map(([k, f]: any) => [k, f.value])),
  }));

test("serve: project, transaction, three uploads (token repeat, renamed name), start, long poll, manifest, download", async () => {
  const project = await api("POST", "/tenants/default/projects", { name: "E2E", description: "invoices" });
  expect(project.status).toBe(201);
  const created = await api("POST", `/tenants/default/projects/${project.json.project_id}/transactions`, {
    correlation_id: "e2e-1",
  });
  const id = created.json.transaction_id as string;

  const first = await api("POST", created.json.files_url, upload([[pdf("AmazonWebServices.pdf"), "tok-aws"]]));
  expect(first.json.uploaded_files[0]).toMatchObject({ index: 0, filename: "AmazonWebServices.pdf", duplicate: false });
  const blobs = blobCount();
  const retry = await api("POST", created.json.files_url, upload([[pdf("AmazonWebServices.pdf"), "tok-aws"]]));
  expect(retry.json.uploaded_files[0]).toMatchObject({ index: 0, duplicate: true });
  expect(blobCount()).toBe(blobs);
  const more = await api(
    "POST",
    created.json.files_url,
    upload([
      [pdf("AzureInterior.pdf"), "tok-az", "invoice.pdf"],
      [pdf("FlipkartInvoice.pdf"), "tok-fk", "invoice.pdf"],
    ]),
  );
  expect(more.json.uploaded_files.map((f: any) => [f.index, f.filename])).toEqual([
    [1, "invoice.pdf"],
    [2, "invoice_1.pdf"],
  ]);
  expect(more.json.total_files).toBe(3);

  const started = await api("POST", created.json.start_url, {});
  expect(started.json.status).toBe("processing");
  let status = "";
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const t = await api("GET", `${started.json.poll_url}`);
    status = t.json.status;
    if (status === "completed" || status === "failed") {
      expect(t.json.error_message).toBeUndefined();
      expect(t.json.processing_time_seconds).toBeGreaterThan(0);
      expect(t.json.metadata.progress.completion_percentage).toBe(100);
      break;
    }
  }
  expect(status).toBe("completed");

  const health = await api("GET", "/health");
  expect(health.json).toMatchObject({ status: "ok", database: { status: "ok" }, ocr: { status: "ready" } });

  const manifest = await api("GET", `/transactions/${id}/exports`);
  const jsonFile =
    manifest.json.profiles.json?.files.find((f: any) => f.filename === `${id}_data.json`) ??
    Object.values(manifest.json.profiles)
      .flatMap((p: any) => p.files)
      .find((f: any) => f.filename.endsWith("_data.json"));
  expect(jsonFile).toBeDefined();
  const download = await api("GET", `/transactions/${id}/exports/download/${jsonFile.filename}`);
  expect(download.res.headers.get("content-type")).toBe("application/json");
  expect(download.res.headers.get("content-disposition")).toStartWith("attachment;");
  const results = download.json;
  expect(results.transaction_id).toBe(id);
  expect(results.transaction.source_file_names).toEqual(["AmazonWebServices.pdf", "invoice.pdf", "invoice_1.pdf"]);
  expect(results.transaction.correlation_id).toBe("e2e-1");
  const documents = await api("GET", `/transactions/${id}/documents`);
  expect(documents.json.documents.map((d: any) => d.document_id)).toEqual(
    results.documents.map((d: any) => d.document_id),
  );

  // The same three files through `docproc process`: the same documents, types and field values.
  const inbox = path.join(dir, "inbox");
  await Bun.write(
    path.join(inbox, "1", "AmazonWebServices.pdf"),
    readFileSync(path.join(CORPUS, "AmazonWebServices.pdf")),
  );
  await Bun.write(path.join(inbox, "2", "invoice.pdf"), readFileSync(path.join(CORPUS, "AzureInterior.pdf")));
  await Bun.write(path.join(inbox, "3", "invoice_1.pdf"), readFileSync(path.join(CORPUS, "FlipkartInvoice.pdf")));
  const out = path.join(dir, "cli-out");
  const cli = Bun.spawnSync(
    [
      path.join(ROOT, "node_modules/.bin/bun"),
      "src/cli.ts",
      "process",
      path.join(inbox, "1"),
      path.join(inbox, "2"),
      path.join(inbox, "3"),
      "--out",
      out,
      "--json",
    ],
    { cwd: ROOT },
  );
  expect(cli.exitCode).toBe(0);
  const order = ["AmazonWebServices.pdf", "invoice.pdf", "invoice_1.pdf"];
  const cliDocs = readdirSync(out, { recursive: true })
    .map(String)
    .filter((f) => f.endsWith("_data.json"))
    .map((f) => JSON.parse(readFileSync(path.join(out, f), "utf8")))
    .sort(
      (a, b) => order.indexOf(a.transaction.source_file_names[0]) - order.indexOf(b.transaction.source_file_names[0]),
    )
    .flatMap(essence);
  expect(essence(results)).toEqual(cliDocs);
}, 180_000);
