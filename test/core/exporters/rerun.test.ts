import { describe, expect, test } from "bun:test";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";
import { memorySink, runExports } from "../../../src/core/exporters";
import { describeExports, loadResultsFile, rerunExports } from "../../../src/core/stages/export";
import { buildFixture, TX } from "./fixtures";

describe("re-running exports over processed work", () => {
  test("a results folder plus the original files gives PDF and JPG exports again", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "docproc-rerun-"));
    try {
      const { ctx, sink } = await buildFixture();
      await runExports(ctx, [{ id: "json", name: "JSON", output_format: "json", options: { include_page_ocr: true } }]);
      await writeFile(path.join(dir, `${TX}_data.json`), sink.files.get(`${TX}_data.json`)!);
      const { results } = await loadResultsFile(dir);
      expect(results.transaction.project_version).toBe(7);
      const again = memorySink();
      const m = await rerunExports({
        results,
        sources: ctx.sources,
        sink: again,
        profiles: [
          { id: "pdf", name: "PDF", output_format: "pdf", options: { ocr_text_layer: true } },
          { id: "jpg", name: "JPG", output_format: "jpg", options: { resolution: "reduced", max_side: 300 } },
          { id: "csv", name: "CSV", output_format: "csv" },
        ],
      });
      expect(m.profiles.pdf!.status).toBe("success");
      expect(m.profiles.pdf!.files.map((f) => f.filename)).toEqual(["invoice_0.pdf", "receipt scan_1.pdf"]);
      expect(m.profiles.jpg!.files.map((f) => f.filename)).toEqual([
        "invoice_page_1.jpg",
        "invoice_page_2.jpg",
        "receipt scan_page_3.jpg",
      ]);
      const meta = await sharp(again.files.get("invoice_page_1.jpg")!).metadata();
      expect(Math.max(meta.width!, meta.height!)).toBe(300);
      expect(m.profiles.csv!.files).toHaveLength(1);
      const lines = describeExports(m, "out");
      expect(lines[0]).toBe("pdf (pdf): 2 files");
      expect(lines).toContain(path.join("out", "receipt scan_page_3.jpg").replace(/^/, "  "));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test("without the original files PDF and JPG fail with the reason while the other profiles succeed", async () => {
    const { ctx, sink } = await buildFixture();
    await runExports(ctx, [{ id: "json", name: "JSON", output_format: "json", options: { include_page_ocr: true } }]);
    const results = JSON.parse(new TextDecoder().decode(sink.files.get(`${TX}_data.json`)!));
    const m = await rerunExports({
      results,
      sources: [],
      sink: memorySink(),
      profiles: [
        { id: "pdf", name: "PDF", output_format: "pdf" },
        { id: "jpg", name: "JPG", output_format: "jpg" },
        { id: "xml", name: "XML", output_format: "xml" },
      ],
    });
    expect(m.profiles.pdf).toMatchObject({ status: "failed", files: [] });
    expect(m.profiles.pdf!.error).toContain("not available");
    expect(m.profiles.jpg).toMatchObject({ status: "failed", files: [] });
    expect(m.profiles.xml!.status).toBe("success");
    expect(m.total_files).toBe(1);
  });

  test("a folder without exactly one results file is rejected with invalid_input", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "docproc-rerun-"));
    try {
      await expect(loadResultsFile(dir)).rejects.toMatchObject({ code: "invalid_input" });
      await writeFile(path.join(dir, "x_data.json"), '{"hello":1}');
      await expect(loadResultsFile(dir)).rejects.toThrow(/not a docproc results file/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
