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
import type { ResultsFile } from "../core/model";
import type { SavedRun } from "../core/runner/types";

export interface RunJson {
  /** JSON text of the results file (pages with their words). */
  results: string;
  /** The results file's `transaction.last_human_review`: what the review state's history is made from. */
  lastHumanReview: ResultsFile["transaction"]["last_human_review"];
  /** The run state with its files left out (`files: []`, in their place), and the JSON text of its files. */
  saved: { head: SavedRun; files: string } | null;
}

type WithWords = { words?: unknown };

/**
 * Serialises pages' `words` members once each, keyed by array identity, and splices them in: the page objects are
 * copied shallowly with a placeholder in `words` (same key order), so the surrounding JSON.stringify stays on its
 * fast path and the output is that of the unmodified value.
 */
class WordsSplicer {
  private readonly tag = `\u0001words:${randomUUID()}:`;
  private readonly texts: string[] = [];
  private readonly indexOf = new Map<unknown, number>();
  private readonly pattern = new RegExp(`"${escapeRegExp(JSON.stringify(this.tag).slice(1, -1))}(\\d+)"`, "g");

  page<P extends WithWords>(page: P): P {
    if (!Array.isArray(page.words)) return page;
    let i = this.indexOf.get(page.words);
    if (i === undefined) {
      i = this.texts.push(JSON.stringify(page.words)) - 1;
      this.indexOf.set(page.words, i);
    }
    return { ...page, words: `${this.tag}${i}` };
  }

  stringify(value: unknown): string {
    return JSON.stringify(value).replace(this.pattern, (_, i: string) => this.texts[Number(i)]!);
  }
}

export function runJsonOf(results: ResultsFile, saved: SavedRun | null): RunJson {
  const words = new WordsSplicer();
  const resultsText = words.stringify({ ...results, pages: results.pages?.map((p) => words.page(p)) });
  let savedJson: RunJson["saved"] = null;
  if (saved) {
    const filesText = words.stringify(saved.files.map((f) => ({ ...f, pages: f.pages.map((p) => words.page(p)) })));
    savedJson = { head: { ...saved, files: [] }, files: filesText };
  }
  return { results: resultsText, lastHumanReview: results.transaction.last_human_review, saved: savedJson };
}

/** JSON text of `{ ...saved, ...patch }` (patch: members the queue sets, e.g. `run`, `processing_seconds`). */
export function savedRunText(saved: NonNullable<RunJson["saved"]>, patch: Omit<Partial<SavedRun>, "files"> = {}): string {
  const tag = `\u0001files:${randomUUID()}`;
  // `files` keeps its place among the members: the placeholder stands where the array was.
  const text = JSON.stringify({ ...saved.head, ...patch, files: tag });
  const at = text.indexOf(JSON.stringify(tag));
  return text.slice(0, at) + saved.files + text.slice(at + JSON.stringify(tag).length);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
