/**
 * Text-layer words kept packed (issue 18, memory bounded by design). A PDF page's words arrive from the pdf.js
 * worker packed (pdf-protocol.ts: four float64 per box, the texts inside the page text), ~36 bytes a word; as
 * `Word` objects they take ~190 bytes, so a 2,000-page file of prose held 174 MB of them until the run ended.
 *
 * `withPackedWords` gives a page a `words` property that unpacks on first read and keeps the array in a cache of
 * bounded size (WORD_BUDGET words over all pages, oldest unpacked first out); an evicted page unpacks again on its
 * next read, with equal content. So what stays per page is the packed form, and the `Word` objects alive are those
 * of the recently read pages plus whatever a caller still holds (the lines of the document being extracted).
 *
 * Contracts:
 * - Reading `page.words` MUST give the same words (texts, boxes, confidence, line) however often it is read; the
 *   array's identity MAY change between reads. Code that remembers "this page as I saw it" compares
 *   `wordsIdentity(page)`, which stays the same until `words` is assigned.
 * - Assigning `page.words` (OCR does, for a page whose text layer was unusable) stores that array as it is, never
 *   evicted, as for any other page.
 * - The property is enumerable: spreading, JSON and structuredClone see a plain array of words.
 *
 * The packed words themselves are kept in memory for the most recent pages only (PACKED_BUDGET bytes over all
 * pages, oldest first out): older pages' packed words go to a temporary file (word-spill.ts) and are read back from
 * it when their words are asked for, so what a run holds of its pages' words does not grow with its length. Packed
 * words that carry their JSON text (a run whose state is stored, PackedWords.json) stay in memory.
 */
import type { Page, Word } from "../model.ts";
import { unpackWords, type PackedWords } from "../engines/pdf/pdf-protocol.ts";
import { readSpilled, spill, type SpilledWords } from "./word-spill.ts";

/** Unpacked words kept over all pages: ~19 MB of objects, a few hundred pages of an invoice. */
export const WORD_BUDGET = 100_000;

/**
 * Packed words kept in memory over all pages (36 bytes a word): ~850 invoice pages; older pages' are on disk. Not
 * smaller: spilling costs main-thread CPU (a write and a read back per page, ~+8% on 500 pages at 2 MB), so files of
 * the size most runs see never touch the disk, while what a run holds of its words still stops growing past it.
 */
export const PACKED_BUDGET = 6 * 1024 * 1024;
let packedBudget = PACKED_BUDGET;

/** Sets the budget (tests: a small one spills after a few hundred pages, not thousands); returns the previous one. */
export function setPackedBudget(bytes: number): number {
  const previous = packedBudget;
  packedBudget = bytes;
  return previous;
}

/** A page's packed words, shared by its copies: in memory, or on disk once spilled. */
interface Held {
  packed: PackedWords | null;
  spilled: SpilledWords | null;
  count: number;
  /** What wordsIdentity gives: the packed words while they may carry their JSON text, else this object. */
  identity: object;
}

interface Lazy {
  held: Held;
  text: string;
  words: Word[] | null;
}

/** Pages whose unpacked words are cached, oldest first, and how many words they hold. */
const cached = new Set<Lazy>();
let cachedWords = 0;
const stateOf = new WeakMap<Page, Lazy>();
/** Packed words in memory that may be spilled, oldest first, and their bytes. */
const resident = new Set<Held>();
let residentBytes = 0;

/**
 * Defines `page.words` from the packed words of its text layer (`text` is the page text they were packed with).
 * Returns the page.
 */
export function withPackedWords<P extends Omit<Page, "words">>(
  page: P,
  packed: PackedWords,
  text: string,
): P & Pick<Page, "words"> {
  return withHeld(page, heldOf(packed), text);
}

function heldOf(packed: PackedWords): Held {
  const held: Held = { packed, spilled: null, count: packed.lines.length, identity: packed };
  if (packed.json !== undefined || packed.texts !== undefined) return held;
  held.identity = held;
  resident.add(held);
  residentBytes += packed.boxes.byteLength + packed.lines.byteLength;
  for (const oldest of resident) {
    if (residentBytes <= packedBudget || oldest === held) break;
    spillOut(oldest);
  }
  return held;
}

