/**
 * Memory bounded by design in pdf.js's worker (issue 34): what pdf.js keeps per page read MUST NOT add up over a
 * long document.
 *
 * - XREF_CACHE: pdf.js's XRef kept every parsed non-stream object of the file for the document's lifetime (its
 *   #cacheMap). A page's dictionaries, resources and fonts (a CID font's /W array is thousands of numbers, and the
 *   content-hash font key of pdfjs-font-sharing.ts walks each copy's whole font graph) stayed after the page's text
 *   was taken: 2,000 pages of a joined CID-font file held ~240 KB of objects a page. The cache now holds at most
 *   XREF_CACHE_MAX objects of the file; past that the oldest half goes (insertion order). An object dropped is
 *   parsed again from the file's bytes on its next fetch, exactly as a stream object always is (pdf.js never caches
 *   those), so every fetch returns what it returned before. Objects pdf.js made up itself (getNewPersistentRef,
 *   numbered from the xref table's length on) are never dropped: they exist nowhere else. What holds on to an
 *   object (a translated font, a page's dictionary) keeps it alive as before; only the cache lets go.
 *   The worker's `stats` request reports the largest the cache grew (test/core/engines/pdf/memory.test.ts). A
 *   worker reading a document with others keeps its share of the bound (`docprocXrefMax`, pdf-worker-gc.ts).
 * - FONT_CACHE: pdf.js's font cache (the catalog's, by font reference) kept a translation for every font reference
 *   the document's pages named, for the document's lifetime. A file joined from copies names new references on every
 *   page (pdfunite, Ghostscript, per-copy CID fonts: ~2 a page), and each entry held its promise, its TranslatedFont
 *   and the font's dictionary with the direct objects under it: of the objects the worker kept alive per page read,
 *   ~36 of ~286 on the CID shape and ~22 of ~121 on joined copies of an invoice (and JavaScriptCore lets a heap
 *   carry about as much garbage again as it holds alive). For a document opened for its text only, the cache now
 *   holds at most FONT_CACHE_MAX references; past that the oldest half goes. A page naming a dropped reference has it translated
 *   again, which for a text-only document finds the same `Font` by content (pdfjs-font-sharing.ts): the same glyphs,
 *   widths and text. Fonts of documents opened for rendering are never dropped (each translation is sent to the
 *   display side once, under its own name). The worker's `stats` request reports the largest the cache grew.
 */
import type { WorkerStats } from "./pdf-protocol.ts";
import type { Patch } from "./pdfjs-patch.ts";

/** Objects the XRef cache keeps at most: ~50 pages' worth of a heavy CID-font file, several hundred of plain ones. */
export const XREF_CACHE_MAX = 4096;

const TRIM = `  #docprocTrim() {
    const size = this.#cacheMap.size;
    if (size > (globalThis.docprocXrefPeak || 0)) globalThis.docprocXrefPeak = size;
    const max = globalThis.docprocXrefMax || ${XREF_CACHE_MAX};
    if (size <= max) return;
    const fileObjects = this.#entries.length;
    let excess = size - (max >> 1);
    for (const num of this.#cacheMap.keys()) {
      if (excess <= 0) break;
      if (num < fileObjects) {
        this.#cacheMap.delete(num);
        excess--;
      }
    }
  }
  getNewPersistentRef(obj) {
`;

export const XREF_CACHE: Patch[] = [
  [
    "    if (!(xrefEntry instanceof BaseStream)) {\n      this.#cacheMap.set(num, xrefEntry);\n    }\n",
    "    if (!(xrefEntry instanceof BaseStream)) {\n      this.#cacheMap.set(num, xrefEntry);\n      this.#docprocTrim();\n    }\n",
  ],
  [
    "        this.#cacheMap.set(num, obj);\n      }\n    }\n    xrefEntry = entries[xrefEntry.gen];\n",
    "        this.#cacheMap.set(num, obj);\n      }\n    }\n    this.#docprocTrim();\n    xrefEntry = entries[xrefEntry.gen];\n",
  ],
  ["  getNewPersistentRef(obj) {\n", TRIM],
];

