import { describe, expect, test } from "bun:test";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { runExports } from "../../../src/core/exporters";
import { buildFixture, hostile, TX } from "./fixtures";

const decode = (b: Uint8Array) => new TextDecoder("utf-8", { ignoreBOM: true }).decode(b);

describe("CSV export", () => {
  test("one row per document reads back with a real CSV parser, quoting intact", async () => {
    const { ctx, sink } = await buildFixture();
    await runExports(ctx, [{ id: "csv", name: "CSV", output_format: "csv" }]);
    const text = decode(sink.files.get(`${TX}_documents.csv`)!);
    expect(text.startsWith("\uFEFF")).toBe(true);
    const rows: Record<string, string>[] = parse(text, { bom: true, columns: true });
    expect(rows).toHaveLength(2);
    const [invoice, receipt] = rows as [Record<string, string>, Record<string, string>];
    expect(invoice.document_id).toBe("doc-invoice");
    expect(invoice.invoice_number).toBe("00123");
    expect(invoice.total).toBe("1234.5");
    expect(invoice.discount).toBe("-12.5"); // a typed number stays a plain number
    expect(invoice.page_numbers).toBe("1 2");
    expect(invoice.note).toBe(hostile.note);
    expect(invoice).not.toHaveProperty("line_items");
    expect(receipt.validation_status).toBe("warning");
  });

  test("neutralises cells a spreadsheet would run as formulas", async () => {
    const { ctx, sink } = await buildFixture();
    await runExports(ctx, [{ id: "csv", name: "CSV", output_format: "csv" }]);
    const rows: Record<string, string>[] = parse(decode(sink.files.get(`${TX}_documents.csv`)!), {
      bom: true,
      columns: true,
    });
    const [invoice, receipt] = rows as [Record<string, string>, Record<string, string>];
    expect(invoice.vendor).toBe(`'${hostile.vendor}`);
    expect(receipt.vendor).toBe(`'${hostile.plus}`);
    expect(receipt.note).toBe(`'${hostile.at}`);
    expect(receipt.ref).toBe(`'${hostile.dash}`);
    expect(receipt.tab).toBe(`'${hostile.tab}`);
    expect(receipt.cr).toBe(`'${hostile.cr}`);
    for (const row of rows) for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+@\t\r]/);
  });

  test("one row per line item with chosen columns and a semicolon delimiter", async () => {
    const { ctx, sink } = await buildFixture();
    await runExports(ctx, [
      {
        id: "items",
        name: "Items",
        output_format: "csv",
        filename: "items",
        options: {
          rows: "per_line_item",
          delimiter: ";",
          columns: ["document_id", "line_number", "description", "amount", "vendor"],
          bom: false,
        },
      },
    ]);
    const text = decode(sink.files.get("items.csv")!);
    expect(text.split("\r\n")[0]).toBe("document_id;line_number;description;amount;vendor");
    const rows: string[][] = parse(text, { delimiter: ";" });
    expect(rows.slice(1)).toEqual([
      ["doc-invoice", "1", "Widget, large", "21", `'${hostile.vendor}`],
      ["doc-invoice", "2", "'=cmd|' /C calc'!A0", "-3.25", `'${hostile.vendor}`],
    ]);
  });
});

describe("XLSX export", () => {
  test("Documents and Line items sheets with typed cells, frozen header and widths", async () => {
    const { ctx, sink } = await buildFixture();
    await runExports(ctx, [{ id: "xlsx", name: "Excel", output_format: "xlsx" }]);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(Buffer.from(sink.files.get(`${TX}.xlsx`)!) as never);
    expect(wb.worksheets.map((s) => s.name)).toEqual(["Documents", "Line items"]);
    const docs = wb.getWorksheet("Documents")!;
    const header = (docs.getRow(1).values as unknown[]).slice(1) as string[];
    const cell = (row: number, col: string) => docs.getRow(row).getCell(header.indexOf(col) + 1);
    expect(docs.views[0]).toMatchObject({ state: "frozen", ySplit: 1 });
    expect(cell(2, "total").type).toBe(ExcelJS.ValueType.Number);
    expect(cell(2, "total").value).toBe(1234.5);
    expect(cell(2, "discount").value).toBe(-12.5);
    expect(cell(2, "invoice_date").type).toBe(ExcelJS.ValueType.Date);
    expect((cell(2, "invoice_date").value as Date).toISOString()).toBe("2024-03-01T00:00:00.000Z");
    expect(cell(2, "invoice_date").numFmt).toBe("yyyy-mm-dd");
    expect(cell(2, "invoice_number").type).toBe(ExcelJS.ValueType.String);
    expect(cell(2, "invoice_number").value).toBe("00123");
    expect(cell(2, "paid").type).toBe(ExcelJS.ValueType.Boolean);
    expect(cell(2, "vendor").type).toBe(ExcelJS.ValueType.String); // stored as text, never as a formula
    expect(cell(3, "missing_date").type).toBe(ExcelJS.ValueType.String); // 2024-02-30 is no date
    expect(docs.getColumn(header.indexOf("vendor") + 1).width).toBeGreaterThan(30);
    const items = wb.getWorksheet("Line items")!;
    expect(items.rowCount).toBe(3);
    expect(items.getRow(3).getCell(8).value).toBe(-3.25);
    expect(items.getRow(3).getCell(8).type).toBe(ExcelJS.ValueType.Number);
  });
});

test("XLSX strips control characters that would make the workbook unreadable", async () => {
  const { ctx, sink } = await buildFixture();
  await runExports(ctx, [{ id: "xlsx", name: "Excel", output_format: "xlsx", filename: "book" }]);
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(Buffer.from(sink.files.get("book.xlsx")!) as never);
  const docs = wb.getWorksheet("Documents")!;
  const header = (docs.getRow(1).values as unknown[]).slice(1) as string[];
  expect(docs.getRow(3).getCell(header.indexOf("xml") + 1).value).toBe("A & B <c> \"d\" 'e'  ctl  end");
});
