import { describe, expect, test } from "bun:test";
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { buildJsonExport, correctedResults, rotateBox, runExports } from "../../../src/core/exporters";
import type { ResultsFile } from "../../../src/core/model";
import { buildFixture, FIXED_NOW, hostile, TX } from "./fixtures";

const decode = (b: Uint8Array) => new TextDecoder().decode(b);

describe("JSON export", () => {
  test("the default profile writes the full results file with exported_at and project_version", async () => {
    const { ctx, sink } = await buildFixture();
    await runExports(ctx, [{ id: "json", name: "JSON", output_format: "json" }]);
    const data = JSON.parse(decode(sink.files.get(`${TX}_data.json`)!));
    expect(data.transaction.project_version).toBe(7);
    expect(data.transaction.exported_at).toBe(FIXED_NOW.toISOString());
    expect(data.documents[0].fields.total).toMatchObject({ name: "Total", value: 1234.5, confidence: 0.9 });
    expect(data.documents[1].validation.overall_status).toBe("warning");
    expect(data.pages.map((p: { page_number: number }) => p.page_number)).toEqual([1, 2, 3]);
    expect(data.pages[0]).not.toHaveProperty("words");
    expect(data).not.toHaveProperty("orientation");
  });

  test("value-only fields, field subset, validation and pages switched off", async () => {
    const { ctx } = await buildFixture();
    const out = buildJsonExport(ctx.results, {
      include_extraction_metadata: false,
      field_ids: ["total", "nope"],
      include_validation: false,
      include_pages: false,
    }) as any;
    expect(out.documents.map((d: any) => d.fields)).toEqual([{ total: 1234.5 }, { total: 42 }]);
    expect(out).not.toHaveProperty("validation");
    expect(out.documents[1]).not.toHaveProperty("validation");
    expect(out).not.toHaveProperty("pages");
  });

  test("page OCR data adds word boxes and text to pages", async () => {
    const { ctx } = await buildFixture();
    const out = buildJsonExport(ctx.results, { include_pages: false, include_page_ocr: true }) as any;
    expect(out.pages[2].words[0]).toMatchObject({ text: "Receipt", bounding_box: expect.any(Array) });
    expect(out.pages[2].text).toContain("TOTAL");
  });

  test("per-document scope writes one file per document with only its pages", async () => {
    const { ctx, sink } = await buildFixture();
    const m = await runExports(ctx, [
      {
        id: "docs",
        name: "Docs",
        output_format: "json",
        filename: "{document_type}/{document_index}",
        options: { scope: "per_document" },
      },
    ]);
    expect(m.profiles.docs!.scope_mode).toBe("per_document");
    expect(m.profiles.docs!.files.map((f) => f.filename)).toEqual(["invoice/0.json", "receipt/1.json"]);
    const receipt = JSON.parse(decode(sink.files.get("receipt/1.json")!));
    expect(receipt.documents.map((d: any) => d.document_id)).toEqual(["doc-receipt"]);
    expect(receipt.pages.map((p: any) => p.page_number)).toEqual([3]);
  });

  test("corrected orientation rotates word and field boxes, swaps sizes and says orientation corrected", async () => {
    const { ctx } = await buildFixture();
    const results = structuredClone({ ...ctx.results });
    results.pages![2]!.image_transform.rotation = 90; // 600 x 400 page turned clockwise → 400 x 600
    const before = JSON.stringify(results);
    const out = buildJsonExport(results, { orientation: "corrected", include_page_ocr: true }) as any;
    expect(JSON.stringify(results)).toBe(before); // input untouched
    expect(out.orientation).toBe("corrected");
    const t = out.pages[2].image_transform;
    expect([t.rasterized_width, t.rasterized_height, t.orientation, t.rotation]).toEqual([400, 600, "corrected", 90]);
    const [x1, y1, x2, y2] = results.pages![2]!.words![0]!.bounding_box;
    expect(out.pages[2].words[0].bounding_box).toEqual([400 - y2, x1, 400 - y1, x2]);
    const fieldBox = results.documents[1]!.fields.total!.bounding_boxes[0]!.coordinates;
    expect(out.documents[1].fields.total.bounding_boxes[0].coordinates).toEqual(rotateBox(fieldBox, 600, 400, 90));
    expect(out.documents[0].fields.invoice_number.bounding_boxes[0].coordinates).toEqual([144, 184, 600, 230]); // rotation 0
  });

  test("rotateBox: four quarter turns give the box back; 180 and 270 map corners", () => {
    const box: [number, number, number, number] = [10, 20, 50, 40];
    let b = box;
    let [w, h] = [200, 100];
    for (let i = 0; i < 4; i++) {
      b = rotateBox(b, w, h, 90);
      [w, h] = [h, w];
    }
    expect(b).toEqual(box);
    expect(rotateBox(box, 200, 100, 180)).toEqual([150, 60, 190, 80]);
    expect(rotateBox(box, 200, 100, 270)).toEqual([20, 150, 40, 190]);
    expect(rotateBox(box, 200, 100, -90)).toEqual([20, 150, 40, 190]);
    expect(
      correctedResults({ ...(null as never as ResultsFile), documents: [], pages: undefined } as ResultsFile)
        .orientation,
    ).toBe("corrected");
  });
});