export const PAGE_CACHE: Patch[] = [
  [
    "  getPage(pageIndex) {\n    const cachedPromise = this.#pagePromises.get(pageIndex);\n",
    "  docprocForgetPage(pageIndex) {\n    this.#pagePromises.delete(pageIndex);\n  }\n" +
      "  getPage(pageIndex) {\n    const cachedPromise = this.#pagePromises.get(pageIndex);\n",
  ],
  [
    '        }).finally(() => {\n          finishWorkerTask(task);\n        });\n      });\n    });\n    handler.on("GetStructTree"',
    "        }).finally(() => {\n          finishWorkerTask(task);\n" +
      '          if (globalThis.docprocTextOnlyDocs?.has("g_" + pdfManager.docId)) pdfManager.pdfDocument.docprocForgetPage(pageId);\n' +
      '        });\n      });\n    });\n    handler.on("GetStructTree"',
  ],
];

/** Font references a text-only document's font cache keeps at most: far more than one file's distinct fonts. */
export const FONT_CACHE_MAX = 256;

export const FONT_CACHE: Patch[] = [
  [
    "class RefMap {\n  #map = new Map();\n",
    "class RefMap {\n  #map = new Map();\n" +
      "  docprocTrim(max) {\n    const size = this.#map.size;\n" +
      "    if (size > (globalThis.docprocFontCachePeak || 0)) globalThis.docprocFontCachePeak = size;\n" +
      "    if (size <= max) return;\n    let excess = size - (max >> 1);\n" +
      "    for (const key of this.#map.keys()) {\n      if (excess-- <= 0) break;\n      this.#map.delete(key);\n    }\n  }\n",
  ],
  [
    "      this.fontCache.put(font.cacheKey, promise);\n    }\n",
    "      this.fontCache.put(font.cacheKey, promise);\n    }\n" +
      `    if (globalThis.docprocTextOnlyDocs?.has(this.idFactory.getDocId())) this.fontCache.docprocTrim?.(${FONT_CACHE_MAX});\n`,
  ],
];

/**
 * The periodic cleanup of a long text-only document (pdf-worker-gc.ts `pageRead`, `docprocKeepSharedFonts` set
 * while it runs) keeps the fonts shared by content (pdfjs-font-sharing.ts): one translation per distinct font, the
 * document reads on. Emptied, each cleanup translated them all again (2,000 pdfunite pages: +12-30% CPU-s).
 */
export const CLEANUP_KEEPS_SHARED_FONTS: Patch[] = [
  [
    "  async cleanup(manuallyTriggered = false) {\n    clearGlobalCaches();\n",
    "  async cleanup(manuallyTriggered = false) {\n" +
      "    const docprocShared = globalThis.docprocKeepSharedFonts ? this.fontCache.docprocByContent : undefined;\n" +
      "    if (docprocShared) this.fontCache.docprocByContent = undefined;\n    clearGlobalCaches();\n",
  ],
  [
    "    this.standardFontDataCache.clear();\n    this.systemFontCache.clear();\n  }\n",
    "    this.standardFontDataCache.clear();\n    this.systemFontCache.clear();\n" +
      "    if (docprocShared) this.fontCache.docprocByContent = docprocShared;\n  }\n",
  ],
];

/**
 * The same cleanup keeps the page tree's counts (two small numbers a page) and turns off pdf.js's prefetch of every
 * page dictionary. pdf.js fetches all the top-level kids' dictionaries at once when it first walks a flat page tree
 * and keeps them (`pageDictCache`) until a cleanup; walking again after each cleanup without the counts, it fetched
 * every remaining page's dictionary again at once (from the file, a window each): on 2,000 CID pages a burst of ~100
 * MB for a second every cleanup, the run's peak RSS, and larger the longer the file. With the counts kept the walk
 * skips the pages read and fetches only the page asked; the same dictionaries, so the same text.
 *
 * And the walk resumes where the last one left a node's kids. pdf.js walked a node's kids from its first for every
 * page: it pushed them all, looked each one up for the prefetch, and popped every kid before the page asked to skip
 * it by its count, so reading a flat tree of n pages took ~n²/2 steps (2,000 pages: ~2 million pops and 4 million
 * map lookups). Each kids array now remembers how many of its first kids, holding how many pages, a walk skipped by
 * their known counts (`docprocSkip`, kept in the count cache itself so that whatever empties the counts empties it
 * too); a later walk for a page at or after them starts there, and the prefetch runs once per kids array until the
 * dictionaries it put are dropped. The same kids are skipped by the same counts and the same page dictionary
 * comes back; `docprocPageWalkSteps` counts the kids a walk looks at (memory.test.ts).
 */
