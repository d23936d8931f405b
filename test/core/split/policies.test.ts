/**
 * The nine per-file split policy rules of the spec ("Per-file split policies"), one test each, named after the rule.
 */
import { describe, expect, test } from "bun:test";
import { DocprocError, httpStatusOf } from "../../../src/core/errors";
import type { DocumentSpan } from "../../../src/core/model";
import { expandEmailSource } from "../../../src/core/split/email";
import { parseSplitPolicy } from "../../../src/core/split/policy";
import { type SplitSettingsInput, SplitSettingsSchema } from "../../../src/core/project/split";
import { splitInfoOf, splitPages } from "../../../src/core/stages/split";
import { CORPORA, convertFile, invoicePage, textFiles } from "./helpers";
import { wholeBytes } from "../../../src/core/source-data";

const settings = (s: SplitSettingsInput) => SplitSettingsSchema.parse(s);
const groups = (spans: DocumentSpan[]) => spans.map((s) => s.page_numbers);

/** Two complete invoices in one file: 2 pages of A-1, then 1 page of B-7. */
const twoInvoices = [
  invoicePage({ vendor: "Alpha", number: "A-1", page: 1, of: 2 }),
  invoicePage({ vendor: "Alpha", number: "A-1", page: 2, of: 2 }),
  invoicePage({ vendor: "Beta", number: "B-7", page: 1, of: 1 }),
];

