/**
 * Answers computed ahead for a run of pages (a document as reading ahead saw it, core/stages/convert/read-ahead.ts), handed
 * to the stage that asks the same question later (stages/classify/, stages/extract/).
 *
 * Contract: `take` MUST return an answer only for the same page objects, in the same order, whose content (text,
 * words, geometry, text source, page number) is unchanged since `put`, under the same `context` (project, class):
 * results are then the same with or without the memo, only the time differs. An answer is handed over once.
 *
 * Entries live as long as their first page unless taken or forgotten: a run forgets its pages' entries once the
 * stages that ask have run (`forget`), so answers never taken (a page's class, peeked, or a document the splitter
 * cut otherwise) do not stay with the run's pages until it ends (issue 34: memory bounded by design).
 *
 * With `residentMax`, only the answers of the most recent `residentMax` entries stay in memory: older ones go to a
 * temporary file as JSON (convert/word-spill.ts) and are parsed again when taken, so what a long run holds of its
 * answers while its file converts does not grow with its length. An answer JSON would not give back exactly (a
 * non-finite number, -0, `undefined`, anything but plain objects and arrays) stays in memory.
 */
import { wordsIdentity } from "./convert/page-words";
import { edenGC } from "bun:jsc";
import { readSpilledBytes, spillBytes, type SpilledBytes } from "./convert/word-spill";
import type { Page } from "./model";

interface Stamp {
  text: string;
  words: object;
  transform: Page["image_transform"];
  source: Page["text_source"];
  pageNumber: number;
}

const stampOf = (page: Page): Stamp => ({
  text: page.text,
  words: wordsIdentity(page),
  transform: page.image_transform,
  source: page.text_source,
  pageNumber: page.page_number,
});

const sameStamp = (a: Stamp, b: Stamp) =>
  a.text === b.text &&
  a.words === b.words &&
  a.transform === b.transform &&
  a.source === b.source &&
  a.pageNumber === b.pageNumber;

interface Entry<V> {
  pages: Page[];
  stamps: Stamp[];
  context: readonly unknown[];
  /** Undefined once the answer is on disk (`spilled`). */
  value: V | undefined;
  spilled: SpilledBytes | null;
}

export class PageMemo<V> {
  // Keyed by the first page, so a run's answer goes when its pages go; one entry per run length (a page is asked
  // about alone by Split and as the start of its document by Classify).
  private readonly entries = new WeakMap<Page, Array<Entry<V>>>();
  private held = 0;
  /** Entries whose answers are in memory and may go to disk, oldest first (only with a `residentMax`). */
  private readonly resident = new Set<Entry<V>>();
  private spilledCount = 0;

  constructor(private readonly residentMax = Number.POSITIVE_INFINITY) {}

  /** Answers written to disk so far (tests count them). */
  get spilled(): number {
    return this.spilledCount;
  }

  /** Entries whose answers are in memory and may go to disk: never more than `residentMax`. */
  get residentCount(): number {
    return this.resident.size;
  }

  /** Entries put and neither taken nor forgotten (tests count them; entries of pages collected still count). */
  get size(): number {
    return this.held;
  }

  put(pages: Page[], context: readonly unknown[], value: V): void {
    if (pages.length === 0) return;
    const before = this.entries.get(pages[0]!) ?? [];
    const list = before.filter((e) => e.pages.length !== pages.length);
    for (const e of before) if (e.pages.length === pages.length) this.resident.delete(e);
    const entry: Entry<V> = { pages: [...pages], stamps: pages.map(stampOf), context, value, spilled: null };
    list.push(entry);
    this.held += list.length - before.length;
    this.entries.set(pages[0]!, list);
    if (this.residentMax === Number.POSITIVE_INFINITY) return;
    this.resident.add(entry);
    for (const oldest of this.resident) {
      if (this.resident.size <= this.residentMax) break;
      this.spillOut(oldest);
    }
  }

