/**
 * A file's text handed to the sink in pieces (issue 34): the JSON results file of a long run was one string of
 * ~9 MB per 1,000 pages (twice that when a character outside Latin-1 made it two bytes a character), then its
 * UTF-8 copy, on top of everything the run holds: at 2,000 pages the export was the run's peak RSS, 85 MB above
 * the rest. In pieces, a folder sink writes each to the file as it comes and nothing holds the whole text.
 */
import { edenGC } from "bun:jsc";

/** Text produced piece by piece; `pieces()` may be called more than once and gives the same text each time. */
export class TextChunks {
  constructor(readonly pieces: () => Iterable<string>) {}

  /** The whole text at once, for sinks that store a file in one write (memory, blob stores). */
  text(): string {
    let out = "";
    for (const piece of this.pieces()) out += piece;
    return out;
  }
}

/** Pieces are gathered to about this many characters before they are handed on (one write each). */
export const CHUNK_CHARS = 64 * 1024;

/**
 * Characters handed on between two young (eden) collections. Each piece is a string JSON.stringify made and the
 * writer dropped, but JavaScriptCore collected them only once the heap had doubled: on 2,000 pages (18 MB of JSON,
 * a run holding ~70 MB) the export still rose 68 MB above the rest of the run, its peak. A young collection visits
 * only what was allocated since the last one: every 2 M characters, 6 of them took 11 ms and the export rose 16 MB.
 */
export const CHARS_PER_COLLECTION = 2 * 1024 * 1024;

let collections = 0;

/** Young collections run so far while pieces were handed on (tests count them). */
export function chunkCollections(): number {
  return collections;
}

/**
 * `JSON.stringify(value, null, 2)` of a value nested `depth` (1 or 2) levels deep, laid out as it is there. Cut out
 * of its wrapper's text rather than re-indented: a substring shares the wrapper's characters, where replacing every
 * line break made a second copy of each piece (garbage as long as the file).
 */
function nested(value: unknown, depth: 1 | 2): string {
  if (value === undefined || typeof value === "function" || typeof value === "symbol") return "null";
  const wrapped = JSON.stringify(depth === 1 ? [value] : [[value]], null, 2);
  const cut = depth === 1 ? 4 : 10; // "[\n  " or "[\n  [\n    " before, "\n]" or "\n  ]\n]" after
  return wrapped.slice(cut, wrapped.length - (depth === 1 ? 2 : 6));
}

/** Whether JSON.stringify would write this property of an object (undefined, functions and symbols it leaves out). */
const written = (v: unknown) => v !== undefined && typeof v !== "function" && typeof v !== "symbol";

/** The pieces of `JSON.stringify(value, null, 2) + "\n"` for an object: its arrays an element at a time. */
function* pieces(value: Record<string, unknown>): Generator<string> {
  const keys = Object.keys(value).filter((k) => written(value[k]));
  if (keys.length === 0) return yield "{}\n";
  yield "{";
  for (const [i, key] of keys.entries()) {
    const v = value[key];
    yield `${i === 0 ? "" : ","}\n  ${JSON.stringify(key)}: `;
    if (!Array.isArray(v) || v.length === 0 || "toJSON" in v) {
      yield nested(v, 1);
      continue;
    }
    yield "[";
    for (const [j, el] of v.entries()) yield `${j === 0 ? "" : ","}\n    ${nested(el, 2)}`;
    yield "\n  ]";
  }
  yield "\n}\n";
}

/**
 * The pretty-printed JSON (2 spaces, a final newline) of an object, byte for byte `JSON.stringify(value, null, 2)
 * + "\n"`, in pieces of about CHUNK_CHARS: only one element of its top-level arrays is a string at a time.
 */
export function jsonChunks(value: Record<string, unknown>): TextChunks {
  // An object that says how it is written (toJSON) is written as a whole.
  if (typeof value.toJSON === "function") return new TextChunks(() => [JSON.stringify(value, null, 2) + "\n"]);
  return new TextChunks(function* () {
    let buffered = "";
    let sinceCollection = 0;
    for (const piece of pieces(value)) {
      buffered += piece;
      if (buffered.length < CHUNK_CHARS) continue;
      yield buffered;
      sinceCollection += buffered.length;
      buffered = "";
      if (sinceCollection >= CHARS_PER_COLLECTION) {
        sinceCollection = 0;
        collections++;
        edenGC();
      }
    }
    if (buffered) yield buffered;
  });
}
