/**
 * Issue 21, cancellation that reaches the loops after OCR: an abort (job timeout, shutdown) stops separator analysis
 * in Split and the page and file loops of Export within one unit of work, and ends the run with the abort's error.
 * Each assertion counts work done after the abort (deterministic whatever the machine's load); before the fix
 * Split rendered and decoded every remaining page and Export wrote every remaining file, then the next profile too.
 */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import type { OcrEngine } from "../../../src/core/engines/ocr";
import { DocprocError } from "../../../src/core/errors";
import { memorySink } from "../../../src/core/exporters";
import type { Page, RasterImage } from "../../../src/core/model";
import { defaultProject, parseProjectSettings } from "../../../src/core/project";
import { BUILTIN_STAGES, runTransaction } from "../../../src/core/runner";
import { SplitSettingsSchema } from "../../../src/core/project/split";
import { analysePage, splitPages } from "../../../src/core/stages/split";
import { detectBarcodes } from "../../../src/core/split/barcodes";
import { multiPageTiff } from "../../support/hostile";

setDefaultTimeout(60_000);

const timedOut = () => new DocprocError("timeout", "job timed out", { retryable: false });
const nullOcr = {
  name: "null",
  workers: 1,
  recognize: async () => ({ words: [], text: "", confidence: null }),
  close: async () => {},
} as unknown as OcrEngine;

/** `count` scanned-looking pages whose render() is counted and aborts `ctrl` on render number `abortAt`. */
function countedPages(count: number, ctrl: AbortController, abortAt: number) {
  const renders: number[] = [];
  const white: RasterImage = { data: new Uint8Array(64 * 64 * 3).fill(255), width: 64, height: 64, channels: 3 };
  const pages = Array.from(
    { length: count },
    (_, i): Page => ({
      page_number: i + 1,
      source_file_index: 0,
      source_filename: "scan.tif",
      source_file_page_number: i + 1,
      image_transform: {
        rasterized_width: 64,
        rasterized_height: 64,
        source_width: 64,
        source_height: 64,
        source_unit: "pixel",
        render_scale: 1,
        effective_dpi: null,
        coordinate_system: "top-left-origin",
        rotation: 0,
      },
      text_source: "ocr",
      words: [],
      text: "",
      ocr_confidence: null,
      render: async () => {
        renders.push(i + 1);
        if (renders.length === abortAt) ctrl.abort(timedOut());
        return white;
      },
    }),
  );
  return { pages, renders };
}

describe("cancellation after OCR", () => {
  test("Split: an abort during separator analysis stops before the next page and caches nothing for the page in flight", async () => {
    const ctrl = new AbortController();
    const { pages, renders } = countedPages(40, ctrl, 3);
    const settings = SplitSettingsSchema.parse({ mode: "separator", separator: { patch_t: true } });
    const outcome = await splitPages([{ index: 0, filename: "scan.tif", policy: "inherit", pages }], settings, {
      signal: ctrl.signal,
    }).then(
      () => "finished",
      (e) => e,
    );
    expect(outcome).toBeInstanceOf(DocprocError);
    expect((outcome as DocprocError).message).toBe("job timed out");
    expect(renders).toEqual([1, 2, 3]);
    expect(pages.map((p) => p.barcodes !== undefined)).toEqual([true, true, ...new Array(38).fill(false)]);
  });

  test("Export: an abort stops the JPG page loop before the next page, and no later profile runs", async () => {
    const ctrl = new AbortController();
    const sink = memorySink();
    const write = sink.write.bind(sink);
    let writes = 0;
    // The job's time runs out while the first page image is being stored.
    sink.write = async (name, data) => {
      const r = await write(name, data);
      if (++writes === 1) ctrl.abort(timedOut());
      return r;
    };
    const project = parseProjectSettings({
      ...defaultProject,
      split: { ...defaultProject.split, mode: "per_file" },
      export_profiles: [
        { id: "pages", name: "Pages", output_format: "jpg" },
        { id: "data", name: "Data", output_format: "json" },
      ],
    });
    const meta = {
      transaction_id: crypto.randomUUID(),
      tenant_id: "local",
      project_id: "p",
      project_version: 1,
      correlation_id: null,
      metadata: {},
      created_at: "2026-01-01T00:00:00.000Z",
      source: "test",
    };
    const out = await runTransaction(
      { sources: [{ index: 0, filename: "scan.tif", data: multiPageTiff(30, 64), split_policy: "inherit" }] },
      { meta, project, ocr: nullOcr, sink, signal: ctrl.signal },
    );
    expect(out.status).toBe("failure");
    expect(out.error).toMatchObject({ code: "timeout", message: "job timed out", stage: "export" });
    expect([...sink.files.keys()]).toHaveLength(1); // the first page image only: not 30, and no JSON
    expect([...sink.files.keys()][0]).toEndWith(".jpg");
  });
});

