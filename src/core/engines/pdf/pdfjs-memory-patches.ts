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

export const MEMORY_PATCHES: Patch[][] = [XREF_CACHE, PAGE_CACHE];

/** The counters the patches keep in the worker's global scope (pdfjs-font-sharing.ts counts shared fonts). */
export function workerStats(): WorkerStats {
  const counters = globalThis as { docprocXrefPeak?: number; docprocSharedFonts?: number; docprocXrefMax?: number };
  return {
    xrefCachePeak: counters.docprocXrefPeak ?? 0,
    sharedFonts: counters.docprocSharedFonts ?? 0,
    xrefCacheMax: counters.docprocXrefMax || XREF_CACHE_MAX,
  };
}
