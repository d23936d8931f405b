/**
 * Extraction of a long document (issue 18, memory bounded by design): a document of LONG_DOCUMENT_WORDS words or
 * more is extracted with young collections paced by its line scans (extract/gc-pace.ts), shorter ones without (and
 * so are documents read ahead from page LONG_TRANSACTION_PAGES of a transaction on), and
 * what an extraction leaves alive does not grow with the document's length. Checked without timing or RSS: counts
 * of collections and of live objects after a full collection.
 */
import { describe, expect, test } from "bun:test";
import path from "node:path";
import { defaultProject } from "../../../src/core/project";
import { LONG_TRANSACTION_PAGES, extractAhead, extractFields } from "../../../src/core/stages/extract";
import { pacedCollections } from "../../../src/core/extract/gc-pace";
import { LONG, pagesOf } from "./long-pages";

describe("extraction of a long document", () => {
  test("a document of LONG_DOCUMENT_WORDS words or more runs paced young collections; a shorter one none", () => {
    extractFields(pagesOf(2), "invoice", defaultProject); // loads every module and memo an extraction uses
    const before = pacedCollections();
    extractFields(pagesOf(LONG - 2), "invoice", defaultProject);
    expect(pacedCollections()).toBe(before);
    extractFields(pagesOf(LONG), "invoice", defaultProject);
    expect(pacedCollections()).toBeGreaterThan(before);
  }, 120_000);

  test("documents extracted ahead deep in a long transaction (page LONG_TRANSACTION_PAGES on) run paced; earlier ones not", () => {
    const ahead = (from: number) => {
      const before = pacedCollections();
      for (const page of pagesOf(40, from)) extractAhead([page], "invoice", defaultProject);
      return pacedCollections() - before;
    };
    expect(ahead(1)).toBe(0);
    expect(ahead(LONG_TRANSACTION_PAGES)).toBeGreaterThan(0);
  }, 120_000);

  test("what an extraction leaves alive does not grow with the document's length (N vs 2N pages)", async () => {
    // Measured in a process of its own (long-alive.ts): in the suite's worker, what other test files left running
    // (a timer, a stream) kept allocating during the longer 2N measurements and was counted against them.
    const child = Bun.spawn([process.execPath, path.join(import.meta.dir, "long-alive.ts")], {
      stdout: "pipe",
      stderr: "inherit",
    });
    const out = await new Response(child.stdout).text();
    expect(await child.exited).toBe(0);
    const { ofN, of2N, sameFields } = JSON.parse(out) as { ofN: number[]; of2N: number[]; sameFields: boolean };
    // The same fields are found on both (the prose repeats its kinds of values); the lines of 2N pages alone would be
    // over 100,000 objects.
    expect(sameFields).toBe(true);
    // Medians of three: a cache filled or let go during one measurement moves that sample alone.
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    expect(median(of2N) - median(ofN)).toBeLessThan(2_000);
  }, 120_000);
});
