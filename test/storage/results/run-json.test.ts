/**
 * The run's output as JSON text made on the pipeline thread (src/storage/results/run-json.ts): the stored results file, run
 * state and review state are byte for byte what JSON.stringify of the objects gives, for a real run of a two-page
 * PDF and for words crafted to look like the splicer's placeholders.
 */
import { afterEach, describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { memorySink } from "../../../src/core/exporters";
import type { OcrEngine } from "../../../src/core/engines/ocr";
import { defaultProject, parseProjectSettings } from "../../../src/core/project";
import { runTransaction, type RunOutcome, type SavedRun } from "../../../src/core/runner";
import { runJsonOf, savedRunText, textsForTransfer } from "../../../src/storage/results/run-json";
import {
  reviewStatesStoredAsBytes,
  storeReviewResults,
  storeReviewResultsText,
} from "../../../src/storage/results/review-states";
import { createProject } from "../../../src/storage/projects/projects";
import { createTransaction } from "../../../src/storage/transactions/transactions";
import { freshDb } from "../helpers";
import { isPostgres } from "../../../src/storage/schema/db";
import { wordsIdentity } from "../../../src/core/convert/page-words";

const corpora = resolve(import.meta.dir, "../../../fixtures/corpora");
const noOcr = {
  name: "none",
  recognize: async () => {
    throw new Error("OCR was not expected");
  },
  close: async () => {},
} as unknown as OcrEngine;

async function realRun(): Promise<RunOutcome & { saved: SavedRun }> {
  const data = new Uint8Array(await Bun.file(`${corpora}/invoice2data/AzureInterior.pdf`).arrayBuffer());
  const out = await runTransaction(
    { sources: [{ index: 0, filename: "AzureInterior.pdf", data, split_policy: "inherit" }] },
    {
      meta: {
        transaction_id: crypto.randomUUID(),
        tenant_id: "t",
        project_id: "p",
        project_version: 1,
        correlation_id: null,
        metadata: {},
        created_at: "2026-01-01T00:00:00.000Z",
        source: "test",
      },
      project: parseProjectSettings(defaultProject),
      ocr: noOcr,
      sink: memorySink(),
    },
  );
  expect(out.status).toBe("success");
  expect(out.saved).not.toBeNull();
  return out as RunOutcome & { saved: SavedRun };
}

describe("run output as JSON text", () => {
  test("the results file and the run state read exactly as JSON.stringify writes them, the queue's members in place", async () => {
    const out = await realRun();
    expect(out.results.pages!.some((p) => (p.words?.length ?? 0) > 0)).toBe(true);
    const json = runJsonOf(out.results, out.saved, out.pages);
    expect(json.results).toBe(JSON.stringify(out.results));
    expect(runJsonOf(out.results, out.saved).results).toBe(json.results);
    expect(json.lastHumanReview).toEqual({ reviewed: false });
    expect(savedRunText(json.saved!)).toBe(JSON.stringify(out.saved));
    // `run` replaces the runner's number where it stands; checkpoint and seconds come last, as a spread puts them.
    const patch = { run: out.saved.run + 7, checkpoint: true, processing_seconds: 12.25 };
    expect(savedRunText(json.saved!, patch)).toBe(JSON.stringify({ ...out.saved, ...patch }));
    expect(JSON.parse(savedRunText(json.saved!, patch) as string)).toEqual(
      JSON.parse(JSON.stringify({ ...out.saved, ...patch })),
    );
  });

  test("a finished run's documents are serialised once for the results file and the run state", async () => {
    const out = await realRun();
    expect(out.saved.documents).toBe(out.results.documents);
    const json = runJsonOf(out.results, out.saved, out.pages);
    // One text of the documents, spliced into both; the head crossing threads holds only its placeholder.
    expect(json.saved!.documents?.text).toBe(JSON.stringify(out.results.documents));
    expect(json.saved!.head.documents as unknown).toBe(json.saved!.documents!.tag);
    expect(json.results).toBe(JSON.stringify(out.results));
    expect(savedRunText(json.saved!, { run: 2 })).toBe(JSON.stringify({ ...out.saved, run: 2 }));
    // A state with its own copy of the documents (a paused run) serialises them apart, the same text either way.
    const paused = { ...out.saved, documents: structuredClone(out.saved.documents) };
    const apart = runJsonOf(out.results, paused, out.pages);
    expect(apart.saved!.documents).toBeUndefined();
    expect(apart.results).toBe(json.results);
    expect(savedRunText(apart.saved!)).toBe(JSON.stringify(paused));
  });

  test("moved to another thread as bytes, the results text and the run state (with the queue's members) read the same", async () => {
    const out = await realRun();
    const json = runJsonOf(out.results, out.saved, out.pages);
    const { json: moved, transfer } = textsForTransfer(json);
    const arrived = structuredClone(moved, { transfer });
    // Moved, not copied: the sender's buffers are detached.
    expect(transfer.every((b) => b.byteLength === 0)).toBe(true);
    // The results stay bytes: they only go on to the review state (stored as they are, below).
    expect(arrived.results).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(arrived.results as Uint8Array)).toBe(JSON.stringify(out.results));
    const patch = { run: 3, checkpoint: true, processing_seconds: 1.5 };
    const state = savedRunText(arrived.saved!, patch);
    expect(state).toBeInstanceOf(Uint8Array);
    expect(new TextDecoder().decode(state as Uint8Array)).toBe(JSON.stringify({ ...out.saved, ...patch }));
  });

  test("words that look like placeholders, shared and empty word arrays, and a page without words come out as they are", async () => {
    const out = await realRun();
    const page = out.results.pages![0]!;
    const tricky = [
      { ...page.words![0]!, text: "\u0001words:00000000-0000-0000-0000-000000000000:0" },
      { ...page.words![0]!, text: '"\\u0001files: "}' },
    ];
    page.words = tricky;
    out.saved.files[0]!.pages[0]!.words = tricky;
    // Another page shares the first one's array; one has no words member at all, one an empty array.
    out.results.pages!.push({ ...page, page_number: 98 });
    out.results.pages!.push({ ...page, page_number: 99, words: undefined });
    out.results.pages!.push({ ...page, page_number: 100, words: [] });
    const json = runJsonOf(out.results, out.saved, out.pages);
    expect(json.results).toBe(JSON.stringify(out.results));
    // Pages given out of order share nothing, and still read as they are.
    expect(runJsonOf(out.results, out.saved, [...out.pages].reverse()).results).toBe(json.results);
    expect(savedRunText(json.saved!, { run: 2 })).toBe(JSON.stringify({ ...out.saved, run: 2 }));
    expect(runJsonOf(out.results, null).saved).toBeNull();
  });
});

