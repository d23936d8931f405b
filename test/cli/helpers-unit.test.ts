import { afterAll, describe, expect, test } from "bun:test";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { DocprocError } from "../../src/core/errors";
import { collectInputs } from "../../src/batch/inputs";
import { ellipsize, renderTable } from "../../src/cli/table";
import { buildSummary, renderSummary } from "../../src/cli/summary";
import { createProgress } from "../../src/cli/progress";
import { removeAll, tempDir } from "../support/temp";

const dirs: string[] = [];
afterAll(() => removeAll(dirs));

async function tree(files: string[]): Promise<string> {
  const root = tempDir("inputs", dirs);
  for (const f of files) {
    await mkdir(path.dirname(path.join(root, f)), { recursive: true });
    await writeFile(path.join(root, f), "x");
  }
  return root;
}

describe("collectInputs", () => {
  test("walks folders recursively in sorted order and skips hidden files and folders", async () => {
    const root = await tree(["b.pdf", "a.pdf", "sub/c.png", ".hidden.pdf", ".git/x.pdf", "sub/.DS_Store", "A.tif"]);
    const { files } = await collectInputs([root]);
    expect(files.map((f) => path.relative(root, f))).toEqual(["A.tif", "a.pdf", "b.pdf", "sub/c.png"]);
  });

  test("skips non-document files found in folders but processes them when named explicitly", async () => {
    const root = await tree(["a.pdf", "SOURCES.md", "scan.JPEG", "notes.txt"]);
    const walked = await collectInputs([root]);
    expect(walked.files.map((f) => path.basename(f))).toEqual(["a.pdf", "scan.JPEG"]);
    expect(walked.skipped.map((f) => path.basename(f))).toEqual(["SOURCES.md", "notes.txt"]);
    const named = await collectInputs([path.join(root, "notes.txt")]);
    expect(named.files.map((f) => path.basename(f))).toEqual(["notes.txt"]);
  });

  test("lists a file once when it is given directly and inside a folder", async () => {
    const root = await tree(["a.pdf", "b.pdf"]);
    const { files } = await collectInputs([path.join(root, "a.pdf"), root]);
    expect(files.map((f) => path.basename(f))).toEqual(["a.pdf", "b.pdf"]);
  });

  test("does not walk into the excluded output folder", async () => {
    const root = await tree(["a.pdf", "docproc-out/x_data.json"]);
    const { files } = await collectInputs([root], { exclude: [path.join(root, "docproc-out")] });
    expect(files.map((f) => path.basename(f))).toEqual(["a.pdf"]);
  });

  test("rejects a missing path as invalid_input before doing anything", async () => {
    const err = await collectInputs(["/no/such/place.pdf"]).catch((e) => e);
    expect(err).toBeInstanceOf(DocprocError);
    expect(err.code).toBe("invalid_input");
    expect(err.message).toContain("/no/such/place.pdf");
  });
});

describe("renderTable", () => {
  test("pads columns to the widest cell and right-aligns numbers", () => {
    const out = renderTable(
      ["file", "pages"],
      [
        ["a.pdf", "1"],
        ["longer-name.pdf", "120"],
      ],
      ["left", "right"],
    );
    const lines = out.trimEnd().split("\n");
    expect(lines[0]).toBe("file             pages");
    expect(lines[2]).toBe("a.pdf                1");
    expect(lines[3]).toBe("longer-name.pdf    120");
  });

  test("ellipsize keeps both ends of a long name", () => {
    expect(ellipsize("a-very-long-file-name.pdf", 11)).toBe("a-ver…e.pdf");
    expect(ellipsize("short.pdf", 20)).toBe("short.pdf");
  });
});

