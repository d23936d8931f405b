/**
 * A run's output as the JSON text the queue stores (the review state's results file, the run state), made where
 * the run happened: on the pipeline thread, not the thread that serves HTTP.
 *
 * Why: a 500-page PDF's pages carry ~10 MB of words, and both the results file and the run state hold them (the
 * same arrays). Cloning them to the HTTP thread and serialising them there twice took longer than the run's field
 * extraction; here each page's words are serialised once and spliced into both texts.
 *
 * Contract: every text MUST equal `JSON.stringify` of the same value byte for byte (stored state is read back with
 * JSON.parse by resume, rerun and review, and a diff of stored results must show only real changes).
 */
import { randomUUID } from "node:crypto";
import { wordsIdentity } from "../../core/convert/page-words";
import type { PackedWords } from "../../core/engines/pdf/pdf-protocol";
import type { Page, ResultsFile, ResultsPage } from "../../core/model";
import type { SavedRun } from "../../core/runner/types";

export interface RunJson {
  /**
   * JSON text of the results file (pages with their words); as UTF-8 bytes once it crossed from the pipeline
   * thread: it only goes on to the review state (storeReviewResultsText stores the bytes as they are).
   */
  results: string | Uint8Array;
  /** The results file's `transaction.last_human_review`: what the review state's history is made from. */
  lastHumanReview: ResultsFile["transaction"]["last_human_review"];
  /**
   * The run state with its files left out (`files: []`, in their place), and the JSON text of its files (as UTF-8
   * bytes once it crossed from the pipeline thread: it only goes on to the blob store). `documents`: the JSON text
   * of the state's documents when they are the results file's (a finished run), serialised once for both; the
   * head's `documents` is then a placeholder that savedRunText replaces with it.
   */
  saved: { head: SavedRun; files: string | Uint8Array; documents?: { tag: string; text: string } } | null;
}

type WithWords = { words?: unknown };

/**
 * Serialises pages' `words` members once per word list and splices the texts in. Pages are copied member by member
 * (same order) with a placeholder in `words`, so the surrounding JSON.stringify stays on its fast path and never
 * reads a word list already serialised: text-layer words are packed and unpack on read (core/convert/page-words.ts).
 * `identity` says which pages share their words (`wordsIdentity`); the output is that of the unmodified value.
 */
class WordsSplicer {
  private readonly tag = `\u0001words:${randomUUID()}:`;
  private readonly texts: string[] = [];
  private readonly indexOf = new Map<object, number>();
  private readonly pattern = new RegExp(`"${escapeRegExp(JSON.stringify(this.tag).slice(1, -1))}(\\d+)"`, "g");

  page<P extends WithWords>(page: P, identity: object): P {
    if (!Object.hasOwn(page, "words")) return page;
    let i = this.indexOf.get(identity);
    if (i === undefined) {
      // Packed text-layer words may come with their JSON text, made by the pdf.js thread (PackedWords.json).
      const made = packedJsonOf(identity);
      if (made !== undefined) i = this.texts.push(made) - 1;
      else {
        const words = page.words;
        if (!Array.isArray(words)) return page;
        i = this.texts.push(JSON.stringify(words)) - 1;
      }
      this.indexOf.set(identity, i);
    }
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(page)) copy[key] = key === "words" ? `${this.tag}${i}` : page[key as keyof P];
    return copy as P;
  }

  stringify(value: unknown): string {
    return JSON.stringify(value).replace(this.pattern, (_, i: string) => this.texts[Number(i)]!);
  }
}

/**
 * `pages`: the run's pages the results file was made of, in its order (RunOutcome.pages), so the results file and
 * the run state share each page's serialised words; without them the results file's words are serialised apart.
 */
