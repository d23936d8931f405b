/**
 * `docproc validate`: a table per file, --json, exit 1 when a file has a fatal rule, 2 for usage errors; folders
 * are walked; a PDF is checked through its attached e-invoice.
 */
import { afterAll, expect, test } from "bun:test";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { RULES_DIR } from "../core/einvoice/validate/cases";

const ROOT = path.resolve(import.meta.dir, "../..");
const CLI = path.join(ROOT, "src/cli.ts");
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const proc = Bun.spawn([process.execPath, CLI, "validate", ...args], {
    cwd: ROOT,
    env: { ...process.env, NO_COLOR: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, out, err };
}

test("valid, invalid, a Factur-X PDF and a foreign XML in a folder: table per file, --json, exit codes", async () => {
  const dir = await mkdtemp(path.join(tmpdir(), "validate-cli-"));
  dirs.push(dir);
  await mkdir(path.join(dir, "sub"));
  const valid = await readFile(
    path.join(RULES_DIR, "xrechnung/test/instances/ubl-inv/ubl-inv-br-de-1-test.xml"),
    "utf8",
  );
  await writeFile(path.join(dir, "a-valid.xml"), valid);
  await writeFile(path.join(dir, "sub", "b-invalid.xml"), valid.replace(/<cbc:ID>[^<]*<\/cbc:ID>/, ""));

  const ok = await cli(path.join(dir, "a-valid.xml"));
  expect(ok.code).toBe(0);
  expect(ok.out).toContain("a-valid.xml: VALID — ubl-invoice");
  expect(ok.out).toContain("rule sets: XML-structure, EN16931-UBL, XRechnung-UBL");
  // What XRechnung adds from Peppol is not checked, and the table says so.
  expect(ok.out).toMatch(/not evaluated: PEPPOL-EN16931-R\*: Peppol BIS rules \(artefacts unavailable\).*R001, R005/);

  const folder = await cli(dir);
  expect(folder.code).toBe(1);
  expect(folder.out).toMatch(/b-invalid\.xml: INVALID/);
  expect(folder.out).toMatch(
    /fatal\s+BR-02\s+\/ubl:Invoice\[1\]\s+\[BR-02\]-An Invoice shall have an Invoice number \(BT-1\)\./,
  );
  expect(folder.out).toContain("2 file(s): 1 valid, 1 invalid or unreadable");

  await copyFile(path.join(ROOT, "fixtures/inbox/born-digital-invoice.pdf"), path.join(dir, "sub", "c.pdf"));
  await writeFile(path.join(dir, "d-foreign.xml"), "<note><to>x</to></note>");
  await writeFile(path.join(dir, "e-broken.xml"), "<Invoice><unclosed></Invoice>");
  const json = await cli(dir, "--json");
  expect(json.code).toBe(1);
  const files = (
    JSON.parse(json.out) as {
      files: Array<{
        file: string;
        status: string;
        einvoice?: string;
        report?: { valid: boolean; results: Array<{ rule_id: string }> };
      }>;
    }
  ).files;
  const by = Object.fromEntries(files.map((f) => [path.relative(dir, f.file), f]));
  expect(Object.keys(by).sort()).toEqual([
    "a-valid.xml",
    "d-foreign.xml",
    "e-broken.xml",
    "sub/b-invalid.xml",
    "sub/c.pdf",
  ]);
  expect(by["a-valid.xml"]!.status).toBe("valid");
  expect(by["sub/c.pdf"]).toMatchObject({ status: "invalid", einvoice: "UBL-Invoice-2.1.xml" });
  expect(by["sub/c.pdf"]!.report!.results.map((r) => r.rule_id)).toContain("BR-01");
  expect(by["d-foreign.xml"]!.report!.results.map((r) => r.rule_id)).toEqual(["DOCPROC-SYNTAX"]);
  expect(by["e-broken.xml"]!.report!.results.map((r) => r.rule_id)).toEqual(["XML-WELLFORMED"]);
}, 120_000);

test("usage: no such file is exit 2 with a message", async () => {
  const r = await cli("/nonexistent/invoice.xml");
  expect(r.code).toBe(2);
  expect(r.err).toContain("/nonexistent/invoice.xml: no such file or folder");
}, 60_000);