/** Writes the packed words to disk and lets go of them in memory (kept when they cannot be written). */
function spillOut(held: Held): void {
  resident.delete(held);
  residentBytes -= held.packed!.boxes.byteLength + held.packed!.lines.byteLength;
  const spilled = spill(held.packed!, held);
  if (!spilled) return;
  held.spilled = spilled;
  held.packed = null;
}

function withHeld<P extends Omit<Page, "words">>(page: P, held: Held, text: string): P & Pick<Page, "words"> {
  const lazy: Lazy = { held, text, words: null };
  Object.defineProperty(page, "words", {
    enumerable: true,
    configurable: true,
    get: () => read(lazy),
    set(words: Word[]) {
      forget(lazy);
      stateOf.delete(page as unknown as Page);
      Object.defineProperty(page, "words", { value: words, enumerable: true, configurable: true, writable: true });
    },
  });
  stateOf.set(page as unknown as Page, lazy);
  return page as P & Pick<Page, "words">;
}

/** What stands for the page's words in a memo key: the same object as long as the words are the same. */
export function wordsIdentity(page: Page): object {
  return stateOf.get(page)?.held.identity ?? page.words;
}

/** How many words the page has, without unpacking packed ones. */
export function wordCountOf(page: Page): number {
  return stateOf.get(page)?.held.count ?? page.words.length;
}

/** Copies a page keeping its packed words packed (a spread would unpack them into the copy for good). */
export function copyPage<P extends Page>(page: P): P {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(page)) as P;
  const lazy = stateOf.get(page);
  if (lazy) withHeld(copy as Omit<P, "words">, lazy.held, lazy.text);
  return copy;
}

/** Throws as unpackWords would when the page text does not split into the packed words. */
export function checkPackedWords(packed: PackedWords, text: string): void {
  const count = packed.lines.length;
  let texts = packed.texts?.length ?? 0;
  if (!packed.texts && count > 0) {
    texts = 1;
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 10) texts++;
  }
  if (texts !== count) throw new Error(`page text has ${texts} words, boxes ${count}`);
}

/** How many unpacked words the cache holds now: never more than WORD_BUDGET, whatever the page count. */
export function cachedWordCount(): number {
  return cachedWords;
}

/** Bytes of packed words held in memory that may be spilled: never much more than PACKED_BUDGET. */
export function residentPackedBytes(): number {
  return residentBytes;
}

/** Empties the cache (pages unpack again on their next read): what a test measures then is what the pages keep. */
export function releaseUnpackedWords(): void {
  for (const lazy of cached) forget(lazy);
}

/**
 * A run has ended (runner/run.ts): its pages' unpacked words leave the cache and their packed words the resident
 * set. Both are bounded, but they held a finished run's pages (and their texts) until later pages pushed them out:
 * in `serve` or `watch`, the last run's ~100,000 words and 6 MB between runs. Reading a page's words later still
 * works: they unpack again from where they are. `unpackedOnly`: the cache only (the runner, once Extract has run:
 * the stages after it seldom read words, and the export, the peak of a long run, then holds none).
 */
export function releaseWordsOf(pages: Iterable<Page>, opts: { unpackedOnly?: boolean } = {}): void {
  for (const page of pages) {
    const lazy = stateOf.get(page);
    if (!lazy) continue;
    forget(lazy);
    const { held } = lazy;
    if (opts.unpackedOnly || !held.packed || !resident.delete(held)) continue;
    residentBytes -= held.packed.boxes.byteLength + held.packed.lines.byteLength;
  }
}

function read(lazy: Lazy): Word[] {
  if (lazy.words) return lazy.words;
  const { held } = lazy;
  const words = unpackWords(held.packed ?? readSpilled(held.spilled!), lazy.text);
  lazy.words = words;
  cached.add(lazy);
  cachedWords += words.length;
  for (const oldest of cached) {
    if (cachedWords <= WORD_BUDGET || oldest === lazy) break;
    forget(oldest);
  }
  return words;
}

function forget(lazy: Lazy): void {
  if (!cached.delete(lazy)) return;
  cachedWords -= lazy.words?.length ?? 0;
  lazy.words = null;
}
