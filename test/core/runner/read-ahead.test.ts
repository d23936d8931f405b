/**
 * Reading ahead (core/stages/convert/read-ahead.ts) classifies and extracts documents while the rest of the file is being
 * converted; the stages then take those answers (core/page-memo.ts). Results MUST be those of the stages alone.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { copyPage } from "../../../src/core/convert/page-words";
import { createOcrEngine } from "../../../src/core/engines/ocr";
import { memorySink } from "../../../src/core/exporters";
import type { Page } from "../../../src/core/model";
import { PageMemo } from "../../../src/core/page-memo";
import { processTransaction } from "../../../src/core/pipeline";
import { MAX_AHEAD_PAGES } from "../../../src/core/stages/convert/read-ahead";
import { defaultProject } from "../../../src/core/project";
import { classifyDocument } from "../../../src/core/stages/classify";
import { extractFields } from "../../../src/core/stages/extract";
import { resetStageTimes, stageTimes } from "../../../src/core/timing";
import { joinedInvoices, transactionMeta } from "./joined-invoices";

const ocr = await createOcrEngine({ engine: "wasm", workers: 1 });
afterAll(() => ocr.close());

describe("reading ahead", () => {
  test("documents of one and of several pages are extracted once, with the fields the stages alone give", async () => {
    resetStageTimes();
    let extractedBeforeSplit = -1;
    const onProgress = (step: string) => {
      if (step === "split" && extractedBeforeSplit < 0) extractedBeforeSplit = stageTimes().extract?.calls ?? 0;
    };
    const res = await processTransaction(
      { sources: [{ index: 0, filename: "joined.pdf", data: await joinedInvoices(), split_policy: "inherit" }] },
      { meta: transactionMeta(), project: defaultProject, ocr, sink: memorySink(), onProgress },
    );
    const docs = res.results.documents;
    expect(docs.map((d) => d.split.page_numbers)).toEqual([[1], [2, 3], [4], [5, 6]]);
    // Every document was extracted while the file was converted, and only then: the stage took each answer.
    expect(extractedBeforeSplit).toBe(docs.length);
    expect(stageTimes().extract?.calls).toBe(docs.length);
    for (const doc of docs) {
      // Copies of the pages are other objects: the memo has no answer for them, so this extracts afresh.
      const pages = (doc.split.page_numbers ?? []).map((n) => copyPage(res.pages.find((p) => p.page_number === n)!));
      const classId = classifyDocument(pages, defaultProject).class_id;
      expect(classId).toBe(doc.classification.class_id);
      const fresh = extractFields(pages, classId, defaultProject);
      expect(JSON.parse(JSON.stringify(doc.fields))).toEqual(JSON.parse(JSON.stringify(fresh)));
    }
  });
});

describe("reading ahead a long document", () => {
  test("a document longer than MAX_AHEAD_PAGES is left to the Extract stage, which extracts it once", async () => {
    const { generatePdf } = await import("../../../bench/convert.ts");
    const pages = MAX_AHEAD_PAGES + 5;
    resetStageTimes();
    let extractedBeforeSplit = -1;
    const onProgress = (step: string) => {
      if (step === "split" && extractedBeforeSplit < 0) extractedBeforeSplit = stageTimes().extract?.calls ?? 0;
    };
    const res = await processTransaction(
      { sources: [{ index: 0, filename: "long.pdf", data: await generatePdf(pages, 7), split_policy: "inherit" }] },
      { meta: transactionMeta(), project: defaultProject, ocr, sink: memorySink(), onProgress },
    );
    expect(res.results.documents.map((d) => d.split.page_numbers.length)).toEqual([pages]);
    expect(extractedBeforeSplit).toBe(0);
    expect(stageTimes().extract?.calls).toBe(1);
  });
});

describe("page memo", () => {
  const page = (n: number, text: string): Page =>
    ({ page_number: n, text, words: [], text_source: "text_layer" }) as unknown as Page;

  test("answers only for the same pages, content and context, once by take and again by peek", () => {
    const memo = new PageMemo<string>();
    const [a, b] = [page(1, "one"), page(2, "two")];
    const ctx = [{}];
    memo.put([a, b], ctx, "span");
    memo.put([a], ctx, "alone");
    expect(memo.peek([a], ctx)).toBe("alone");
    expect(memo.peek([a, b], [{}])).toBeUndefined(); // another context object
    expect(memo.peek([a, page(2, "two")], ctx)).toBeUndefined(); // another page object, same content
    expect(memo.peek([a, b], ctx)).toBe("span");
    b.text = "changed";
    expect(memo.take([a, b], ctx)).toBeUndefined();
    b.text = "two";
    expect(memo.take([a, b], ctx)).toBe("span");
    expect(memo.take([a, b], ctx)).toBeUndefined(); // handed over once
    expect(memo.take([a], ctx)).toBe("alone");
  });

  test("with residentMax, older answers go to disk: N and 2N entries keep the same number in memory, read back equal", () => {
    const max = 8;
    const answer = (n: number) => ({
      total: { name: "total", value: n * 1.5, confidence: 0.9, bounding_boxes: [{ page_index: n, x: 1, y: 2 }] },
      items: { name: "items", value: [{ text: `row ${n} €`, amount: n }], reasoning: "x".repeat(500) },
    });
    const fill = (count: number) => {
      const memo = new PageMemo<ReturnType<typeof answer>>(max);
      const pages = Array.from({ length: count }, (_, i) => page(i + 1, `page ${i + 1}`));
      pages.forEach((p, i) => memo.put([p], [defaultProject], answer(i + 1)));
      return { memo, pages };
    };
    const n = 40;
    const [a, b] = [fill(n), fill(2 * n)];
    // The answers in memory do not grow with the entries: the older ones are on disk.
    expect(a.memo.residentCount).toBe(max);
    expect(b.memo.residentCount).toBe(max);
    expect(a.memo.spilled).toBe(n - max);
    expect(b.memo.spilled).toBe(2 * n - max);
    // Taken (or peeked) from disk or from memory, each answer is the one put.
    expect(b.memo.peek([b.pages[0]!], [defaultProject])).toEqual(answer(1));
    b.pages.forEach((p, i) => expect(b.memo.take([p], [defaultProject])).toEqual(answer(i + 1)));
    expect(b.memo.size).toBe(0);
    expect(b.memo.residentCount).toBe(0);
    // An answer JSON would not give back (NaN, undefined) is never written: it stays in memory, the same object.
    const odd = new PageMemo<object>(0);
    const value = { confidence: Number.NaN, raw_text: undefined };
    odd.put([a.pages[0]!], [defaultProject], value);
    expect(odd.spilled).toBe(0);
    expect(odd.take([a.pages[0]!], [defaultProject])).toBe(value);
  });
});
