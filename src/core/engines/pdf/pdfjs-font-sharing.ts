/**
 * Identical fonts read once per document (issue 34). A PDF joined from many files (pdfunite, qpdf, scanners' batch
 * modes, mail merges, ERP exports) keeps every copy's fonts as separate objects: 500 invoice pages joined with
 * pdfunite hold ~1,100 font objects, most of them byte-identical copies of about twenty. pdf.js caches a translated
 * font by its object reference only, so it parsed every copy (cost and memory grew with the number of fonts, not
 * pages: 1.9 GB at 2,000 such pages).
 *
 * For a document opened for its text (globalThis.docprocTextOnlyDocs, whose fonts hold no glyph program), the font's
 * whole object graph — dictionaries, arrays, names, numbers, strings, and each stream as its dictionary plus a hash
 * of its raw (still encoded) bytes — is written into one key; fonts with the same key share one translated `Font`.
 * Numbers are not written out: `#n` stands for n of them in a row, and their values go into one array of doubles,
 * hashed once at the end like a stream's bytes (a CID font's /W array holds thousands, and making each into a
 * string took about a seventh of pdf.js's CPU on the CID shape); strings and names holding a space go in with their
 * length, so that no two graphs write the same key.
 * Each reference still gets its own `TranslatedFont` with its own loadedName (the font id pdf.js numbers in order),
 * so text content, styles and operator lists are what stock pdf.js returns (test/core/engines/pdf/workers.test.ts
 * compares them on joined files). Safe because `Font` is fully determined by that graph and the document's options:
 * translateFont reads nothing else for a non-Type3 font, and text extraction only reads the shared font (its glyph
 * cache is keyed by char code, the same for identical fonts).
 *
 * A ToUnicode stream is keyed by its decoded text without its `/CMapName ... def`: Ghostscript names each copy's
 * CMap after its object number (`/CMapName/R6243 def`), so identical fonts re-distilled by pdfwrite had different
 * keys and were translated once per copy (500 invoice pages: 848 fonts, 227 shared). pdf.js reads a ToUnicode CMap
 * for its mappings only (its name is never looked up), so the name cannot change the font. The stream decoded for
 * the key is a fresh object of its own (pdf.js caches no stream), so the font's own reading is untouched.
 *
 * Left to the stock path (no key): Type3 fonts (their glyphs are content streams run against page resources), a
 * graph over 20,000 nodes or 24 levels (hostile input: the key would cost more than it saves), a stream whose raw
 * bytes are not at hand, any error while walking, documents opened for rendering, and a runtime without Bun.hash.
 * A shared translation whose font turns out to carry font data (never the case for text-only fonts) is not reused:
 * TranslatedFont.send transfers that buffer, which would detach it for the next user.
 */
import type { Patch } from "./pdfjs-patch.ts";

/** A ToUnicode CMap longer than this (decoded) is keyed by its raw bytes, as any other stream. */
const CMAP_TEXT_MAX = 1 << 20;
/**
 * The CMap is decoded this many bytes at a time: pdf.js's DecodeStream.getBytes(n) first sizes its buffer for n bytes
 * (zero-filled, rounded up to a power of two), so asking for CMAP_TEXT_MAX + 1 at once allocated 2 MB per font for a
 * CMap of a few KB: 1.2 of the 7.1 CPU-s of three reads of the 500-page Ghostscript shape (848 fonts) went to that.
 */
const CMAP_CHUNK = 8192;