export function runJsonOf(results: ResultsFile, saved: SavedRun | null, pages: Page[] = []): RunJson {
  const words = new WordsSplicer();
  const resultsPages = results.pages?.map((p, i) => words.page(p, resultsWordsIdentity(p, pages[i])));
  // A finished run's state holds the results file's own documents (core/runner/state.ts saveRun): their text
  // (2.4 MB for the 423 documents of 500 pages) is made once for both, not again on the HTTP thread.
  const shared = saved !== null && saved.documents === results.documents ? sharedDocuments(results.documents) : null;
  const resultsValue = { ...results, ...(shared ? { documents: shared.tag } : {}), pages: resultsPages };
  const resultsText = spliced(words.stringify(resultsValue), shared);
  let savedJson: RunJson["saved"] = null;
  if (saved) {
    const filesText = words.stringify(
      saved.files.map((f) => ({ ...f, pages: f.pages.map((p) => words.page(p, wordsIdentity(p))) })),
    );
    const head = { ...saved, ...(shared ? { documents: shared.tag as never } : {}), files: [] };
    savedJson = { head, files: filesText, ...(shared ? { documents: shared } : {}) };
  }
  return { results: resultsText, lastHumanReview: results.transaction.last_human_review, saved: savedJson };
}

function sharedDocuments(documents: unknown): { tag: string; text: string } {
  return { tag: `\u0001documents:${randomUUID()}`, text: JSON.stringify(documents) };
}

/** `text` with the placeholder string of `part` (its one occurrence) replaced by `part.text`. */
function spliced(text: string, part: { tag: string; text: string } | null | undefined): string {
  if (!part) return text;
  const quoted = JSON.stringify(part.tag);
  const at = text.indexOf(quoted);
  return at < 0 ? text : text.slice(0, at) + part.text + text.slice(at + quoted.length);
}

/**
 * A results page's words read through to its run page (core/results.ts) until something assigns them: then they
 * are its own array. Only a run page with the same number in the same place counts as its source.
 */
function resultsWordsIdentity(entry: ResultsPage, page: Page | undefined): object {
  const own = Object.getOwnPropertyDescriptor(entry, "words");
  if (own && "value" in own) return own.value ?? entry;
  return page && page.page_number === entry.page_number ? wordsIdentity(page) : entry;
}

/** JSON text of `{ ...saved, ...patch }` (patch: members the queue sets, e.g. `run`, `processing_seconds`). */
export function savedRunText(
  saved: NonNullable<RunJson["saved"]>,
  patch: Omit<Partial<SavedRun>, "files"> = {},
): string | Uint8Array {
  const tag = `\u0001files:${randomUUID()}`;
  // `files` keeps its place among the members: the placeholder stands where the array was.
  const text = spliced(JSON.stringify({ ...saved.head, ...patch, files: tag }), saved.documents);
  const at = text.indexOf(JSON.stringify(tag));
  const [before, after] = [text.slice(0, at), text.slice(at + JSON.stringify(tag).length)];
  if (typeof saved.files === "string") return before + saved.files + after;
  const encoder = new TextEncoder();
  return Buffer.concat([encoder.encode(before), saved.files, encoder.encode(after)]);
}

/** The JSON text of packed words made where they were read, if `identity` is such words (see wordsIdentity). */
function packedJsonOf(identity: object): string | undefined {
  const json = (identity as Partial<PackedWords>).json;
  return typeof json === "string" && (identity as Partial<PackedWords>).boxes instanceof Float64Array
    ? json
    : undefined;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * A QueueRunOutcome's `json` with its two large texts as UTF-8 bytes, and the buffers to transfer: crossing from the
 * pipeline thread this way moves them instead of copying (500 pages: postMessage took 64 ms with the texts as
 * strings). They stay bytes on the other side (see RunJson).
 */
export function textsForTransfer(json: RunJson): { json: RunJson; transfer: ArrayBuffer[] } {
  const encoder = new TextEncoder();
  const results = typeof json.results === "string" ? encoder.encode(json.results) : json.results;
  const files = json.saved
    ? typeof json.saved.files === "string"
      ? encoder.encode(json.saved.files)
      : json.saved.files
    : null;
  const moved = {
    ...json,
    results,
    saved: json.saved && files && { ...json.saved, files },
  };
  return { json: moved, transfer: [results.buffer as ArrayBuffer, ...(files ? [files.buffer as ArrayBuffer] : [])] };
}
