/** Capture units: file inspection, the terminal summary (settings: test/settings/env.test.ts). */
import { describe, expect, test } from "bun:test";
import sharp from "sharp";
import { inspectCapturedFile } from "../../src/capture/files";
import { renderCaptureSummary, summarize } from "../../src/capture/terminal";
import { blankPdf } from "./helpers";

describe("captured file inspection", () => {
  test("counts a PDF's real pages and one page per ordinary image, by content whatever the name", async () => {
    expect((await inspectCapturedFile({ filename: "scan.jpg", data: await blankPdf(4) })).pages).toBe(4);
    const png = new Uint8Array(
      await sharp({ create: { width: 40, height: 30, channels: 3, background: "#fff" } })
        .png()
        .toBuffer(),
    );
    expect(await inspectCapturedFile({ filename: "x.pdf", data: png })).toMatchObject({
      format: "png",
      content_type: "image/png",
      pages: 1,
    });
  });

  test("refuses HTML, a broken image and an empty file with distinct codes", async () => {
    const html = new TextEncoder().encode("<html><body>hi</body></html>");
    await expect(inspectCapturedFile({ filename: "a.html", data: html })).rejects.toMatchObject({
      code: "unsupported_format",
    });
    const jpegHead = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]);
    await expect(inspectCapturedFile({ filename: "cut.jpg", data: jpegHead })).rejects.toMatchObject({
      code: "corrupt_file",
    });
    await expect(inspectCapturedFile({ filename: "e.png", data: new Uint8Array() })).rejects.toMatchObject({
      code: "empty_file",
    });
  });
});

describe("terminal summary", () => {
  const docs: NonNullable<Parameters<typeof summarize>[1]> = [
    {
      document_type: "invoice",
      split: { page_numbers: [1, 2] },
      fields: { invoice_number: { value: "INV-7" }, total: { value: 278.61 }, po: { value: null } },
    },
    { document_type: "receipt", split: { page_numbers: [3] }, fields: {} },
  ];

  test("lists each document with its pages and the fields that have a value", () => {
    const text = renderCaptureSummary(
      summarize({ transaction_id: "t1", status: "completed", processing_time_seconds: 7.94 }, docs),
    );
    expect(text).toBe(
      [
        "Transaction t1 completed in 7.9 s",
        "  2 documents",
        "  1. invoice (pages 1–2)",
        "       invoice_number: INV-7",
        "       total: 278.61",
        "  2. receipt (page 3)",
        "",
      ].join("\n"),
    );
  });

  test("says when the key cannot read results, and shows a failure's message", () => {
    const text = renderCaptureSummary(
      summarize({ transaction_id: "t2", status: "failed", error_message: "corrupt file" }, null),
    );
    expect(text).toContain("Transaction t2 failed");
    expect(text).toContain("error: corrupt file");
    expect(text).toContain("needs transaction.download_results");
  });
});
