/**
 * `docproc review --project FILE` teaches the project file: the real invoice2data pair coolblue1 → coolblue2.
 * coolblue1 is processed by the CLI, its header fields confirmed through the local review API and the review
 * finished; the project file then holds a memory, and coolblue2 processed with it is read at the remembered places.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startLocalReview } from "../../src/cli/review-run";
import { runCli } from "./helpers";
import { removeAll, tempDir } from "../support/temp";
import { waitFor } from "../support/wait";

const CORPUS = path.resolve(import.meta.dir, "../../fixtures/corpora/invoice2data");
const dirs: string[] = [];
afterAll(() => removeAll(dirs));

describe("docproc review teaches the project file", () => {
  test("confirm coolblue1 in review, then coolblue2 is read from memory", async () => {
    const dir = tempDir("review-memory", dirs);
    const project = path.join(dir, "shop.yaml");
    writeFileSync(project, "name: Shop\n");
    for (const n of ["coolblue1", "coolblue2"]) copyFileSync(path.join(CORPUS, `${n}.pdf`), path.join(dir, `${n}.pdf`));
    const out1 = path.join(dir, "out1");
    const p1 = await runCli(
      ["process", path.join(dir, "coolblue1.pdf"), "--project", project, "--out", out1, "--json"],
      { timeoutMs: 280_000 },
    );
    expect(p1.code).toBe(0);
    const id = JSON.parse(p1.stdout).files[0].transaction_id;

    const review = await startLocalReview({
      folder: out1,
      project,
      open: false,
      ocr: async () => {
        throw new Error("no OCR for a text PDF");
      },
      log: () => {},
    });
    try {
      const base = review.url.replace(/\/review$/, "");
      const call = async (method: string, body?: unknown) => {
        const res = await fetch(`${base}/transactions/${id}/review`, {
          method,
          headers: body ? { "content-type": "application/json" } : {},
          body: body ? JSON.stringify(body) : undefined,
        });
        return (await res.json()) as any;
      };
      // The first view reads the original again (words, page image); on a loaded machine that can outlast the
      // local server's 10 s request timeout, while the reading itself goes on: ask again.
      let view: any = await waitFor("the first review view", () => call("GET").catch(() => undefined), {
        timeoutMs: 120_000,
        everyMs: 500,
      });
      const doc = view.documents[0].document_id;
      const truth = {
        invoice_number: "993548900",
        invoice_date: "2014-04-19",
        total_amount: "717.97",
        vendor_vat_id: "NL810433941B01",
        iban: "NL50INGB0683251309",
      };
      for (const [field_id, value] of Object.entries(truth))
        view = await call("POST", { version: view.version, action: "set_field", document_id: doc, field_id, value });
      view = await call("POST", { version: view.version, action: "finish" });
      expect(view.finished ?? true).toBeTruthy();
    } finally {
      await review.stop();
    }
    const list = JSON.parse(
      (await runCli(["memory", "list", "--project", project, "--json"], { timeoutMs: 120_000 })).stdout,
    );
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      source: "review",
      class_id: "invoice",
      issuer: { vat_ids: ["NL810433941B01"], ibans: ["NL50INGB0683251309"] },
    });
    expect(readFileSync(project, "utf8")).toStartWith("name: Shop\n");

    const out2 = path.join(dir, "out2");
    const p2 = await runCli(
      ["process", path.join(dir, "coolblue2.pdf"), "--project", project, "--out", out2, "--json"],
      { timeoutMs: 280_000 },
    );
    expect(p2.code).toBe(0);
    const id2 = JSON.parse(p2.stdout).files[0].transaction_id;
    const fields = JSON.parse(readFileSync(path.join(out2, `${id2}_data.json`), "utf8")).documents[0].fields;
    expect(fields.invoice_number.value).toBe("992288600");
    expect(fields.total_amount.value).toBe(4904.94);
    expect(fields.invoice_number.reasoning).toMatch(
      /^as on the document confirmed on \d{4}-\d{2}-\d{2} \(issuer recognised by VAT ID NL810433941B01/,
    );
  }, 600_000);
});
