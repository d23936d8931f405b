import { describe, expect, test } from "bun:test";
import sharp from "sharp";
import { runExports } from "../../../src/core/exporters";
import { buildFixture, drawPage } from "./fixtures";

/** Mean grey of a region of a JPEG (0 black .. 255 white). */
async function meanGrey(jpeg: Uint8Array, left: number, top: number, width: number, height: number): Promise<number> {
  // stats() would look at the whole input image, so crop to raw pixels and average them here.
  const px = await sharp(jpeg).extract({ left, top, width, height }).greyscale().raw().toBuffer();
  return px.reduce((s, v) => s + v, 0) / px.length;
}

describe("JPG export", () => {
  test("one JPEG per page at the rasterized size, named <stem>_page_<transaction page>", async () => {
    const { ctx, sink } = await buildFixture();
    const m = await runExports(ctx, [{ id: "jpg", name: "JPG", output_format: "jpg" }]);
    expect(m.profiles.jpg!.files.map((f) => [f.filename, f.document_ids])).toEqual([
      ["invoice_page_1.jpg", ["doc-invoice"]],
      ["invoice_page_2.jpg", ["doc-invoice"]],
      ["receipt scan_page_3.jpg", ["doc-receipt"]],
    ]);
    const meta = await sharp(sink.files.get("invoice_page_1.jpg")!).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(["jpeg", 1224, 1584]);
    const scan = await sharp(sink.files.get("receipt scan_page_3.jpg")!).metadata();
    expect([scan.width, scan.height, scan.orientation]).toEqual([600, 400, undefined]);
  });

  test("Corrected turns the image by the recorded rotation, Original does not", async () => {
    const { ctx, sink } = await buildFixture();
    // a page whose ink sits in the top-left corner; rotation 90 puts it top-right when corrected
    const drawn = drawPage(300, 200, []);
    for (let y = 0; y < 40; y++)
      for (let x = 0; x < 60; x++) drawn.raster.data.fill(0, (y * 300 + x) * 4, (y * 300 + x) * 4 + 3);
    ctx.pages = [
      {
        ...ctx.pages[2]!,
        image_transform: { ...ctx.pages[2]!.image_transform, rotation: 90 },
        render: async () => drawn.raster,
      },
    ];
    await runExports(ctx, [
      { id: "orig", name: "O", output_format: "jpg", filename: "orig" },
      { id: "corr", name: "C", output_format: "jpg", filename: "corr", options: { orientation: "Corrected" } },
    ]);
    const orig = sink.files.get("orig_page_3.jpg")!;
    const corr = sink.files.get("corr_page_3.jpg")!;
    const [om, cm] = await Promise.all([sharp(orig).metadata(), sharp(corr).metadata()]);
    expect([om.width, om.height]).toEqual([300, 200]);
    expect([cm.width, cm.height]).toEqual([200, 300]);
    expect(await meanGrey(orig, 5, 5, 40, 20)).toBeLessThan(40);
    expect(await meanGrey(corr, 200 - 35, 5, 25, 40)).toBeLessThan(40); // top-right after a clockwise turn
    expect(await meanGrey(corr, 5, 5, 25, 40)).toBeGreaterThan(220);
  });

  test("quality changes bytes but not pixels; reduced resolution shrinks by max_side or scale", async () => {
    const { ctx, sink } = await buildFixture();
    ctx.pages = [ctx.pages[0]!];
    await runExports(ctx, [
      { id: "hi", name: "hi", output_format: "jpg", filename: "hi", options: { quality: 95 } },
      { id: "lo", name: "lo", output_format: "jpg", filename: "lo", options: { quality: 20 } },
      {
        id: "max",
        name: "max",
        output_format: "jpg",
        filename: "max",
        options: { resolution: "reduced", max_side: 800 },
      },
      {
        id: "half",
        name: "half",
        output_format: "jpg",
        filename: "half",
        options: { resolution: "reduced", scale: 0.5 },
      },
    ]);
    const size = async (name: string) => {
      const m = await sharp(sink.files.get(name)!).metadata();
      return [m.width, m.height];
    };
    expect(await size("hi_page_1.jpg")).toEqual([1224, 1584]);
    expect(await size("lo_page_1.jpg")).toEqual([1224, 1584]);
    // A mostly white page: quality 20 is 0.70 of quality 95's bytes with the drawing font (header bytes weigh in).
    expect(sink.files.get("lo_page_1.jpg")!.byteLength).toBeLessThan(
      sink.files.get("hi_page_1.jpg")!.byteLength * 0.85,
    );
    expect(await size("max_page_1.jpg")).toEqual([618, 800]);
    expect(await size("half_page_1.jpg")).toEqual([612, 792]);
  });

  test("a page without an image is skipped with a warning; the template may place the page number itself", async () => {
    const { ctx, sink } = await buildFixture();
    delete ctx.pages[1]!.render;
    const m = await runExports(ctx, [
      { id: "jpg", name: "JPG", output_format: "jpg", filename: "{document_type}/p{page_number}.jpeg" },
    ]);
    expect(m.profiles.jpg!.status).toBe("partial");
    expect(m.profiles.jpg!.warnings).toEqual(["page 2 has no image"]);
    expect([...sink.files.keys()]).toEqual(["invoice/p1.jpg", "receipt/p3.jpg"]);
  });
});
