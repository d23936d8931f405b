/**
 * Seeded, deterministic mutations of sample documents: input `i` of seed `s` is always the same bytes, so a
 * failure found by `bun run fuzz` is reproduced with `--seed s --only i`.
 *
 * The operators aim at what real parsers trip on: flipped bits and bytes (damaged media), truncation (partial
 * uploads), spliced and repeated chunks (broken concatenation), inflated numbers (the counts, lengths and sizes a
 * header declares: `/N 99999999`, `/Count`, image widths), deleted keywords (`endobj`, `xref`, `startxref`) and
 * inserted junk. One to four operators per input.
 */
import { Rng } from "../../fixtures/varied/generator/random";

export interface Mutation {
  bytes: Uint8Array;
  ops: string[];
}

const KEYWORDS = [
  "endobj",
  "endstream",
  "stream",
  "xref",
  "startxref",
  "trailer",
  "obj",
  "/Length",
  "/Filter",
  "/Count",
  "/Kids",
  "/Root",
  "IDAT",
  "IEND",
];
const BIG = ["0", "-1", "99999999", "2147483647", "4294967295", "1e308", "999999999999999999999"];

function findAll(hay: Uint8Array, needle: string, limit = 64): number[] {
  const n = Uint8Array.from(needle, (c) => c.charCodeAt(0));
  const out: number[] = [];
  outer: for (let i = 0; i + n.length <= hay.length && out.length < limit; i++) {
    for (let j = 0; j < n.length; j++) if (hay[i + j] !== n[j]) continue outer;
    out.push(i);
  }
  return out;
}

/** Spans of ASCII digits (candidates for inflation), sampled from up to `limit` places spread over the file. */
function numberSpans(data: Uint8Array, rng: Rng, limit = 32): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  for (let tries = 0; tries < limit * 4 && spans.length < limit; tries++) {
    let i = rng.int(0, Math.max(0, data.length - 1));
    let steps = 0;
    while (i < data.length && (data[i]! < 0x30 || data[i]! > 0x39) && steps++ < 4096) i++;
    if (i >= data.length || steps > 4096) continue;
    let j = i;
    while (j < data.length && data[j]! >= 0x30 && data[j]! <= 0x39) j++;
    spans.push([i, j]);
  }
  return spans;
}

const splice = (data: Uint8Array, at: number, remove: number, insert: Uint8Array) => {
  const out = new Uint8Array(data.length - remove + insert.length);
  out.set(data.subarray(0, at), 0);
  out.set(insert, at);
  out.set(data.subarray(at + remove), at + insert.length);
  return out;
};

const ascii = (s: string) => Uint8Array.from(s, (c) => c.charCodeAt(0));

type Op = (data: Uint8Array, rng: Rng) => [Uint8Array, string];

const OPS: Op[] = [
  (d, r) => {
    const out = d.slice();
    const n = r.int(1, 16);
    for (let k = 0; k < n; k++) out[r.int(0, out.length - 1)]! ^= 1 << r.int(0, 7);
    return [out, `flip ${n} bits`];
  },
  (d, r) => {
    const out = d.slice();
    const at = r.int(0, out.length - 1);
    const v = r.pick([0x00, 0xff, 0x7f, 0x80, 0x39, 0x28, 0x3c]);
    const n = r.int(1, 8);
    out.fill(v, at, Math.min(out.length, at + n));
    return [out, `set ${n} bytes at ${at} to 0x${v.toString(16)}`];
  },
  (d, r) => {
    const at = r.int(Math.min(8, d.length), d.length);
    return [d.slice(0, at), `truncate at ${at}`];
  },
  (d, r) => {
    const from = r.int(0, d.length - 1);
    const len = r.int(1, Math.min(4096, d.length - from));
    const at = r.int(0, d.length);
    return [splice(d, at, 0, d.slice(from, from + len)), `copy ${len} bytes from ${from} to ${at}`];
  },
  (d, r) => {
    const at = r.int(0, d.length - 1);
    const len = r.int(1, Math.min(4096, d.length - at));
    return [splice(d, at, len, new Uint8Array()), `delete ${len} bytes at ${at}`];
  },
  (d, r) => {
    const spans = numberSpans(d, r);
    if (!spans.length) return [d, "no number to inflate"];
    const [a, b] = r.pick(spans);
    const v = r.pick(BIG);
    return [splice(d, a, b - a, ascii(v)), `number at ${a} → ${v}`];
  },
  (d, r) => {
    const word = r.pick(KEYWORDS);
    const hits = findAll(d, word);
    if (!hits.length) return [d, `no ${word}`];
    const at = r.pick(hits);
    return [splice(d, at, word.length, new Uint8Array()), `delete ${word} at ${at}`];
  },
  (d, r) => {
    const junk = new Uint8Array(r.int(1, 512));
    for (let k = 0; k < junk.length; k++) junk[k] = r.int(0, 255);
    const at = r.int(0, d.length);
    return [splice(d, at, 0, junk), `insert ${junk.length} random bytes at ${at}`];
  },
  (d, r) => {
    // Header fields: most formats keep sizes and counts in the first bytes.
    const out = d.slice();
    const at = r.int(0, Math.min(out.length - 1, 64));
    out[at] = r.pick([0x00, 0xff, 0x7f]);
    return [out, `header byte ${at}`];
  },
];

/** Input `index` of `seed`: a base file picked and mutated by an Rng seeded from both. */
export function mutate(bases: Uint8Array[], seed: number, index: number): Mutation & { base: number } {
  const rng = new Rng((Math.imul(seed, 0x9e3779b1) ^ Math.imul(index + 1, 0x85ebca6b)) >>> 0);
  const base = rng.int(0, bases.length - 1);
  let bytes = bases[base]!;
  const ops: string[] = [];
  const count = rng.int(1, 4);
  for (let k = 0; k < count && bytes.length > 0; k++) {
    const [next, op] = rng.pick(OPS)(bytes, rng);
    bytes = next;
    ops.push(op);
  }
  return { bytes, ops, base };
}
