import { describe, expect, test } from "bun:test";
import { renderTemplate, runExports, sanitizePath } from "../../../src/core/exporters";
import { FileNamer } from "../../../src/core/exporters/filename";
import { buildFixture, TX } from "./fixtures";

const values = {
  transaction_id: TX,
  document_id: "d1",
  document_index: 0,
  document_type: "invoice",
  source_stem: "scan",
  page_number: 4,
};

describe("file-name templates", () => {
  test("subfolders from the template are kept, placeholders filled", () => {
    expect(renderTemplate("{document_type}/{document_id}.pdf", values)).toBe("invoice/d1.pdf");
    expect(renderTemplate("{transaction_id}/{source_stem}_page_{page_number}.jpg", values)).toBe(
      `${TX}/scan_page_4.jpg`,
    );
  });

  test("hostile templates cannot traverse, go absolute or carry control or reserved characters", () => {
    const cases: Array<[string, string]> = [
      ["../../etc/passwd", "etc/passwd"],
      ["/etc/shadow", "etc/shadow"],
      ["C:\\Windows\\system32\\x.pdf", "C_/Windows/system32/x.pdf"],
      ["\\\\server\\share\\x", "server/share/x"],
      ["a/./b/../c", "a/b/c"],
      ["bad\u0000name\u0007\r\n.pdf", "badname.pdf"],
      ['what<>:"|?*.pdf', "what_______.pdf"],
      ["CON.pdf", "_CON.pdf"],
      ["trailing dots... /x", "trailing dots/x"],
      ["..", "export"],
      ["", "export"],
    ];
    for (const [raw, safe] of cases) expect(sanitizePath(raw)).toBe(safe);
    expect(sanitizePath("x".repeat(500)).length).toBe(120);
  });

  test("values cannot add folders or climb: a document type of ../../x stays one segment", () => {
    const out = renderTemplate("{document_type}/{document_id}.pdf", { ...values, document_type: "../../x" });
    expect(out.split("/")).toHaveLength(2);
    expect(out.split("/")).not.toContain("..");
    expect(renderTemplate("{document_type}.pdf", { ...values, document_type: "a/b\\c" })).toBe("a_b_c.pdf");
    expect(renderTemplate("{document_type}.pdf", { ...values, document_type: ".." })).toBe("_.pdf");
  });

  test("unknown placeholders and placeholders outside the profile's scope are errors", () => {
    expect(() => renderTemplate("{secret}.json", values)).toThrow(/unknown file-name placeholder \{secret\}/);
    expect(() => renderTemplate("{document_id}.json", { transaction_id: TX })).toThrow(/not available/);
  });

  test("collisions get _1, _2 before the extension, case-insensitively", () => {
    const namer = new FileNamer();
    expect(["a.pdf", "A.pdf", "a.pdf", "dir.v2/file", "dir.v2/file"].map((n) => namer.unique(n))).toEqual([
      "a.pdf",
      "A_1.pdf",
      "a_2.pdf",
      "dir.v2/file",
      "dir.v2/file_1",
    ]);
  });

  test("a per-document template without a document placeholder still yields one file per document", async () => {
    const { ctx, sink } = await buildFixture();
    const m = await runExports(ctx, [{ id: "pdf", name: "PDF", output_format: "pdf", filename: "../../same" }]);
    expect(m.profiles.pdf!.files.map((f) => f.filename)).toEqual(["same.pdf", "same_1.pdf"]);
    expect([...sink.files.keys()]).toEqual(["same.pdf", "same_1.pdf"]);
  });
});