const HELPERS = `function docprocCMapText(stream) {
  try {
    let text = "";
    for (;;) {
      const bytes = stream.getBytes(${CMAP_CHUNK});
      text += String.fromCharCode.apply(null, bytes);
      if (text.length > ${CMAP_TEXT_MAX}) return null;
      if (bytes.length < ${CMAP_CHUNK}) break;
    }
    return text.replace(/\\/CMapName\\s*\\/[^\\s\\/\\[\\]<>(){}%]*\\s*def/g, "");
  } catch {
    return null;
  }
}
function docprocNameToken(name) {
  return name.includes(" ") ? "%" + name.length + ":" + name : "/" + name;
}
let docprocNumbers = new Float64Array(4096);
function docprocFontKey(dict, xref, hash) {
  const parts = [];
  const onPath = new Set();
  let budget = 20000;
  let cmap;
  let nums = docprocNumbers, count = 0;
  const store = (x) => {
    if (count === nums.length) {
      const more = new Float64Array(count * 2);
      more.set(nums);
      nums = docprocNumbers = more;
    }
    nums[count++] = x;
  };
  const tooLarge = () => new Error("font graph too large to share");
  const walk = (v, depth, under) => {
    if (--budget < 0 || depth > 24) throw tooLarge();
    if (typeof v === "number") {
      store(v);
      parts.push("#1");
    } else if (v instanceof Ref) {
      const id = v.toString();
      if (onPath.has(id)) { parts.push("@" + id); return; }
      onPath.add(id);
      walk(xref.fetch(v), depth + 1, under);
      onPath.delete(id);
    } else if (v instanceof Name) {
      parts.push(docprocNameToken(v.name));
    } else if (v instanceof Dict) {
      parts.push("<<");
      for (const key of v.getKeys()) { parts.push(docprocNameToken(key)); walk(v.getRaw(key), depth + 1, key); }
      parts.push(">>");
    } else if (v instanceof BaseStream && under === "ToUnicode" && (cmap = docprocCMapText(v)) !== null) {
      parts.push("cmap", String(cmap.length), String(hash(cmap)));
      walk(v.dict, depth + 1);
    } else if (v instanceof BaseStream) {
      let raw = v;
      for (let i = 0; i < 16 && (raw.stream || raw.str); i++) raw = raw.stream || raw.str;
      if (!(raw.bytes instanceof Uint8Array) || raw.docprocView) throw new Error("stream bytes not at hand");
      const bytes = raw.bytes.subarray(raw.start, raw.end);
      parts.push("stream", String(bytes.length), String(hash(bytes)));
      walk(v.dict, depth + 1);
    } else if (Array.isArray(v)) {
      parts.push("[");
      let run = 0;
      for (const item of v) {
        if (typeof item === "number" && depth < 24) {
          if (--budget < 0) throw tooLarge();
          store(item);
          run++;
        } else {
          if (run > 0) { parts.push("#" + run); run = 0; }
          walk(item, depth + 1);
        }
      }
      if (run > 0) parts.push("#" + run);
      parts.push("]");
    } else if (typeof v === "string") {
      parts.push("s" + v.length + ":" + v);
    } else {
      parts.push(typeof v + ":" + String(v));
    }
  };
  try { walk(dict, 0); } catch { return null; }
  parts.push("numbers", String(count), String(hash(new Uint8Array(nums.buffer, 0, count * 8))));
  return parts.join(" ");
}
function docprocTranslateShared(evaluator, preEvaluatedFont, dict) {
  const docs = globalThis.docprocTextOnlyDocs, hash = globalThis.Bun?.hash;
  if (!docs || !hash || preEvaluatedFont.type === "Type3" || !docs.has(evaluator.idFactory.getDocId())) return evaluator.translateFont(preEvaluatedFont);
  const key = docprocFontKey(dict, evaluator.xref, hash);
  if (key === null) return evaluator.translateFont(preEvaluatedFont);
  const shared = evaluator.fontCache.docprocByContent ||= new Map();
  const first = shared.get(key);
  if (!first) {
    const translation = evaluator.translateFont(preEvaluatedFont);
    shared.set(key, translation);
    return translation;
  }
  globalThis.docprocSharedFonts = (globalThis.docprocSharedFonts || 0) + 1; // read by tests
  return first.then((font) => (font.data ? evaluator.translateFont(preEvaluatedFont) : font), () => evaluator.translateFont(preEvaluatedFont));
}
class TranslatedFont {`;

export const SHARED_FONTS: Patch[] = [
  [
    "    this.translateFont(preEvaluatedFont).then(async translatedFont => {",
    "    docprocTranslateShared(this, preEvaluatedFont, font).then(async translatedFont => {",
  ],
  ["class TranslatedFont {", HELPERS],
  // Document cleanup drops the by-reference cache; the by-content one goes with it.
  ["    this.fontCache.clear();\n", "    this.fontCache.clear();\n    this.fontCache.docprocByContent?.clear();\n"],
];

