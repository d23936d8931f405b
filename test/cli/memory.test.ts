/**
 * `docproc memory` on a project file: learn from one document of a vendor (expected values beside it), list, show,
 * and see the gain with `docproc eval --compare` (the same project without memory against the one with it); forget.
 * The YAML file keeps its comments; a backup is kept.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import path from "node:path";
import { runCli } from "./helpers";
import { removeAll, tempDir } from "../support/temp";
import { northwind, otherVendor } from "../../fixtures/vendor-series/series";

const dirs: string[] = [];
afterAll(() => removeAll(dirs));
const T = { timeoutMs: 280_000 };

describe("docproc memory", () => {
  test("learn, list, show, the gain in eval --compare, forget", async () => {
    const dir = tempDir("cli-memory", dirs);
    const series = northwind(31337, 4);
    const project = path.join(dir, "vendors.yaml");
    writeFileSync(project, "# projects of the purchasing team\nname: Vendors\n");
    writeFileSync(path.join(dir, "plain.yaml"), "name: Vendors\n");
    // Series in subfolders: the vendor's later documents, and a vendor never taught (eval --compare per series).
    const evalDir = path.join(dir, "later");
    mkdirSync(path.join(evalDir, "northwind"), { recursive: true });
    mkdirSync(path.join(evalDir, "untaught"));
    for (const d of otherVendor(3, 2)) {
      writeFileSync(path.join(evalDir, "untaught", `${d.name}.txt`), d.text);
      writeFileSync(
        path.join(evalDir, "untaught", `${d.name}.json`),
        JSON.stringify({ class_id: "invoice", fields: d.truth }),
      );
    }
    series.forEach((d, i) => {
      const target = i === 0 ? dir : path.join(evalDir, "northwind");
      writeFileSync(path.join(target, `${d.name}.txt`), d.text);
      writeFileSync(path.join(target, `${d.name}.json`), JSON.stringify({ class_id: "invoice", fields: d.truth }));
    });
    expect((await runCli(["memory", "list", "--project", project], T)).stdout).toContain("no memories");

    const learn = await runCli(
      [
        "memory",
        "learn",
        path.join(dir, `${series[0]!.name}.txt`),
        "--expected",
        path.join(dir, `${series[0]!.name}.json`),
        "--project",
        project,
      ],
      T,
    );
    expect(learn.code).toBe(0);
    expect(learn.stdout).toMatch(/learned [0-9a-f-]{36} \(invoice; fields .*invoice_number.*; issuer BE0412345678\)/);
    expect(readFileSync(project, "utf8")).toStartWith("# projects of the purchasing team\n");
    expect(existsSync(`${project}.bak`)).toBe(true);

    const list = JSON.parse((await runCli(["memory", "list", "--project", project, "--json"], T)).stdout);
    expect(list.items).toHaveLength(1);
    const id = list.items[0].memory_id;
    const shown = JSON.parse((await runCli(["memory", "show", id, "--project", project], T)).stdout);
    expect(shown.fields.invoice_number).toMatchObject({ label: "Ref. doc", relation: "right" });

    const cmp = await runCli(["eval", evalDir, "--compare", `${path.join(dir, "plain.yaml")},${project}`], T);
    expect(cmp.code).toBe(0);
    expect(cmp.stdout).toContain("by series (subfolder)");
    // Without memory the series' invoice number, subtotal and tax are missed (its "Settle by" due date is read).
    expect(cmp.stdout).toMatch(/northwind\s+3\s+21\/30 = 0\.70\s+30\/30 = 1\.00\s+\+30\.0/);
    expect(cmp.stdout).toMatch(/untaught\s+2\s+(\d+)\/(\d+) = (\S+)\s+\1\/\2 = \3\s+\+0\.0/);

    // A further confirmation of the same vendor refines its memory instead of adding a second one.
    const again1 = await runCli(
      [
        "memory",
        "learn",
        path.join(evalDir, "northwind", `${series[1]!.name}.txt`),
        "--expected",
        path.join(evalDir, "northwind", `${series[1]!.name}.json`),
        "--project",
        project,
      ],
      T,
    );
    expect(again1.stdout).toMatch(new RegExp(`refined ${id} \\(invoice; 2 confirmations;`));
    expect(
      JSON.parse((await runCli(["memory", "list", "--project", project, "--json"], T)).stdout).items,
    ).toMatchObject([{ memory_id: id, confirmations: 2 }]);

    expect((await runCli(["memory", "forget", id, "--project", project], T)).code).toBe(0);
    expect(JSON.parse((await runCli(["memory", "list", "--project", project, "--json"], T)).stdout).items).toEqual([]);
    const again = await runCli(["memory", "forget", id, "--project", project], T);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain("has no memory");
  }, 600_000);

  test("usage errors: learn without --expected, a document that prints none of the expected values", async () => {
    const dir = tempDir("cli-memory-bad", dirs);
    const project = path.join(dir, "p.json");
    writeFileSync(project, "{}");
    writeFileSync(path.join(dir, "a.txt"), "INVOICE\nInvoice No: 5\nTotal 10.00\n");
    writeFileSync(path.join(dir, "a.json"), JSON.stringify({ fields: { invoice_number: "ZZ-999" } }));
    expect((await runCli(["memory", "learn", path.join(dir, "a.txt"), "--project", project], T)).code).toBe(2);
    const none = await runCli(
      ["memory", "learn", path.join(dir, "a.txt"), "--expected", path.join(dir, "a.json"), "--project", project],
      T,
    );
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("nothing learned");
    expect(readFileSync(project, "utf8")).toBe("{}");
  }, 300_000);
});