  private spillOut(entry: Entry<V>): void {
    this.resident.delete(entry);
    const json = exactJson(entry.value);
    const spilled = json === null ? null : spillBytes(new TextEncoder().encode(json), entry);
    if (json !== null) paceGarbage(json.length);
    if (!spilled) return; // kept in memory
    entry.spilled = spilled;
    entry.value = undefined;
    this.spilledCount++;
  }

  private valueOf(entry: Entry<V>): V {
    if (!entry.spilled) return entry.value as V;
    const json = new TextDecoder().decode(readSpilledBytes(entry.spilled));
    paceGarbage(json.length);
    return JSON.parse(json) as V;
  }

  /** Drops every entry whose run of pages starts at one of `pages`. */
  forget(pages: Iterable<Page>): void {
    for (const page of pages) {
      const list = this.entries.get(page);
      if (!list) continue;
      for (const e of list) this.resident.delete(e);
      this.held -= list.length;
      this.entries.delete(page);
    }
  }

  /** The answer for these pages under this context, removed from the memo; undefined when there is none. */
  take(pages: Page[], context: readonly unknown[]): V | undefined {
    const entry = this.find(pages, context);
    if (!entry) return undefined;
    this.entries.set(
      pages[0]!,
      this.entries.get(pages[0]!)!.filter((e) => e !== entry),
    );
    this.held--;
    this.resident.delete(entry);
    return this.valueOf(entry);
  }

  /** Like take, but the answer stays (for a question asked several times, such as a one-page document's class). */
  peek(pages: Page[], context: readonly unknown[]): V | undefined {
    const entry = this.find(pages, context);
    return entry && this.valueOf(entry);
  }

  private find(pages: Page[], context: readonly unknown[]): Entry<V> | undefined {
    const list = pages.length ? this.entries.get(pages[0]!) : undefined;
    return list?.find((e) => this.matches(e, pages, context));
  }

  private matches(entry: Entry<V>, pages: Page[], context: readonly unknown[]): boolean {
    if (entry.pages.length !== pages.length || entry.context.length !== context.length) return false;
    if (entry.context.some((c, i) => c !== context[i])) return false;
    return pages.every((p, i) => p === entry.pages[i] && sameStamp(entry.stamps[i]!, stampOf(p)));
  }
}

/**
 * `value` as JSON when parsing it gives back an equal value (plain objects and arrays of strings, finite numbers,
 * booleans and null); null otherwise. Checked apart, then written without a replacer: JSON.stringify with one
 * (a call per value) took 30-55 µs a document, the check and the plain writing 10-18.
 */
function exactJson(value: unknown): string | null {
  return exact(value) ? JSON.stringify(value) : null;
}

function exact(v: unknown): boolean {
  switch (typeof v) {
    case "string":
    case "boolean":
      return true;
    case "number":
      return Number.isFinite(v) && !Object.is(v, -0);
    case "object": {
      if (v === null) return true;
      if (Array.isArray(v)) {
        if (Object.getPrototypeOf(v) !== Array.prototype) return false;
        for (let i = 0; i < v.length; i++) if (!(i in v) || !exact(v[i])) return false;
        return true;
      }
      if (Object.getPrototypeOf(v) !== Object.prototype) return false;
      for (const key in v) if (!exact((v as Record<string, unknown>)[key])) return false;
      return true;
    }
    default:
      return false; // undefined, functions, symbols, bigints
  }
}

/**
 * Characters of JSON written or read between two young (eden) collections. The text and its bytes are garbage at
 * once, but JavaScriptCore collects only when the heap has grown by what was alive at its last collection: reading
 * back 2,000 pages' answers in Extract (~25 MB of text and bytes) raised that stage's peak above Convert's. A young
 * collection visits only what was allocated since the last one (a few ms), as the JSON export does (json-chunks.ts).
 */
const CHARS_PER_COLLECTION = 2 * 1024 * 1024;
let sinceCollection = 0;

function paceGarbage(chars: number): void {
  sinceCollection += chars;
  if (sinceCollection < CHARS_PER_COLLECTION) return;
  sinceCollection = 0;
  edenGC();
}
