/**
 * Small PDFs share one pdf.js worker (src/core/engines/pdf/pdf-host.ts) with the isolation of one worker per PDF: a
 * document that makes pdf.js time out takes the worker down, the other documents in it are re-opened and asked again
 * (their callers see the same text), and the culprit keeps a worker to itself from then on.
 */
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import path from "node:path";
import { PDFDocument, PDFName, StandardFonts } from "pdf-lib";
import { DocprocError } from "../../../../src/core/errors.ts";
import { closeIdlePdfWorkers, isInterrupted, PdfWorkerClient } from "../../../../src/core/engines/pdf/pdf-client.ts";
import { setSharedHostTarget } from "../../../../src/core/engines/pdf/pdf-host.ts";
import type { PageResult } from "../../../../src/core/engines/pdf/pdf-protocol.ts";
import { convertSource } from "../../../../src/core/stages/convert/index.ts";

setDefaultTimeout(120_000);

const INVOICE = path.resolve(import.meta.dir, "../../../../fixtures/inbox/born-digital-invoice.pdf");
const PAGE = {
  op: "page",
  pageNumber: 1,
  preferredScale: 300 / 72,
  maxSidePx: 10_000,
  maxRasterPixels: 40_000_000,
} as const;

/** A one-page PDF whose page takes pdf.js minutes: a form XObject of a million path operators drawn 200 times. */
async function hangingPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  page.drawText("Heavy", { x: 50, y: 780, size: 12, font });
  const form = pdf.context.flateStream("BT /F1 1 Tf 0 0 Td (.) Tj ET\n" + "1 1 m\n".repeat(1_000_000), {
    Type: "XObject",
    Subtype: "Form",
    BBox: [0, 0, 10, 10],
    Resources: { Font: { F1: font.ref } },
  });
  page.node.setXObject(PDFName.of("Heavy"), pdf.context.register(form));
  page.node.addContentStream(pdf.context.register(pdf.context.flateStream("q /Heavy Do Q\n".repeat(200))));
  return pdf.save();
}

/** Counts workers started and documents opened (per document id) while the test runs. */
function spyOnWorkers() {
  const OriginalWorker = globalThis.Worker;
  const post = OriginalWorker.prototype.postMessage;
  const seen = { started: 0, opens: new Map<number, number>() };
  globalThis.Worker = new Proxy(OriginalWorker, {
    construct(target, args) {
      seen.started++;
      return Reflect.construct(target, args);
    },
  });
  OriginalWorker.prototype.postMessage = function (
    this: Worker,
    msg: { op?: string; doc?: number },
    ...rest: unknown[]
  ) {
    if (msg?.op === "open") seen.opens.set(msg.doc!, (seen.opens.get(msg.doc!) ?? 0) + 1);
    return (post as (...a: unknown[]) => void).call(this, msg, ...rest);
  } as typeof post;
  const restore = () => {
    globalThis.Worker = OriginalWorker;
    OriginalWorker.prototype.postMessage = post;
  };
  return { seen, restore };
}

let previousTarget = 1;
let spy: ReturnType<typeof spyOnWorkers>;
beforeEach(() => {
  closeIdlePdfWorkers(); // a worker left idle by an earlier test would change the counts
  previousTarget = setSharedHostTarget(1); // one shared worker, as on a two-core machine, whatever this one has
  spy = spyOnWorkers();
});
afterEach(() => {
  spy.restore();
  setSharedHostTarget(previousTarget);
  closeIdlePdfWorkers();
});

const opensOf = (docs: number) => [...spy.seen.opens.values()].slice(0, docs);