export const CLEANUP_KEEPS_PAGE_COUNTS: Patch[] = [
  [
    "    this.pageKidsCountCache.clear();\n    this.pageIndexCache.clear();\n    this.pageDictCache.clear();\n",
    "    if (globalThis.docprocKeepSharedFonts) this.docprocNoPrefetch = true;\n    else {\n" +
      "      this.pageKidsCountCache.clear();\n      this.pageIndexCache.clear();\n    }\n    this.pageDictCache.clear();\n" +
      "    this.docprocPrefetched = undefined;\n",
  ],
  [
    "        const count = pageKidsCountCache.get(currentNode);\n",
    "        globalThis.docprocPageWalkSteps = (globalThis.docprocPageWalkSteps || 0) + 1;\n" +
      "        const count = pageKidsCountCache.get(currentNode);\n",
  ],
  [
    "      for (let last = kids.length - 1; last >= 0; last--) {\n        const lastKid = kids[last];\n        nodesToVisit.push(lastKid);\n" +
      "        if (currentNode === this.toplevelPagesDict && lastKid instanceof Ref && !pageDictCache.has(lastKid)) {\n",
    '      const docprocSkip = pageKidsCountCache.getOrPutComputed("docprocSkip", () => new WeakMap());\n' +
      "      const docprocFrom = docprocSkip.get(kids);\n" +
      "      let docprocPos = 0, docprocPages = 0;\n" +
      "      if (docprocFrom && currentPageIndex + docprocFrom.pages <= pageIndex) {\n" +
      "        docprocPos = docprocFrom.pos;\n        docprocPages = docprocFrom.pages;\n        currentPageIndex += docprocPages;\n      }\n" +
      "      while (docprocPos < kids.length) {\n" +
      "        const kid = kids[docprocPos];\n" +
      "        globalThis.docprocPageWalkSteps = (globalThis.docprocPageWalkSteps || 0) + 1;\n" +
      "        const count = kid instanceof Ref ? pageKidsCountCache.get(kid) : undefined;\n" +
      "        if (!(count >= 0 && currentPageIndex + count <= pageIndex)) break;\n" +
      "        currentPageIndex += count;\n        docprocPages += count;\n        docprocPos++;\n      }\n" +
      "      if (!docprocFrom || docprocPos > docprocFrom.pos) docprocSkip.set(kids, { pos: docprocPos, pages: docprocPages });\n" +
      "      const docprocPrefetch = currentNode === this.toplevelPagesDict && !this.docprocNoPrefetch && this.docprocPrefetched !== kids;\n" +
      "      for (let last = kids.length - 1; last >= docprocPos; last--) {\n        const lastKid = kids[last];\n        nodesToVisit.push(lastKid);\n" +
      "        if (docprocPrefetch && lastKid instanceof Ref && !pageDictCache.has(lastKid)) {\n" +
      "          globalThis.docprocPagePrefetches = (globalThis.docprocPagePrefetches || 0) + 1;\n",
  ],
  [
    "          pageDictCache.put(lastKid, xref.fetchAsync(lastKid));\n        }\n      }\n",
    "          pageDictCache.put(lastKid, xref.fetchAsync(lastKid));\n        }\n      }\n" +
      "      if (docprocPrefetch) this.docprocPrefetched = kids;\n",
  ],
];

export const MEMORY_PATCHES: Patch[][] = [
  XREF_CACHE,
  PAGE_CACHE,
  FONT_CACHE,
  CLEANUP_KEEPS_SHARED_FONTS,
  CLEANUP_KEEPS_PAGE_COUNTS,
];

/** The counters the patches keep in the worker's global scope (pdfjs-font-sharing.ts counts shared fonts). */
export function workerStats(): WorkerStats {
  const counters = globalThis as {
    docprocXrefPeak?: number;
    docprocSharedFonts?: number;
    docprocXrefMax?: number;
    docprocFontCachePeak?: number;
    docprocPagePrefetches?: number;
    docprocPageWalkSteps?: number;
  };
  return {
    xrefCachePeak: counters.docprocXrefPeak ?? 0,
    fontCachePeak: counters.docprocFontCachePeak ?? 0,
    sharedFonts: counters.docprocSharedFonts ?? 0,
    pagePrefetches: counters.docprocPagePrefetches ?? 0,
    pageWalkSteps: counters.docprocPageWalkSteps ?? 0,
    xrefCacheMax: counters.docprocXrefMax || XREF_CACHE_MAX,
  };
}
