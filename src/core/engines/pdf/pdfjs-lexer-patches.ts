/**
 * Equivalent, cheaper versions of pdf.js's Lexer (the tokenizer under every content stream: about 40% of its
 * text-extraction CPU on born-digital pages), under the contract of pdfjs-speed-patches.ts: exactly the same tokens,
 * the same stream positions, the same warnings; applied whole or not at all.
 *
 * - Bytes straight from the buffer: when a lexer's stream reads bytes with the plain Stream.getByte (an in-memory
 *   file, a sub-stream of it) or the plain DecodeStream.getByte (Flate and every other decoder, several content
 *   streams in a row), a byte already in `bytes` before `end` / in `buffer` before `bufferLength` is what getByte
 *   would return, and `pos` moves by one as getByte moves it. Anything else (the end of the data, a decoder that
 *   must decode its next block, a stream class with its own getByte such as the chunked network stream) still
 *   calls getByte. A window of a file read from disk (pdfjs-file-stream.ts, `docprocWindow`) is read like a plain
 *   Stream while its byte is in `bytes` (byteKind 3: its getByte grows the window past them). The stream stays the
 *   one source of truth: the lexer keeps no position of its own, so the parser's inline-image code, which reads the
 *   same stream directly, sees what it saw before.
 */
import { GET_OBJ_FAST } from "./pdfjs-lexer-tokens.ts";
import type { Patch } from "./pdfjs-patch.ts";

const LEXER_BYTES: Patch[] = [
  [
    "  constructor(stream, knownCommands = null) {\n    this.stream = stream;\n    this.nextChar();\n",
    "  constructor(stream, knownCommands = null) {\n    this.stream = stream;\n" +
      "    this.byteKind = stream.getByte === Stream.prototype.getByte ? 1 : stream.getByte === DecodeStream.prototype.getByte ? 2 : stream.docprocWindow === true ? 3 : 0;\n" +
      "    this.commandCache = commandCacheOf(knownCommands);\n" +
      "    this.nextChar();\n",
  ],
  [
    "  nextChar() {\n    return this.currentChar = this.stream.getByte();\n  }\n  peekChar() {\n    return this.stream.peekByte();\n  }\n  getNumber() {\n",
    "  nextChar() {\n" +
      "    const s = this.stream, kind = this.byteKind;\n" +
      "    if (kind === 2) {\n" +
      "      const p = s.pos;\n" +
      "      if (p < s.bufferLength) {\n        s.pos = p + 1;\n        return this.currentChar = s.buffer[p];\n      }\n" +
      "    } else if (kind === 1) {\n" +
      "      const p = s.pos;\n" +
      "      if (p < s.end) {\n        s.pos = p + 1;\n        return this.currentChar = s.bytes[p];\n      }\n" +
      "    } else if (kind === 3) {\n" +
      "      const p = s.pos;\n" +
      "      if (p < s.end && p < s.bytes.length) {\n        s.pos = p + 1;\n        return this.currentChar = s.bytes[p];\n      }\n" +
      "    }\n" +
      "    return this.currentChar = s.getByte();\n" +
      "  }\n  peekChar() {\n    return this.stream.peekByte();\n  }\n  getNumber() {\n",
  ],
];

/** Scratch char codes of the token being read (lexing is synchronous: one token at a time). */
const CODES_HELPERS = `const lexerCodes = [];
const lexerHexDigits = new Int8Array(256).map((_, ch) => specialChars[ch] === 1 ? -2 : toHexDigit(ch));
const lexerNameCache = new Map();
const lexerCommandCaches = new WeakMap();
const lexerNullCommandCache = new Map();
function resolveCommand(knownCommands, key) {
  let str = String.fromCharCode(key % 256);
  key = Math.floor(key / 256);
  let knownCommandFound = knownCommands?.[str] !== undefined;
  while (key !== 0) {
    const possibleCommand = str + String.fromCharCode(key % 256);
    if (knownCommandFound && knownCommands[possibleCommand] === undefined) {
      break;
    }
    str = possibleCommand;
    knownCommandFound = knownCommands?.[str] !== undefined;
    key = Math.floor(key / 256);
  }
  return str;
}
function commandCacheOf(knownCommands) {
  if (!knownCommands) return lexerNullCommandCache;
  let cache = lexerCommandCaches.get(knownCommands);
  if (!cache) lexerCommandCaches.set(knownCommands, cache = new Map());
  return cache;
}
function codesToString(codes, n) {
  if (n === 0) return "";
  if (n === 1) return String.fromCharCode(codes[0]);
  if (n === 2) return String.fromCharCode(codes[0], codes[1]);
  codes.length = n;
  return String.fromCharCode.apply(null, codes);
}
class Lexer {
`;

/** One group: the token reader needs the lexer's byteKind. */
export const LEXER: Patch[] = [
  ["}\nclass Lexer {\n", "}\n" + CODES_HELPERS],
  ...LEXER_BYTES,
  ["  getObj() {\n    let comment = false;\n    let ch = this.currentChar;\n", GET_OBJ_FAST],
];
