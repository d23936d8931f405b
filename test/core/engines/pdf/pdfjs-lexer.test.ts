/**
 * The Lexer speed patch (src/core/engines/pdf/pdfjs-lexer-patches.ts) reads every token as stock pdf.js does: the same
 * values (numbers such as "-.5", "4.", "--3", "1.2.3"; hex strings with odd digit counts, whitespace or invalid
 * digits; strings with escapes, octal codes and nested parentheses; names with #xx; commands cut by the known
 * operators), the same errors, and the same lexer and stream state after each token (currentChar, pos), also when
 * a token is cut by the end of the data or by a decoder's block boundary. Stock and patched pdf.js workers are
 * both loaded in this process, with their Lexer exported, and lex the same bytes side by side.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { LEXER } from "../../../../src/core/engines/pdf/pdfjs-lexer-patches.ts";
import { applyPatches } from "../../../../src/core/engines/pdf/pdfjs-speed-patches.ts";

const EXPORTS = "\nexport { Lexer, Stream, DecodeStream, EvaluatorPreprocessor, Cmd, Name, EOF, setVerbosityLevel };\n";
const source = readFileSync(Bun.resolveSync("pdfjs-dist/legacy/build/pdf.worker.mjs", import.meta.dir), "utf8");
const dir = mkdtempSync(path.join(tmpdir(), "docproc-lexer-"));

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Pdfjs = any;
async function load(name: string, code: string): Promise<Pdfjs> {
  const file = path.join(dir, `${name}.mjs`);
  writeFileSync(file, code + EXPORTS);
  return import(file);
}

const patched = applyPatches(source, [], [LEXER])!;
const [stock, speed] = await Promise.all([load("stock", source), load("speed", patched)]);
// Infos and warnings on: they are compared too (the patched lexer leaves every token that warns to the stock code).
for (const m of [stock, speed]) m.setVerbosityLevel(5);

/** A decoder handing its bytes over `size` at a time: tokens get cut by block boundaries. */
function chunkyStream(m: Pdfjs, bytes: Uint8Array, size: number) {
  return new (class extends m.DecodeStream {
    at = 0;
    readBlock() {
      if (this.at >= bytes.length) {
        this.eof = true;
        return;
      }
      const chunk = bytes.subarray(this.at, this.at + size);
      this.at += chunk.length;
      this.ensureBuffer(this.bufferLength + chunk.length).set(chunk, this.bufferLength);
      this.bufferLength += chunk.length;
    }
  })();
}

type Kind = "stream" | "substream" | "chunks1" | "chunks7";
function makeStream(m: Pdfjs, bytes: Uint8Array, kind: Kind) {
  if (kind === "stream") return new m.Stream(bytes);
  if (kind === "substream") {
    // The stream's window sits inside a larger buffer whose bytes around it must never be read.
    const padded = new Uint8Array(bytes.length + 8).fill(0x37);
    padded.set(bytes, 3);
    return new m.Stream(padded.buffer, 3, bytes.length);
  }
  return chunkyStream(m, bytes, kind === "chunks1" ? 1 : 7);
}

function show(m: Pdfjs, t: Pdfjs): unknown {
  if (t === m.EOF) return "EOF";
  if (t instanceof m.Cmd) return { cmd: t.cmd };
  if (t instanceof m.Name) return { name: t.name };
  if (typeof t === "number") return Object.is(t, -0) ? "-0" : Number.isNaN(t) ? "NaN" : t;
  return t;
}

/** Every token with the lexer's state after it and pdf.js's messages, up to EOF or the first error (its message). */
function lex(m: Pdfjs, bytes: Uint8Array, kind: Kind, withCommands: boolean): unknown[] {
  const out: unknown[] = [];
  const { info, warn } = console;
  console.info = console.warn = (msg: string) => out.push(msg);
  try {
    lexInto(out, m, bytes, kind, withCommands);
  } finally {
    Object.assign(console, { info, warn });
  }
  return out;
}

function lexInto(out: unknown[], m: Pdfjs, bytes: Uint8Array, kind: Kind, withCommands: boolean): void {
  const stream = makeStream(m, bytes, kind);
  const lexer = new m.Lexer(stream, withCommands ? m.EvaluatorPreprocessor.opMap : null);
  for (let i = 0; i < 10_000; i++) {
    try {
      const token = lexer.getObj();
      out.push([show(m, token), lexer.currentChar, stream.pos, lexer.beginInlineImagePos, lexer._hexStringNumWarn]);
      if (token === m.EOF) break;
    } catch (err) {
      out.push(["error", (err as Error).message, lexer.currentChar, stream.pos]);
      break;
    }
  }
}

