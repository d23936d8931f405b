/**
 * The JSON results file written in pieces (issue 34): byte for byte what JSON.stringify(…, null, 2) wrote, and no
 * piece holds the whole file, counted on a 2,000-page results file written to a real folder.
 */
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildJsonExport, folderSink, memorySink, runExports, TextChunks } from "../../../src/core/exporters";
import {
  CHARS_PER_COLLECTION,
  CHUNK_CHARS,
  chunkCollections,
  jsonChunks,
} from "../../../src/core/exporters/json-chunks";
import { buildFixture, FIXED_NOW, TX } from "./fixtures";

const whole = (v: unknown) => JSON.stringify(v, null, 2) + "\n";

/** A results-like object of `pages` pages, with nesting, escapes, non-Latin-1 text and values JSON leaves out. */
function longResults(pages: number) {
  return {
    transaction_id: TX,
    empty_list: [],
    empty_object: {},
    skipped: undefined,
    nothing: null,
    when: FIXED_NOW,
    documents: Array.from({ length: Math.ceil(pages / 3) }, (_, i) => ({
      document_id: `doc-${i}`,
      fields: { total: { value: i * 1.5, note: 'line\nbreak "quoted" €', boxes: [[1, 2, 3, 4]] }, none: undefined },
      tags: i % 2 ? [] : ["a", ["b", { c: {} }]],
    })),
    pages: Array.from({ length: pages }, (_, i) => ({
      page_number: i + 1,
      text: `Rechnung ${i}\n漢字 \u2028 tab\t`,
      words: [{ text: "Total", bounding_box: [i, i + 1, i + 2, i + 3] }],
      fn: () => 1,
    })),
    list_with_holes: [undefined, () => 0, 1],
  };
}

describe("JSON results file in pieces", () => {
  test("the pieces are exactly JSON.stringify(value, null, 2) plus a newline", () => {
    for (const value of [
      longResults(7),
      {},
      { a: [] },
      { a: 1 },
      { only: undefined },
      { nested: { deep: [{ x: [1, [2, []]] }] } },
    ])
      expect(jsonChunks(value as Record<string, unknown>).text()).toBe(whole(value));
    const results = longResults(2000) as Record<string, unknown>;
    expect(jsonChunks(results).text()).toBe(whole(results));
  });

  test("2,000 pages: no piece much longer than a chunk, so the whole file is never one string", () => {
    const results = longResults(2000) as Record<string, unknown>;
    const pieces = [...jsonChunks(results).pieces()];
    const longest = Math.max(...pieces.map((p) => p.length));
    const total = pieces.reduce((n, p) => n + p.length, 0);
    expect(total).toBeGreaterThan(10 * CHUNK_CHARS);
    expect(longest).toBeLessThan(CHUNK_CHARS + 1024);
    expect(pieces.length).toBeGreaterThan(total / (CHUNK_CHARS + 1024));
  });

  test("young collections follow the characters handed on, not the pieces: one per CHARS_PER_COLLECTION", () => {
    const results = longResults(20000) as Record<string, unknown>;
    const before = chunkCollections();
    let total = 0;
    for (const piece of jsonChunks(results).pieces()) total += piece.length;
    const ran = chunkCollections() - before;
    expect(total).toBeGreaterThan(2 * CHARS_PER_COLLECTION);
    // Counted at chunk ends, so each collection follows at most one chunk past its threshold.
    expect(ran).toBeGreaterThanOrEqual(Math.floor(total / (CHARS_PER_COLLECTION + CHUNK_CHARS)));
    expect(ran).toBeLessThanOrEqual(Math.floor(total / CHARS_PER_COLLECTION));
    const small = chunkCollections();
    for (const _ of jsonChunks(longResults(100) as Record<string, unknown>).pieces());
    expect(chunkCollections()).toBe(small);
  });

  test("a folder sink writes the pieces as they come; the file and its size are the whole text's", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "docproc-chunks-"));
    try {
      const results = longResults(2000) as Record<string, unknown>;
      let taken = 0;
      const counted = new TextChunks(function* () {
        for (const piece of jsonChunks(results).pieces()) {
          taken++;
          yield piece;
        }
      });
      const { size_bytes } = await folderSink(dir).write("sub/data.json", counted);
      const text = readFileSync(path.join(dir, "sub/data.json"), "utf8");
      expect(text).toBe(whole(results));
      expect(size_bytes).toBe(Buffer.byteLength(text, "utf8"));
      expect(taken).toBeGreaterThan(10);
      // Written again, shorter, over the same file: nothing of the longer one stays behind.
      const shorter = { short: [1, 2] };
      await folderSink(dir).write("sub/data.json", jsonChunks(shorter));
      expect(readFileSync(path.join(dir, "sub/data.json"), "utf8")).toBe(whole(shorter));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("the JSON profile's file is what buildJsonExport stringified, in a memory sink too", async () => {
    const { ctx } = await buildFixture();
    const sink = memorySink();
    await runExports({ ...ctx, sink }, [{ id: "json", name: "JSON", output_format: "json" }]);
    const written = new TextDecoder().decode(sink.files.get(`${TX}_data.json`)!);
    expect(written).toBe(whole(buildJsonExport(ctx.results, {}, FIXED_NOW)));
  });
});
