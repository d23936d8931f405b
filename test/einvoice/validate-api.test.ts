/**
 * Over real HTTP (`docproc serve` in its own process): an uploaded XRechnung XML without its invoice number comes
 * back from the API with its e-invoice rule results in the document's validation; a CII invoice that breaks the
 * CII D16B XML Schema comes back with the schema error, its XPath, and status error.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { freePort, spawnServe, type Served } from "../support/process";
import { makeTempDir } from "../support/temp";
import { requestInit } from "../support/http";
import { RULES_DIR } from "../core/einvoice/validate/cases";

const KEY = "einv-key";
const dir = makeTempDir("einv-api");
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
    json: res.headers.get("content-type")?.includes("json") ? ((await res.json()) as any) : null,
  };
};

/** Uploads one XML file as a transaction of a new project and gives the document's validation once it completed. */
async function validationOf(xml: string, filename: string): Promise<any> {
  const project = await api("POST", "/tenants/default/projects", { name: `E-invoices ${filename}` });
  const created = await api("POST", `/tenants/default/projects/${project.json.project_id}/transactions`, {});
  const form = new FormData();
  form.append("files", new File([xml], filename, { type: "application/xml" }));
  form.append("upload_tokens", "t1");
  expect((await api("POST", created.json.files_url, form)).status).toBeLessThan(300);
  const started = await api("POST", created.json.start_url, {});
  let status = "";
  for (
    const deadline = Date.now() + 120_000;
    Date.now() < deadline && status !== "completed" && status !== "failed";
  ) {
    status = (await api("GET", started.json.poll_url)).json.status;
  }
  expect(status).toBe("completed");
  const docs = (await api("GET", `/transactions/${created.json.transaction_id}/documents`)).json.documents;
  return docs[0].validation;
}

test("a transaction's documents carry the e-invoice rules that fired: id, severity, message, XPath", async () => {
  const xml = readFileSync(
    path.join(RULES_DIR, "xrechnung/test/instances/ubl-inv/ubl-inv-br-de-1-test.xml"),
    "utf8",
  ).replace(/<cbc:ID>[^<]*<\/cbc:ID>/, "");
  const v = await validationOf(xml, "xrechnung.xml");
  expect(v.overall_status).toBe("error");
  expect(v.rule_results.find((r: any) => r.rule_id === "BR-02")).toEqual({
    rule_id: "BR-02",
    status: "error",
    origin: "einvoice",
    severity: "fatal",
    xpath: "/ubl:Invoice[1]",
    message: "[BR-02]-An Invoice shall have an Invoice number (BT-1).",
    field_ids: ["invoice_number"],
  });
}, 180_000);

test("a CII invoice that breaks the CII D16B XML Schema: the schema error with its XPath, status error", async () => {
  const xml = readFileSync(path.join(RULES_DIR, "xrechnung/test/instances/cii/cii-br-de-1-test.xml"), "utf8").replace(
    "<ram:TypeCode>380</ram:TypeCode>",
    "<ram:TypeCode>380</ram:TypeCode><ram:Colour>red</ram:Colour>",
  );
  const v = await validationOf(xml, "xrechnung-cii.xml");
  expect(v.overall_status).toBe("error");
  const schema = v.rule_results.filter((r: any) => r.rule_id === "XSD-CII");
  expect(schema).toHaveLength(1);
  expect(schema[0]).toMatchObject({
    status: "error",
    severity: "fatal",
    origin: "einvoice",
    xpath: "/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:Colour",
  });
  expect(schema[0].message).toContain("UN/CEFACT CII D16B schema: Element");
  expect(v.rule_results[0].message).toContain("CII-D16B-XSD");
}, 180_000);