describe("XML export", () => {
  test("well-formed, escaped, invalid characters stripped, readable with fast-xml-parser", async () => {
    const { ctx, sink } = await buildFixture();
    await runExports(ctx, [{ id: "xml", name: "XML", output_format: "xml" }]);
    const xml = decode(sink.files.get(`${TX}.xml`)!);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toMatch(/[\u0001\u0008\uFFFE]/);
    const doc = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: "",
      parseTagValue: false,
      isArray: (n: string, _j: unknown, _l: unknown, attr: boolean) =>
        !attr && ["document", "field", "item", "cell", "page", "rule", "box", "file"].includes(n),
    }).parse(xml);
    const tx = doc.transaction;
    expect(tx.id).toBe(TX);
    expect(tx.project_version).toBe("7");
    expect(tx.source_files.file).toEqual(["invoice.pdf", "receipt scan.png"]);
    const [invoice, receipt] = tx.documents.document;
    const fieldOf = (d: any, id: string) => d.fields.field.find((f: any) => f.id === id);
    expect(fieldOf(invoice, "invoice_number").value).toBe("00123");
    expect(fieldOf(invoice, "vendor").value).toBe(hostile.vendor);
    expect(fieldOf(invoice, "note").value).toBe(hostile.note);
    expect(fieldOf(invoice, "invoice_number").box[0]).toMatchObject({ page: "1", x1: "144", y2: "230" });
    const items = fieldOf(invoice, "line_items").value.item;
    expect(items[1].cell.find((c: any) => c.key === "description")["#text"]).toBe("=cmd|' /C calc'!A0");
    expect(fieldOf(receipt, "xml").value).toBe("A & B <c> \"d\" 'e'  ctl  end");
    expect(receipt.validation.rule[0]).toMatchObject({ id: "total_check", status: "warning" });
    expect(invoice.pages.page).toEqual(["1", "2"]);
  });

  test("hostile field ids stay attribute values and per-document scope writes one file each", async () => {
    const { ctx, sink } = await buildFixture();
    ctx.results.documents[1]!.fields['a b"<&>'] = ctx.results.documents[1]!.fields.total!;
    await runExports(ctx, [
      { id: "xml", name: "XML", output_format: "xml", options: { scope: "per_document", include_validation: false } },
    ]);
    const xml = decode(sink.files.get(`${TX}_1.xml`)!);
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).not.toContain("<validation");
    expect(sink.files.has(`${TX}_0.xml`)).toBe(true);
    const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: "" }).parse(xml);
    expect(parsed.transaction.documents.document.fields.field.map((f: any) => f.id)).toContain('a b"<&>');
  });
});