describe("small PDFs sharing a pdf.js worker", () => {
  test("one document times out: the other, queued behind it in the same worker, is re-opened and gives its text", async () => {
    const invoice = new Uint8Array(await Bun.file(INVOICE).arrayBuffer());
    const reference = new PdfWorkerClient(invoice, undefined, 30_000);
    await reference.open();
    const expected = await reference.request<PageResult>(PAGE, 60_000, "page 1");
    await reference.close();
    closeIdlePdfWorkers();
    spy.seen.started = 0;
    spy.seen.opens.clear();

    const hostile = new PdfWorkerClient(await hangingPdf(), undefined, 30_000);
    const healthy = new PdfWorkerClient(invoice, undefined, 30_000);
    try {
      await hostile.open();
      await healthy.open();
      expect(spy.seen.started).toBe(1); // both documents in one worker

      // The healthy page is asked second, so the worker runs it only after the hanging one: it fails as interrupted
      // (callers ask again, see convertPage), not as a timeout of its own.
      const stuck = hostile.request<PageResult>(PAGE, 1_000, "page 1").catch((err) => err);
      const interrupted = await healthy.request<PageResult>(PAGE, 60_000, "page 1").catch((err) => err);
      expect(((await stuck) as DocprocError).code).toBe("timeout");
      expect(isInterrupted(interrupted)).toBe(true);
      const page = await healthy.request<PageResult>(PAGE, 60_000, "page 1");
      expect(page.text).toBe(expected.text);
      expect(Array.from(page.words.boxes)).toEqual(Array.from(expected.words.boxes));
      expect(opensOf(2)).toEqual([1, 2]); // the healthy document was re-opened in a fresh worker
      expect(spy.seen.started).toBe(2);

      // The culprit now has a worker of its own: timing out again does not touch the healthy document.
      const again = hostile.request<PageResult>(PAGE, 1_000, "page 1").catch((e) => e);
      const second = await healthy.request<PageResult>(PAGE, 60_000, "page 1");
      expect(((await again) as DocprocError).code).toBe("timeout");
      expect(second.text).toBe(expected.text);
      expect(opensOf(2)).toEqual([2, 2]);
    } finally {
      await Promise.all([hostile.close(), healthy.close()]);
    }
  });

  test("converting a file with a hanging page next to a healthy one in the same worker: the healthy one's text is whole", async () => {
    const invoice = new Uint8Array(await Bun.file(INVOICE).arrayBuffer());
    const reference = await convertSource(
      { index: 0, filename: "ref.pdf", data: invoice, split_policy: "inherit" },
      { firstPageNumber: 1, maxPages: null },
    );
    await reference.close();
    closeIdlePdfWorkers();
    spy.seen.started = 0;
    const [hostile, healthy] = await Promise.all([
      convertSource(
        { index: 0, filename: "hang.pdf", data: await hangingPdf(), split_policy: "inherit" },
        { firstPageNumber: 1, maxPages: null, limits: { pageTimeoutMs: 1_000 } },
      ),
      convertSource(
        { index: 1, filename: "ok.pdf", data: invoice, split_policy: "inherit" },
        { firstPageNumber: 1, maxPages: null },
      ),
    ]);
    await Promise.all([hostile.close(), healthy.close()]);
    expect(hostile.pages[0]!.text_source).toBe("none");
    expect(hostile.warnings.join(" ")).toContain("page 1");
    expect(healthy.warnings).toEqual([]);
    // Both shared one worker, and the healthy file (opened last) was opened again after the hanging page took it down.
    expect(spy.seen.started).toBe(2);
    expect([...spy.seen.opens.values()].at(-1)).toBe(2);
    expect(healthy.pages.map((p) => [p.text, JSON.stringify(p.words)])).toEqual(
      reference.pages.map((p) => [p.text, JSON.stringify(p.words)]),
    );
  });

  test("two one-page files converted at once use one worker; a long file keeps its worker to itself", async () => {
    const invoice = new Uint8Array(await Bun.file(INVOICE).arrayBuffer());
    const source = (data: Uint8Array, filename: string, index: number) => ({
      index,
      filename,
      data,
      split_policy: "inherit" as const,
    });
    const both = await Promise.all(
      [0, 1].map((i) => convertSource(source(invoice, `${i}.pdf`, i), { firstPageNumber: 1, maxPages: null })),
    );
    expect(spy.seen.started).toBe(1);
    expect(both[1]!.pages[0]!.text).toBe(both[0]!.pages[0]!.text);
    expect(both[0]!.pages[0]!.text_source).toBe("text_layer");
    await Promise.all(both.map((c) => c.close()));

    // Once open, a document of more than a few pages is known to be long: no other document joins its worker.
    const { generatePdf } = await import("../../../../bench/convert.ts");
    const long = await convertSource(source(await generatePdf(12, 7), "long.pdf", 2), {
      firstPageNumber: 1,
      maxPages: null,
    });
    const small = await convertSource(source(invoice, "small.pdf", 3), { firstPageNumber: 1, maxPages: null });
    expect(spy.seen.started).toBe(2); // the small file did not join the long one's worker
    expect(small.pages[0]!.text).toBe(both[0]!.pages[0]!.text);
    await Promise.all([long, small].map((c) => c.close()));
  });
});