describe("renderSummary", () => {
  const base = {
    transaction_id: "t",
    pages: 1,
    page_count: 1,
    text_source: "text layer",
    documents: 1,
    seconds: 0.5,
    results_file: "/out/t_data.json",
    exports: ["/out/t_data.json"],
    warnings: [],
    errors: [],
    found: [{ document_type: "Invoice", key_fields: { invoice_number: "A-1", total_amount: 10 }, needs_review: [] }],
    needs_review: 0,
    validation: "success" as const,
    unreadable_pages: [],
  };

  test("lists each failure with its reason, code and stage, and counts what succeeded", () => {
    const summary = buildSummary(
      "0.1.0",
      "/out",
      [
        { ...base, file: "in/a.pdf", status: "success" },
        {
          ...base,
          file: "in/b.pdf",
          status: "failure",
          pages: 0,
          exports: [],
          results_file: null,
          errors: [{ stage: "convert", code: "corrupt_file", message: "b.pdf: broken xref" }],
          found: [],
        },
      ],
      1.25,
      ["in/README.md"],
    );
    expect(summary.failed).toBe(1);
    const text = renderSummary(summary, 100);
    expect(text).toMatch(/^file\s+pages\s+text\s+type\s+check\s+time\s+status$/m);
    expect(text).toContain("1 file failed:");
    expect(text).toContain("in/b.pdf: broken xref [corrupt_file, convert]");
    expect(text).toContain("Skipped (not a document type docproc reads): in/README.md");
    expect(text).toContain("Exports in /out:\n  a.pdf → t_data.json");
    expect(text).toContain("1 of 2 files processed in 1.3 s; 1 export file written to /out");
  });

  test("a file with fields to check is `review`: processed, its fields named, docproc review suggested", () => {
    const found = [
      {
        document_type: "Invoice",
        key_fields: { invoice_number: "993548900", total_amount: 717.97 },
        needs_review: ["Vendor name", "Subtotal"],
      },
    ];
    const summary = buildSummary(
      "0.1.0",
      "/out",
      [
        { ...base, file: "in/photo.jpg", status: "review", found, needs_review: 2, validation: "warning" },
        { ...base, file: "in/a.pdf", status: "success" },
      ],
      1,
    );
    expect(summary).toMatchObject({ succeeded: 2, failed: 0, needs_review: 1 });
    const text = renderSummary(summary, 100);
    expect(text).toMatch(/in\/photo\.jpg\s+1\s+text layer\s+Invoice\s+2\s+0\.5 s\s+review/);
    expect(text).toContain("Found:\n  photo.jpg: Invoice: 993548900 · 717.97\n  a.pdf: Invoice: A-1 · 10");
    expect(text).toContain(
      "1 file needs review:\n  photo.jpg: check Vendor name, Subtotal; validation warning\n  Open them with: docproc review /out",
    );
    expect(text).toContain("2 of 2 files processed in 1.0 s (1 to review);");
    expect(text).not.toContain("failed");
  });

  test("shows processed/total pages when a page limit cut a file short", () => {
    const text = renderSummary(
      buildSummary("0.1.0", "/out", [{ ...base, file: "big.pdf", status: "success", pages: 10, page_count: 2000 }], 1),
      100,
    );
    expect(text).toMatch(/big\.pdf\s+10\/2000\s+text layer/);
  });
});

describe("createProgress", () => {
  test("draws nothing when the stream is not a TTY", () => {
    const writes: string[] = [];
    const stream = { isTTY: false, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream;
    const p = createProgress(stream, 3);
    p.start("a", "a.pdf");
    p.step("a", "ocr", 1, 2);
    p.finish("a");
    p.stop();
    expect(writes).toEqual([]);
  });

  test("draws a bar with files done and the current step on a TTY", () => {
    const writes: string[] = [];
    const stream = { isTTY: true, columns: 100, write: (s: string) => writes.push(s) } as unknown as NodeJS.WriteStream;
    const p = createProgress(stream, 2);
    p.start("a", "a.pdf");
    p.finish("a");
    p.start("b", "scan.tif");
    const last = writes.at(-1)!;
    p.stop();
    expect(last).toContain("1/2 files");
    expect(last).toContain("scan.tif convert");
    expect(last).toContain("████████████░░░░░░░░░░░░");
  });
});
