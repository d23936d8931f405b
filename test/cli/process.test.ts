/**
 * End-to-end: the real CLI spawned on the sample inbox (real PDFs and images, real OCR), plus small batches with a
 * broken file. The inbox run happens once and its outputs are checked by several tests.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFile, readdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { removeAll, tempDir } from "../support/temp";
import { INBOX, runCli, type CliRun } from "./helpers";

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const BORN_DIGITAL = path.join(INBOX, "born-digital-invoice.pdf");
const ENCRYPTED = path.resolve(INBOX, "../corpora/pdf-robustness/paperless/password-is-test.pdf"); // password "test"

const temps: string[] = [];
afterAll(() => removeAll(temps));

interface SummaryFile {
  file: string;
  transaction_id: string;
  status: string;
  pages: number;
  page_count: number;
  text_source: string;
  documents: number;
  results_file: string | null;
  exports: string[];
  errors: Array<{ stage: string; code: string; message: string }>;
  validation?: string;
}
interface Summary {
  total: number;
  succeeded: number;
  failed: number;
  out_dir: string;
  files: SummaryFile[];
  skipped: string[];
}

const byName = (s: Summary, name: string) => s.files.find((f) => path.basename(f.file) === name)!;

describe("docproc process on the sample inbox", () => {
  let run: CliRun;
  let summary: Summary;
  let out: string;

  beforeAll(async () => {
    out = path.join(tempDir("cli", temps), "out");
    run = await runCli(["process", INBOX, "--out", out, "--json"], { timeoutMs: 240_000 });
    summary = JSON.parse(run.stdout) as Summary;
  }, 250_000);

  test("exits 0 with every document of the inbox processed and the provenance note skipped", () => {
    expect(run.stderr).not.toContain("internal error");
    expect(run.code).toBe(0);
    expect(summary.total).toBe(5);
    expect(summary.succeeded).toBe(5);
    expect(summary.failed).toBe(0);
    expect(summary.skipped.map((f) => path.basename(f))).toEqual(["SOURCES.md"]);
    expect(summary.out_dir).toBe(path.resolve(out));
  });

  test("gives each file its own uuid v4 transaction and a results file named after it", async () => {
    const ids = summary.files.map((f) => f.transaction_id);
    expect(new Set(ids).size).toBe(5);
    for (const f of summary.files) {
      expect(f.transaction_id).toMatch(UUID_V4);
      expect(f.results_file).toBe(path.join(out, `${f.transaction_id}_data.json`));
      expect(await Bun.file(f.results_file!).exists()).toBe(true);
    }
    expect((await readdir(out)).filter((n) => n.endsWith("_data.json"))).toHaveLength(5);
  });

  test("reads the born-digital PDF from its text layer and OCRs the scans", () => {
    expect(byName(summary, "born-digital-invoice.pdf").text_source).toBe("text layer");
    for (const name of ["scanned-invoice.pdf", "phone-photo.jpg", "rotated-scan-90.png", "multi-page-fax.tif"]) {
      expect(byName(summary, name).text_source).toBe("OCR");
    }
    const tiff = byName(summary, "multi-page-fax.tif");
    expect(tiff.pages).toBe(2);
    expect(tiff.page_count).toBe(2);
  });

  test("writes results files in the shape of the spec's JSON results file", async () => {
    const f = byName(summary, "multi-page-fax.tif");
    const results = await Bun.file(f.results_file!).json();
    expect(results.transaction_id).toBe(f.transaction_id);
    expect(typeof results.tenant_id).toBe("string");
    expect(typeof results.project_id).toBe("string");
    const t = results.transaction;
    expect(Date.parse(t.exported_at)).not.toBeNaN();
    expect(Date.parse(t.created_at)).not.toBeNaN();
    expect(t.source_file_names).toEqual(["multi-page-fax.tif"]);
    expect(Number.isInteger(t.project_version)).toBe(true);
    expect(t.correlation_id).toBeNull();
    expect(t.source).toBe("cli");
    expect(typeof t.metadata).toBe("object");
    expect(t.last_human_review).toEqual({ reviewed: false });
    expect(["success", "warning", "error"]).toContain(results.validation.overall_status);
    expect(Array.isArray(results.validation.transaction_rule_results)).toBe(true);
    expect(results.documents.length).toBeGreaterThanOrEqual(1);
    for (const [i, doc] of results.documents.entries()) {
      expect(doc.document_index).toBe(i);
      expect(typeof doc.document_id).toBe("string");
      expect(typeof doc.document_type).toBe("string");
      expect(typeof doc.classification_confidence).toBe("number");
      for (const key of [
        "class_id",
        "type",
        "confidence",
        "reasoning",
        "alternatives",
        "confirmed",
        "review_required",
      ]) {
        expect(doc.classification).toHaveProperty(key);
      }
      expect(typeof doc.split).toBe("object");
      expect(typeof doc.fields).toBe("object");
    }
    expect(results.pages.map((p: { page_number: number }) => p.page_number)).toEqual([1, 2]);
    for (const p of results.pages) {
      expect(p.transaction_page_number).toBe(p.page_number);
      expect(p.source_filename).toBe("multi-page-fax.tif");
      expect(p.source_file_page_number).toBe(p.page_number);
      expect(p.image_transform).toMatchObject({
        source_unit: "pixel",
        effective_dpi: null,
        coordinate_system: "top-left-origin",
      });
    }
  });

  test("records the quarter turn of the sideways scan in image_transform.rotation", async () => {
    const results = await Bun.file(byName(summary, "rotated-scan-90.png").results_file!).json();
    // The image was turned 90° clockwise, so it needs 270° clockwise to read upright (model.ts convention).
    expect(results.pages[0].image_transform.rotation).toBe(270);
  });

  test("gives a PDF page an effective DPI of render_scale × 72", async () => {
    const results = await Bun.file(byName(summary, "born-digital-invoice.pdf").results_file!).json();
    const it = results.pages[0].image_transform;
    expect(it.source_unit).toBe("point");
    expect(it.effective_dpi).toBeCloseTo(it.render_scale * 72, 6);
  });
});

describe("docproc process with bad input", () => {
  test("lists a corrupted file with its reason, processes the rest, and exits 1", async () => {
    const dir = tempDir("cli", temps);
    await copyFile(BORN_DIGITAL, path.join(dir, "a-good.pdf"));
    const bytes = await Bun.file(BORN_DIGITAL).bytes();
    // Cut before the first page object: nothing is left to rebuild (a file cut after its pages is repaired since the
    // xref rebuild of core/engines/pdf/pdf-repair.ts, tested in test/core/engines/pdf/repair.test.ts).
    await writeFile(path.join(dir, "b-truncated.pdf"), bytes.slice(0, 60));
    await writeFile(path.join(dir, "c-not-a-pdf.pdf"), "MZ\x90\x00 this is an executable, renamed");
    await writeFile(path.join(dir, "d-empty.pdf"), "");
    const out = path.join(dir, "out");

    const json = await runCli(["process", dir, "--out", out, "--json"]);
    expect(json.code).toBe(1);
    const summary = JSON.parse(json.stdout) as Summary;
    expect(summary.succeeded).toBe(1);
    expect(summary.failed).toBe(3);
    expect(byName(summary, "d-empty.pdf").errors[0]!.code).toBe("empty_file");
    // Its embedded UBL (an old ERP's, no EN 16931 claim) is checked, but what fires is information only: validation
    // success. (The file itself is `review`: its bank account is no IBAN, so nothing confirms it.)
    expect(byName(summary, "a-good.pdf").validation).toBe("success");
    expect(byName(summary, "a-good.pdf").status).toBe("review");
    for (const name of ["b-truncated.pdf", "c-not-a-pdf.pdf", "d-empty.pdf"]) {
      const f = byName(summary, name);
      expect(f.status).toBe("failure");
      expect(f.errors[0]!.message.length).toBeGreaterThan(0);
      expect(["corrupt_file", "unsupported_format", "empty_file"]).toContain(f.errors[0]!.code);
    }

    const human = await runCli(["process", dir, "--out", out]);
    expect(human.code).toBe(1);
    expect(human.stdout).toContain("3 files failed:");
    // The file is named once per failure line, whether the reason itself names it or not.
    expect(human.stdout).toMatch(/c-not-a-pdf\.pdf(:| is) .+\[(unsupported_format|corrupt_file)/);
    const line = human.stdout
      .split("\n")
      .find((l) => l.startsWith("  ") && l.includes("c-not-a-pdf.pdf") && l.includes("["))!;
    expect(line.split("c-not-a-pdf.pdf").length).toBe(2);
    expect(human.stdout).toContain("1 of 4 files processed");
  }, 90_000);

  test("a path that does not exist is a usage error (exit 2) and nothing is processed", async () => {
    const out = path.join(tempDir("cli", temps), "out");
    const r = await runCli(["process", BORN_DIGITAL, "/no/such/inbox", "--out", out]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("no such file or folder: /no/such/inbox");
    expect(await Bun.file(out).exists()).toBe(false);
  }, 90_000);

  test("an invalid --project file exits 4 listing every problem before any file is processed", async () => {
    const dir = tempDir("cli", temps);
    const project = path.join(dir, "bad.yaml");
    await writeFile(project, "classes: []\nlocale: 7\n");
    const out = path.join(dir, "out");
    const r = await runCli(["process", BORN_DIGITAL, "--project", project, "--out", out]);
    expect(r.code).toBe(4);
    expect(r.stderr).toContain("classes");
    expect(r.stderr).toContain("locale");
    expect(await Bun.file(out).exists()).toBe(false);
  }, 90_000);

  test("an unknown export format is a usage error (exit 2)", async () => {
    const r = await runCli([
      "process",
      BORN_DIGITAL,
      "--format",
      "json,docx",
      "--out",
      path.join(tempDir("cli", temps), "o"),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("docx");
  }, 90_000);
});

describe("docproc process options", () => {
  test("--password opens an encrypted PDF; without it or with a wrong one the file fails with a clear code", async () => {
    const out = path.join(tempDir("cli", temps), "out");
    const run = async (...extra: string[]) => {
      const r = await runCli(["process", ENCRYPTED, "--out", out, "--json", ...extra]);
      return { code: r.code, file: (JSON.parse(r.stdout) as Summary).files[0]! };
    };
    const none = await run();
    expect(none.code).toBe(1);
    expect(none.file.errors[0]!.code).toBe("encrypted_file");
    const wrong = await run("--password", "nope");
    expect(wrong.code).toBe(1);
    expect(wrong.file.errors[0]!.code).toBe("wrong_password");
    const right = await run("--password", "test");
    expect(right.code).toBe(0);
    expect(["success", "review"]).toContain(right.file.status); // processed; `review` when a field is flagged
    expect(right.file.documents).toBeGreaterThan(0);
  }, 90_000);

  test("--format json,csv writes both files and lists them in the summary", async () => {
    const out = path.join(tempDir("cli", temps), "out");
    const r = await runCli(["process", BORN_DIGITAL, "--out", out, "--format", "json,csv", "--json"]);
    expect(r.code).toBe(0);
    const f = (JSON.parse(r.stdout) as Summary).files[0]!;
    expect(f.exports.some((p) => p.endsWith(".csv"))).toBe(true);
    expect(f.exports.some((p) => p.endsWith("_data.json"))).toBe(true);
    for (const p of f.exports) expect(await Bun.file(p).exists()).toBe(true);
  }, 90_000);

  test("--page-limit 1 processes one page of a two-page TIFF and still reports its page count", async () => {
    const out = path.join(tempDir("cli", temps), "out");
    const r = await runCli(
      ["process", path.join(INBOX, "multi-page-fax.tif"), "--out", out, "--page-limit", "1", "--json"],
      { timeoutMs: 120_000 },
    );
    expect(r.code).toBe(0);
    const f = (JSON.parse(r.stdout) as Summary).files[0]!;
    expect(f.pages).toBe(1);
    expect(f.page_count).toBe(2);
  }, 90_000);
});
