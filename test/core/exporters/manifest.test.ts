import { describe, expect, test } from "bun:test";
import { mkdtemp, readFile, readdir, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { DocprocError } from "../../../src/core/errors";
import {
  defaultJsonProfile,
  folderSink,
  profilesForFormats,
  runExports,
  type ExportProfileInput,
} from "../../../src/core/exporters";
import { buildFixture, FIXED_NOW, TX } from "./fixtures";

describe("export manifest", () => {
  test("lists every file of every profile with exports/ paths, sizes, document ids and totals", async () => {
    const { ctx, sink } = await buildFixture();
    const manifest = await runExports(ctx, [
      defaultJsonProfile,
      ...profilesForFormats(["csv,xlsx", "xml", "pdf", "jpg"]),
    ]);
    expect(manifest.transaction_id).toBe(TX);
    expect(JSON.parse(new TextDecoder().decode(sink.files.get(`${TX}_data.json`)!)).transaction.project_version).toBe(
      7,
    );
    expect(Object.keys(manifest.profiles)).toEqual(["json", "csv", "xlsx", "xml", "pdf", "jpg"]);
    const json = manifest.profiles.json!;
    expect(json).toMatchObject({
      profile_id: "json",
      profile_name: "JSON results",
      output_format: "json",
      scope_mode: "per_transaction",
      status: "success",
    });
    expect(json.files).toEqual([
      {
        filename: `${TX}_data.json`,
        path: `exports/${TX}_data.json`,
        size_bytes: sink.files.get(`${TX}_data.json`)!.byteLength,
        document_ids: ["doc-invoice", "doc-receipt"],
        created_at: FIXED_NOW.toISOString(),
      },
    ]);
    expect(manifest.profiles.pdf!.files.map((f) => [f.filename, f.document_ids])).toEqual([
      ["invoice_0.pdf", ["doc-invoice"]],
      ["receipt scan_1.pdf", ["doc-receipt"]],
    ]);
    expect(manifest.profiles.jpg!.scope_mode).toBe("per_page");
    expect(manifest.profiles.jpg!.files.map((f) => f.filename)).toEqual([
      "invoice_page_1.jpg",
      "invoice_page_2.jpg",
      "receipt scan_page_3.jpg",
    ]);
    const all = Object.values(manifest.profiles).flatMap((p) => p.files);
    expect(manifest.total_files).toBe(all.length);
    expect(manifest.total_files).toBe(sink.files.size);
    expect(manifest.total_size_bytes).toBe([...sink.files.values()].reduce((s, d) => s + d.byteLength, 0));
    for (const f of all) expect(f.size_bytes).toBe(sink.files.get(f.filename)!.byteLength);
  });

  test("a failing profile carries error and empty files while the others succeed", async () => {
    const { ctx } = await buildFixture();
    const broken = ctx.pages.map((p) =>
      p.page_number === 2
        ? {
            ...p,
            render: async () => {
              throw new Error("raster lost");
            },
          }
        : p,
    );
    const profiles: ExportProfileInput[] = [
      { id: "bad-template", name: "Bad", output_format: "json", filename: "{no_such_thing}.json" },
      { id: "jpg", name: "Pages", output_format: "jpg" },
      { id: "bad-options", name: "Bad options", output_format: "csv", options: { delimiter: "\n" } },
      defaultJsonProfile,
    ];
    const manifest = await runExports({ ...ctx, pages: broken }, profiles);
    expect(manifest.profiles["bad-template"]).toMatchObject({ status: "failed", files: [] });
    expect(manifest.profiles["bad-template"]!.error).toContain("{no_such_thing}");
    expect(manifest.profiles.jpg).toMatchObject({ status: "failed", files: [], error: "raster lost" });
    expect(manifest.profiles["bad-options"]!.error).toContain("options.delimiter");
    expect(manifest.profiles.json).toMatchObject({ status: "success" });
    expect(manifest.profiles.json!.files).toHaveLength(1);
    expect(manifest.total_files).toBe(1);
  });

  test("no profiles gives an empty profiles object and zero totals", async () => {
    const { ctx, sink } = await buildFixture();
    expect(await runExports(ctx, [])).toEqual({
      transaction_id: TX,
      profiles: {},
      total_files: 0,
      total_size_bytes: 0,
    });
    expect(sink.files.size).toBe(0);
  });

  test("colliding names across profiles get numeric suffixes and a repeated profile id runs once", async () => {
    const { ctx, sink } = await buildFixture();
    const manifest = await runExports(ctx, [
      defaultJsonProfile,
      { id: "again", name: "Same name", output_format: "json", filename: "{transaction_id}_DATA.json" },
      { ...defaultJsonProfile, name: "duplicate id" },
    ]);
    expect(manifest.profiles.again!.files[0]!.filename).toBe(`${TX}_DATA_1.json`);
    expect(manifest.profiles.json!.status).toBe("partial");
    expect(manifest.profiles.json!.warnings![0]).toContain("ignored");
    expect(sink.files.size).toBe(2);
  });

  test("profilesForFormats rejects unknown formats naming the allowed ones", () => {
    expect(profilesForFormats(["json,JPEG", "json"]).map((p) => p.id)).toEqual(["json", "jpg"]);
    expect(() => profilesForFormats(["json,docx"])).toThrow(/docx.*allowed: json, csv, xlsx, xml, pdf, jpg/);
    try {
      profilesForFormats([""]);
      throw new Error("expected a throw");
    } catch (err) {
      expect(err).toBeInstanceOf(DocprocError);
      expect((err as DocprocError).code).toBe("invalid_input");
    }
  });
});

describe("folder sink", () => {
  test("writes subfolders inside the export folder and refuses paths that leave it", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "docproc-export-"));
    try {
      const { ctx } = await buildFixture();
      const sink = folderSink(dir);
      const manifest = await runExports({ ...ctx, sink }, [
        { id: "pdf", name: "PDF", output_format: "pdf", filename: "{document_type}/{document_id}.pdf" },
      ]);
      expect(manifest.profiles.pdf!.files.map((f) => f.filename)).toEqual([
        "invoice/doc-invoice.pdf",
        "receipt/doc-receipt.pdf",
      ]);
      expect((await readFile(path.join(dir, "invoice/doc-invoice.pdf"))).subarray(0, 5).toString()).toBe("%PDF-");
      for (const evil of ["../escape.txt", "/etc/passwd", "a/../../x", "C:\\x"]) {
        await expect(sink.write(evil, "x")).rejects.toThrow(/export/);
      }
      await symlink(tmpdir(), path.join(dir, "link"));
      await expect(sink.write("link/escaped.txt", "x")).rejects.toThrow(/leaves the export folder/);
      expect(await readdir(dir)).toEqual(expect.arrayContaining(["invoice", "receipt", "link"]));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