describe("per-file split policies (spec rules 1-9)", () => {
  test("rule 1: a policy overrides the project split mode only for the file it is set on", async () => {
    const files = textFiles([
      { policy: "inherit", pages: ["a", "b"] },
      { policy: "single_document", pages: ["c", "d", "e"] },
      { policy: "inherit", pages: ["f", "g"] },
    ]);
    const spans = await splitPages(files, settings({ mode: "per_page" }));
    expect(groups(spans)).toEqual([[1], [2], [3, 4, 5], [6], [7]]);
    expect(spans.map((s) => s.policy)).toEqual(["inherit", "inherit", "single_document", "inherit", "inherit"]);
  });

  test("rule 2: a single_document or self_contained file breaks the page stream; neighbours never merge across it", async () => {
    const fixed3 = settings({ mode: "fixed_pages", pages_per_document: 3 });
    const around = (policy: "inherit" | "single_document" | "self_contained") =>
      textFiles([
        { policy: "inherit", pages: ["a1", "a2"] },
        { policy, pages: ["b1"] },
        { policy: "inherit", pages: ["c1", "c2"] },
        { policy: "inherit", pages: ["d1"] },
      ]);
    // Control: with inherit everywhere, fixed chunks of 3 run across file borders.
    expect(groups(await splitPages(around("inherit"), fixed3))).toEqual([
      [1, 2, 3],
      [4, 5, 6],
    ]);
    for (const policy of ["single_document", "self_contained"] as const) {
      expect(groups(await splitPages(around(policy), fixed3))).toEqual([[1, 2], [3], [4, 5, 6]]);
    }
    // Intelligent mode: the page after the breaking file continues A-1 by content, yet must not join it.
    const a = [
      invoicePage({ vendor: "Alpha", number: "A-1", page: 1, of: 3 }),
      invoicePage({ vendor: "Alpha", number: "A-1", page: 2, of: 3 }),
    ];
    const c = [invoicePage({ vendor: "Alpha", number: "A-1", page: 3, of: 3 })];
    const files = textFiles([
      { policy: "inherit", pages: a },
      { policy: "self_contained", pages: ["note"] },
      { policy: "inherit", pages: c },
    ]);
    expect(groups(await splitPages(files, settings({ mode: "intelligent" })))).toEqual([[1, 2], [3], [4]]);
    const joined = textFiles([
      { policy: "inherit", pages: a },
      { policy: "inherit", pages: c },
    ]);
    expect(groups(await splitPages(joined, settings({ mode: "intelligent" })))).toEqual([[1, 2, 3]]);
  });

  test("rule 3: documents from single_document files and one-page files get confidence 1.0 and are never flagged", async () => {
    const strict = settings({ mode: "intelligent" });
    const threshold = 1; // the strictest project review threshold
    const files = textFiles([
      { policy: "single_document", pages: twoInvoices },
      { policy: "inherit", pages: ["Some page without any signal"] },
      { policy: "self_contained", pages: ["a lonely note"] },
      { policy: "inherit", pages: ["first page", "second page"] },
    ]);
    const spans = await splitPages(files, strict);
    expect(groups(spans)).toEqual([[1, 2, 3], [4], [5], [6, 7]]);
    for (const span of spans.slice(0, 3)) {
      expect(span.confidence).toBe(1);
      expect(splitInfoOf(span, strict, files, threshold).review_required).toBe(false);
    }
    // The uncertain two-page document (no signal either way) is below 1.0 and therefore flagged at this threshold.
    expect(spans[3].confidence).toBeLessThan(1);
    expect(splitInfoOf(spans[3], strict, files, threshold).review_required).toBe(true);
  });

  test("rule 4: policies persist, so re-running Split on the stored transaction gives the same documents", async () => {
    const pdf = await convertFile(CORPORA + "splitting/paperless-barcodes/patch-code-t-middle.pdf", {
      fileIndex: 1,
      firstPageNumber: 3,
      maxSidePx: 842,
    });
    try {
      const stored = JSON.stringify([
        { index: 0, filename: "a.txt", policy: "single_document" },
        { index: 1, filename: "scan.pdf", policy: "self_contained" },
      ]);
      const build = () => {
        const [a, b] = JSON.parse(stored) as Array<{
          index: number;
          filename: string;
          policy: "single_document" | "self_contained";
        }>;
        const [textFile] = textFiles([{ policy: a.policy, pages: twoInvoices.slice(0, 2) }]);
        return [
          { ...a, pages: textFile.pages },
          { ...b, pages: pdf.pages },
        ];
      };
      const s = settings({ mode: "per_file" });
      const first = await splitPages(build(), s);
      const second = await splitPages(build(), s);
      expect(second).toEqual(first);
      expect(groups(first)).toEqual([[1, 2], [3], [5]]);
      expect(first[2].separator_pages).toEqual([4]);
    } finally {
      await pdf.close();
    }
  }, 30_000);

  test("rule 5: with the Split step disabled every file becomes one document regardless of policy", async () => {
    const files = textFiles([
      { policy: "self_contained", pages: twoInvoices },
      { policy: "inherit", pages: twoInvoices },
      { policy: "single_document", pages: ["x", "y"] },
    ]);
    for (const mode of ["per_page", "intelligent", "separator"] as const) {
      const spans = await splitPages(files, settings({ enabled: false, mode }));
      expect(groups(spans)).toEqual([
        [1, 2, 3],
        [4, 5, 6],
        [7, 8],
      ]);
      expect(spans.map((s) => s.policy)).toEqual(["self_contained", "inherit", "single_document"]);
      expect(spans.every((s) => s.reason.includes("disabled"))).toBe(true);
    }
  });

  test("rule 6: self_contained runs the intelligent splitter inside the file even under a deterministic mode", async () => {
    const files = textFiles([
      { policy: "self_contained", pages: twoInvoices },
      { policy: "inherit", pages: twoInvoices },
    ]);
    const spans = await splitPages(files, settings({ mode: "per_file" }));
    expect(groups(spans)).toEqual([[1, 2], [3], [4, 5, 6]]);
    expect(spans[0].reason).toContain("self_contained");
    expect(spans[1].reason).toContain("page counter restarts");
  });

  test("rule 7: intelligent_llm_per_source behaves as if every file were self_contained", async () => {
    const a = [invoicePage({ vendor: "Alpha", number: "A-1", page: 1, of: 2 })];
    const b = [invoicePage({ vendor: "Alpha", number: "A-1", page: 2, of: 2 }), ...twoInvoices.slice(2)];
    const files = textFiles([
      { policy: "inherit", pages: a },
      { policy: "inherit", pages: b },
    ]);
    // Plain intelligent mode joins the continuation page across the file border...
    expect(groups(await splitPages(files, settings({ mode: "intelligent" })))).toEqual([[1, 2], [3]]);
    // ...per-source mode never crosses it, yet still splits inside each file.
    const spans = await splitPages(files, settings({ mode: "intelligent_llm_per_source" }));
    expect(groups(spans)).toEqual([[1], [2], [3]]);
    expect(spans[1].reason).toContain("intelligent splitter inside the file");
  });

  test("rule 8: an invalid policy value is rejected as invalid_input (HTTP 400) listing the allowed values", async () => {
    let caught: unknown;
    try {
      parseSplitPolicy("split_everything");
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(DocprocError);
    const err = caught as DocprocError;
    expect(err.code).toBe("invalid_input");
    expect(httpStatusOf(err)).toBe(400);
    for (const allowed of ["inherit", "single_document", "self_contained"]) expect(err.message).toContain(allowed);
    expect(err.details?.allowed_values).toEqual(["inherit", "single_document", "self_contained"]);
    expect(parseSplitPolicy(undefined)).toBe("inherit");
    expect(parseSplitPolicy(" Self_Contained ")).toBe("self_contained");
    expect(() => parseSplitPolicy(3)).toThrow(DocprocError);
    const [file] = textFiles([{ policy: "inherit", pages: ["a"] }]);
    const bad = { ...file, policy: "whole" as never };
    await expect(splitPages([bad], settings({}))).rejects.toMatchObject({ code: "invalid_input" });
  });

  test("rule 9: the e-mail connector uploads the rendered body as single_document and the attachments as inherit", async () => {
    const eml = [
      "From: Alice <alice@example.com>",
      "To: ap@example.org",
      "Subject: Two invoices",
      "Date: Mon, 2 Mar 2026 10:00:00 +0100",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="b1"',
      "",
      "--b1",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Please find two invoices attached.",
      "--b1",
      'Content-Type: text/plain; name="inv-1.txt"',
      'Content-Disposition: attachment; filename="inv-1.txt"',
      "",
      twoInvoices.join("\f"),
      "--b1",
      'Content-Type: text/plain; name="inv-2.txt"',
      'Content-Disposition: attachment; filename="inv-2.txt"',
      "",
      "Another page",
      "--b1--",
      "",
    ].join("\r\n");
    const sources = expandEmailSource({
      index: 0,
      filename: "mail.eml",
      content_type: "message/rfc822",
      data: new TextEncoder().encode(eml),
      split_policy: "inherit",
    });
    expect(sources.map((s) => [s.filename, s.split_policy])).toEqual([
      ["mail.txt", "single_document"],
      ["inv-1.txt", "inherit"],
      ["inv-2.txt", "inherit"],
    ]);
    // Through Split: the body stays one document; attachment pages follow the project mode.
    const files = textFiles(
      sources.map((s) => ({ policy: s.split_policy, pages: new TextDecoder().decode(wholeBytes(s.data)).split("\f") })),
    );
    const spans = await splitPages(files, settings({ mode: "per_page" }));
    expect(groups(spans)).toEqual([[1], [2], [3], [4], [5]]);
    expect(spans[0].policy).toBe("single_document");
  });
});