describe("words' JSON text made by the pdf.js thread", () => {
  const meta = () => ({
    transaction_id: crypto.randomUUID(),
    tenant_id: "t",
    project_id: "p",
    project_version: 1,
    correlation_id: null,
    metadata: {},
    created_at: "2026-01-01T00:00:00.000Z",
    source: "test",
  });
  const pdfs = [...new Bun.Glob("{invoice2data,splitting}/*.pdf").scanSync(corpora)].sort();
  const runOf = async (file: string, keepState?: boolean) => {
    const data = new Uint8Array(await Bun.file(`${corpora}/${file}`).arrayBuffer());
    const sources = [{ index: 0, filename: file, data, split_policy: "inherit" as const }];
    return runTransaction(
      { sources },
      { meta: meta(), project: parseProjectSettings(defaultProject), ocr: noOcr, sink: memorySink(), keepState },
    );
  };

  test("a run that keeps its state gets them, and its results and state texts are still JSON.stringify's, on every corpus PDF", async () => {
    expect(pdfs.length).toBeGreaterThan(10);
    let made = 0;
    for (const file of pdfs) {
      const out = await runOf(file);
      if (out.status === "failure") continue; // e.g. a password-protected sample: no pages to compare
      // Every page whose words are still the text layer's, packed, came with the text.
      const packed = out.pages
        .map((p) => wordsIdentity(p) as { boxes?: unknown; json?: string })
        .filter((w) => w.boxes instanceof Float64Array);
      expect(packed.every((w) => typeof w.json === "string")).toBe(true);
      made += packed.length;
      const json = runJsonOf(out.results, out.saved, out.pages);
      expect(json.results).toBe(JSON.stringify(out.results));
      expect(savedRunText(json.saved!)).toBe(JSON.stringify(out.saved));
    }
    expect(made).toBeGreaterThan(10);
  });

  test("the splicer takes the made text as it is, and a run that keeps no state asks for none", async () => {
    const kept = await runOf("invoice2data/AzureInterior.pdf");
    const packed = wordsIdentity(kept.pages[0]!) as { json?: string };
    expect(packed.json).toBe(JSON.stringify(kept.pages[0]!.words));
    packed.json = '["made by the pdf.js thread"]';
    expect(runJsonOf(kept.results, kept.saved, kept.pages).results).toContain('"words":["made by the pdf.js thread"]');
    const notKept = await runOf("invoice2data/AzureInterior.pdf", false);
    expect((wordsIdentity(notKept.pages[0]!) as { json?: string }).json).toBeUndefined();
    expect(notKept.pages[0]!.words.length).toBeGreaterThan(20);
  });
});