/**
 * pdf.js's font alias hash worked out only when it can matter. preEvaluateFont hashes every font that has a
 * descriptor (its encoding, ToUnicode bytes, widths: a CID font's /W array of thousands of numbers turned into
 * strings), and loadFont uses that hash only to look the font up among the aliases of its descriptor object: fonts
 * with the same descriptor and hash share a font id and, when the first is cached, its translation. The first font
 * of a descriptor can match nothing, and in a joined file each copy has a descriptor of its own, so nearly every
 * hash went unused (with the font-sharing key, a fifth of pdf.js's CPU on the CID shape).
 *
 * Now the first font of a descriptor gets its font id exactly as before (the same createFontId call, in the same
 * order) and its alias entry waits; a second font with that descriptor first files the waiting entry under the hash
 * pdf.js would have computed (preEvaluateFont run again on the first font's dictionary, which reads the same objects
 * of the file) and then goes the stock way. Deferred only when the hash cannot depend on when it is computed: a
 * ToUnicode stream is hashed from its raw bytes unless it sits on a decoding stream (pdf.js then hashes what that
 * stream has decoded so far), and a CID font's CIDToGIDMap only when it is not a stream held in the dictionary
 * (peekBytes reads from the stream's current position): those fonts are hashed at once, as before. Every document,
 * rendered or not, gets the same font ids and aliases as with stock pdf.js.
 */
export const DEFERRED_ALIAS_HASH: Patch[] = [
  ["  preEvaluateFont(dict) {\n", "  preEvaluateFont(dict, docprocDefer = false) {\n"],
  [
    "    if (descriptor) {\n      hash = new MurmurHash3_64();\n",
    "    const docprocDeferred = docprocDefer && !!descriptor && docprocHashIsStable(toUnicode, composite, dict, baseDict);\n" +
      "    if (descriptor && !docprocDeferred) {\n      hash = new MurmurHash3_64();\n",
  ],
  [
    '      hash: hash ? hash.hexdigest() : ""\n    };\n',
    '      hash: hash ? hash.hexdigest() : "",\n      docprocDeferred\n    };\n',
  ],
  [
    "      preEvaluatedFont = this.preEvaluateFont(font);\n",
    "      preEvaluatedFont = this.preEvaluateFont(font, true);\n",
  ],
  [
    "    const {\n      descriptor,\n      hash\n    } = preEvaluatedFont;\n    const fontRefIsRef = fontRef instanceof Ref;\n" +
      "    let fontID;\n    if (hash && descriptor instanceof Dict) {\n",
    "    let {\n      descriptor,\n      hash\n    } = preEvaluatedFont;\n    const fontRefIsRef = fontRef instanceof Ref;\n" +
      "    let fontID;\n" +
      "    const docprocPending = descriptor instanceof Dict ? descriptor.docprocPendingAlias : null;\n" +
      "    if (docprocPending) {\n" +
      "      descriptor.docprocPendingAlias = null;\n" +
      "      try {\n" +
      "        descriptor.fontAliases[this.preEvaluateFont(docprocPending.font).hash] = docprocPending.entry;\n" +
      "      } catch {} // it succeeded on the same objects when that font came; unreachable in practice\n" +
      "    } else if (preEvaluatedFont.docprocDeferred && descriptor instanceof Dict && !descriptor.fontAliases) {\n" +
      "      fontID = this.idFactory.createFontId();\n" +
      "      descriptor.fontAliases = Object.create(null);\n" +
      "      descriptor.docprocPendingAlias = { font, entry: fontRefIsRef ? { fontID, aliasRef: fontRef } : { fontID } };\n" +
      "    }\n" +
      "    if (fontID === undefined && preEvaluatedFont.docprocDeferred) hash = this.preEvaluateFont(font).hash;\n" +
      "    if (fontID !== undefined) {\n" +
      "      // the first font of its descriptor, numbered as pdf.js numbers it; its alias entry waits\n" +
      "    } else if (hash && descriptor instanceof Dict) {\n",
  ],
  [
    "class PartialEvaluator {\n",
    "function docprocHashIsStable(toUnicode, composite, dict, baseDict) {\n" +
      "  if (toUnicode instanceof BaseStream && (toUnicode.stream || toUnicode).buffer) return false;\n" +
      '  return !composite || !((dict.getRaw("CIDToGIDMap") || baseDict.getRaw("CIDToGIDMap")) instanceof BaseStream);\n' +
      "}\n" +
      "class PartialEvaluator {\n",
  ],
];