function expectSameTokens(text: string): unknown[] {
  const bytes = Uint8Array.from(text, (c) => c.charCodeAt(0));
  let tokens: unknown[] = [];
  for (const kind of ["stream", "substream", "chunks1", "chunks7"] as const) {
    for (const withCommands of [true, false]) {
      tokens = lex(stock, bytes, kind, withCommands);
      expect({ text, kind, withCommands, tokens: lex(speed, bytes, kind, withCommands) }).toEqual({
        text,
        kind,
        withCommands,
        tokens,
      });
    }
  }
  return tokens;
}

test("the lexer patch applies to this pdf.js", () => {
  expect(patched).not.toBe(source);
});

test("numbers, names, strings, hex strings and commands lex the same, edge cases included", () => {
  const cases = [
    "0.570000 w 0 J 0 j [] 0 d 0 G 0 g\nBT /F1 10.000000 Tf ET\n",
    "-.5 4. --3 +7 1.2.3 -0 0.0 . - + 12-3 -\n5 007 123456789012345678901234567890 .5.6",
    "-a",
    "+(",
    "-<",
    "-",
    ".",
    "4.",
    "/F1 /A#42C /A#4 /A#zz /A# /#41#42 / /a.b-c_d /\x80\xff /Span<</MCID 0>>BDC",
    "/" + "n".repeat(127) + " /" + "m".repeat(128) + " /" + "q".repeat(6) + " /" + "r".repeat(7),
    "<48656c6c6f> <48 65\n6c6c 6f> <4> <> <0a0B0c0D0e0F> <4g5> <41> <48656c6c6f",
    "(Hello) (a(b)c) (a\\(b) (\\n\\r\\t\\b\\f\\\\\\(\\)) (\\0\\12\\123\\1234\\8\\9) (\\777) (a\\\r\nb) (a\\\rb) (a\\\nb) (\\q)",
    "(unterminated",
    "(a\\",
    "(\\1",
    "(\\12",
    "(nested (deep (deeper)) text",
    "BT T* Tj TJ ' \" f* B* b* BDC BMC EMC cm re RG rg gs Do BI ID EI true false null truex nullx fa fal",
    "abc abcdef abcdefg BTq qQ Qq ETBT Tfx" + " x".repeat(3) + " " + "k".repeat(128) + " " + "k".repeat(129),
    "\x01a \x7f \x80 \x80a \xffz \x00 [ ] { } << >> > ) after",
    "% comment\n1 % another\r2 %\n/N",
    "%",
    "1",
    "/N",
    "Tj",
    "<",
    "<<",
    ">",
    "(",
  ];
  for (const text of cases) expectSameTokens(text);
  // The cases reach their tokens: spot checks on the stock lexer's reading.
  const first = (tokens: unknown[]) => tokens.map((t) => (Array.isArray(t) ? t[0] : t));
  expect(first(expectSameTokens("-.5 4. --3 1.2.3"))).toEqual([-0.5, 4, -3, 1.2, 0.3, "EOF"]);
  expect(first(expectSameTokens("(a\\(b\\101) <48656c6c6f> <414>"))).toEqual(["a(bA", "Hello", "A@", "EOF"]);
  expect(first(expectSameTokens("/A#4 1"))).toEqual([
    "Warning: Lexer_getName: Illegal digit ( ) in hexadecimal number.",
    { name: "A#4" },
    1,
    "EOF",
  ]);
});

test("random mixes of token fragments lex the same", () => {
  const fragments = [
    "-",
    "--",
    "+",
    ".",
    "4",
    "12",
    "3.5",
    "-.5",
    "4.",
    "\n",
    "\r",
    " ",
    "\t",
    "\f",
    "\0",
    "/",
    "#",
    "#41",
    "#4",
    "#z",
    "(",
    ")",
    "\\",
    "\\n",
    "\\0",
    "\\12",
    "\\123",
    "\\\r\n",
    "<",
    ">",
    "<<",
    ">>",
    "[",
    "]",
    "{",
    "}",
    "%",
    "abc",
    "BT",
    "Tj",
    "TJ",
    "T*",
    "'",
    '"',
    "true",
    "false",
    "null",
    "BI",
    "f*",
    "0a",
    "ff",
    "\x80",
    "\xff",
    "\x01",
    "Tf",
    "cm",
  ];
  let seed = 20261126;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  let tokens = 0;
  for (let i = 0; i < 800; i++) {
    let text = "";
    const n = 1 + Math.floor(random() * 30);
    for (let j = 0; j < n; j++) text += fragments[Math.floor(random() * fragments.length)];
    tokens += expectSameTokens(text).length;
  }
  expect(tokens).toBeGreaterThan(3000);
});