describe("fuzz follow-ups (seed 21)", () => {
  const meta = () => ({
    transaction_id: crypto.randomUUID(),
    tenant_id: "local",
    project_id: "p",
    project_version: 1,
    correlation_id: null,
    metadata: {},
    created_at: "2026-01-01T00:00:00.000Z",
    source: "test",
  });

  // #1725 (barcode-39-custom.pdf, mutated): the harness's AbortSignal.timeout() fired between two stages and the run
  // failed as `internal` ("classify: The operation timed out."): an abort is a timeout whatever its reason's type.
  test("an abort whose reason is not a DocprocError (AbortSignal.timeout's DOMException) ends the run as a timeout, not internal", async () => {
    const ctrl = new AbortController();
    const out = await runTransaction(
      {
        sources: [
          {
            index: 0,
            filename: "a.txt",
            content_type: "text/plain",
            data: new TextEncoder().encode("Invoice 1"),
            split_policy: "inherit",
          },
        ],
      },
      {
        meta: meta(),
        project: defaultProject,
        ocr: nullOcr,
        sink: memorySink(),
        signal: ctrl.signal,
        stages: {
          split: async (state, ctx) => {
            await BUILTIN_STAGES.split(state, ctx);
            ctrl.abort(new DOMException("The operation timed out.", "TimeoutError"));
          },
        },
      },
    );
    expect(out.status).toBe("failure");
    expect(out.error).toMatchObject({ code: "timeout", message: "The operation timed out.", stage: "classify" });
  });

  // #1615 and #1717 (mutated PATCH-T scans): with the null OCR engine every scanned page is searched for barcodes, four
  // synchronous zxing passes over a 300 dpi page (2.2 s idle); under load the abort could not be seen for longer
  // than the harness's 5 s grace and the inputs were reported as hangs.
  test("barcode detection on an OCR raster yields between passes: an abort ends it before the next pass", async () => {
    const blank: RasterImage = { data: new Uint8Array(2480 * 3508).fill(255), width: 2480, height: 3508, channels: 1 };
    expect(detectBarcodes(blank)).toEqual([]); // nothing to find: all passes run when not aborted
    const page = countedPages(1, new AbortController(), 0).pages[0]!;
    page.text_source = "none";
    const ctrl = new AbortController();
    const sep = SplitSettingsSchema.parse({}).separator;
    const analysing = analysePage(
      page,
      sep,
      { barcodes: true, blank: true, patchTOnly: true },
      blank,
      ctrl.signal,
    ).then(
      () => "finished",
      (e) => e,
    );
    setImmediate(() => ctrl.abort(timedOut())); // lands after the first pass at the latest
    const outcome = await analysing;
    expect(outcome).toBeInstanceOf(DocprocError);
    expect((outcome as DocprocError).message).toBe("job timed out");
    expect(page.barcodes).toBeUndefined(); // a later run still looks
  });
});