describe("review state from JSON text", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  test("stores the same state text and version as from the results object, a finished review's history included", async () => {
    const fresh = freshDb();
    cleanup = fresh.cleanup;
    const { db } = fresh;
    const out = await realRun();
    const stateOf = (id: string) =>
      db
        .query<{ state: string; version: number }, [string]>(
          "SELECT state, version FROM review_states WHERE transaction_id = ?",
        )
        .get(id)!;
    const reviewed = {
      ...out.results,
      transaction: {
        ...out.results.transaction,
        last_human_review: {
          reviewed: true,
          finished: true,
          reviewed_at: "2026-01-02T00:00:00.000Z",
          changes: [{ field: "total", from: "1", to: "2" }],
        },
      },
    };
    createProject(db, {
      project_id: "p1",
      tenant_id: "default",
      name: "P",
      description: "",
      settings: {},
      now: "2026-01-01T00:00:00.000Z",
    });
    for (const results of [out.results, reviewed]) {
      const [a, b, c] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
      for (const id of [a, b, c])
        createTransaction(db, {
          transaction_id: id,
          tenant_id: "default",
          project_id: "p1",
          now: "2026-01-01T00:00:00.000Z",
          metadata: {},
        });
      storeReviewResults(db, a, results, "2026-01-03T00:00:00.000Z");
      const json = runJsonOf(results, null, out.pages);
      storeReviewResultsText(db, b, json, "2026-01-03T00:00:00.000Z");
      storeReviewResultsText(db, b, json, "2026-01-03T00:00:00.000Z");
      storeReviewResults(db, a, results, "2026-01-03T00:00:00.000Z");
      // As the UTF-8 bytes that crossed from the pipeline thread: SQLite stores them as they are, as TEXT, never
      // made a string; PostgreSQL's driver gets the string.
      const bytes = textsForTransfer(json).json;
      expect(bytes.results).toBeInstanceOf(Uint8Array);
      const before = reviewStatesStoredAsBytes();
      storeReviewResultsText(db, c, bytes, "2026-01-03T00:00:00.000Z");
      storeReviewResultsText(db, c, bytes, "2026-01-03T00:00:00.000Z");
      expect(reviewStatesStoredAsBytes()).toBe(before + (isPostgres(db) ? 0 : 2));
      expect(stateOf(b).state).toBe(stateOf(a).state);
      expect(stateOf(c).state).toBe(stateOf(a).state);
      if (!isPostgres(db)) {
        const type = db
          .query<{ t: string }, [string]>("SELECT typeof(state) AS t FROM review_states WHERE transaction_id = ?")
          .get(c)!.t;
        expect(type).toBe("text");
      }
      expect(stateOf(b).version).toBe(2);
      expect(stateOf(c).version).toBe(2);
      expect(stateOf(a).version).toBe(2);
    }
  });
});
