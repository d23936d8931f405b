/** Bad input never crashes conversion: each file ends in success or a clear DocprocError, in bounded time and memory. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import path from "node:path";
import { PDFDocument, StandardFonts } from "pdf-lib";
import sharp from "sharp";
import { DocprocError } from "../../../src/core/errors.ts";
import { convertSource } from "../../../src/core/stages/convert/index.ts";

const ROBUSTNESS = path.resolve(import.meta.dir, "../../../fixtures/corpora/pdf-robustness");
setDefaultTimeout(30_000);

const convert = (data: Uint8Array, filename = "input.pdf", signal?: AbortSignal) =>
  convertSource({ index: 0, filename, data, split_policy: "inherit" }, { firstPageNumber: 1, maxPages: null, signal });

async function failure(promise: Promise<unknown>): Promise<DocprocError> {
  const outcome = await promise.then(
    () => new Error("expected a DocprocError, but conversion succeeded"),
    (err) => err,
  );
  expect(outcome).toBeInstanceOf(DocprocError);
  expect((outcome as DocprocError).stage).toBe("convert");
  return outcome as DocprocError;
}

/** A PNG whose header claims width × height, followed by a token IDAT: nothing a decoder could ever finish. */
function pngClaiming(width: number, height: number): Uint8Array {
  const chunk = (type: string, body: Uint8Array) => {
    const out = new Uint8Array(12 + body.length);
    const view = new DataView(out.buffer);
    view.setUint32(0, body.length);
    out.set(new TextEncoder().encode(type), 4);
    out.set(body, 8);
    view.setUint32(8 + body.length, Bun.hash.crc32(out.subarray(4, 8 + body.length)));
    return out;
  };
  const ihdr = new Uint8Array(13);
  new DataView(ihdr.buffer).setUint32(0, width);
  new DataView(ihdr.buffer).setUint32(4, height);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const parts = [
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", new Uint8Array([0x78, 0x9c, 0x03, 0x00])),
    chunk("IEND", new Uint8Array()),
  ];
  return Uint8Array.from(parts.flatMap((p) => Array.from(p)));
}

describe("bad input", () => {
  test("a zero-byte file is `empty_file`", async () => {
    expect((await failure(convert(new Uint8Array()))).code).toBe("empty_file");
  });

  test("random bytes are `unsupported_format`", async () => {
    const random = crypto.getRandomValues(new Uint8Array(4096));
    random[0] = 0x00; // never a magic number by accident
    expect((await failure(convert(random))).code).toBe("unsupported_format");
  });

  test("an ELF executable renamed .pdf is `unsupported_format` and says what it is", async () => {
    const elf = new Uint8Array(
      await Bun.file(process.execPath)
        .slice(0, 64 * 1024)
        .arrayBuffer(),
    );
    const err = await failure(convert(elf, "invoice.pdf"));
    expect(err.code).toBe("unsupported_format");
    expect(err.message).toContain("ELF executable");
  });

  test("a truncated PDF converts what can be recovered or fails as `corrupt_file`", async () => {
    const whole = new Uint8Array(
      await Bun.file(
        path.join(ROBUSTNESS, "py-pdf-sample-files/004-pdflatex-4-pages/pdflatex-4-pages.pdf"),
      ).arrayBuffer(),
    );
    for (const fraction of [0.02, 0.3, 0.7]) {
      const cut = whole.subarray(0, Math.floor(whole.length * fraction));
      const outcome = await convert(cut).catch((err) => err);
      if (outcome instanceof DocprocError) expect(outcome.code).toBe("corrupt_file");
      else {
        expect(outcome.page_count).toBeGreaterThanOrEqual(1);
        await outcome.close();
      }
    }
  });

  test("a PDF header with nothing behind it is `corrupt_file`", async () => {
    expect((await failure(convert(new TextEncoder().encode("%PDF-1.7\n%%EOF\n")))).code).toBe("corrupt_file");
  });

  test("an image header claiming 100000 × 100000 pixels is `too_large` before any decoding", async () => {
    const started = performance.now();
    const err = await failure(convert(pngClaiming(100_000, 100_000), "photo.png"));
    expect(err.code).toBe("too_large");
    expect(err.message).toContain("100000 × 100000");
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  test("a truncated JPEG is `corrupt_file`", async () => {
    const jpeg = new Uint8Array(
      await sharp({ create: { width: 400, height: 300, channels: 3, background: "#888" } })
        .jpeg()
        .toBuffer(),
    );
    expect((await failure(convert(jpeg.subarray(0, Math.floor(jpeg.length / 2)), "photo.jpg"))).code).toBe(
      "corrupt_file",
    );
  });

  test("an aborted conversion stops with a DocprocError", async () => {
    const controller = new AbortController();
    controller.abort();
    const data = new Uint8Array(await Bun.file(path.join(ROBUSTNESS, "ocrmypdf/trivial.pdf")).arrayBuffer());
    expect((await failure(convert(data, "a.pdf", controller.signal))).code).toBe("timeout");
  });

  test("a 2,000-page PDF converts completely with process memory growing by far less than 1 GB", async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (let i = 0; i < 2000; i++) {
      const page = pdf.addPage([595, 842]);
      page.drawText(`Statement page ${i + 1}`, { x: 50, y: 780, size: 12, font });
      page.drawText(`Invoice ${100000 + i} total EUR ${(i * 3.7).toFixed(2)}`, { x: 50, y: 740, size: 10, font });
    }
    const data = await pdf.save();
    Bun.gc(true);
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
    const started = performance.now();
    const file = await convert(data, "long.pdf");
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    await file.close();
    expect(file.page_count).toBe(2000);
    expect(file.pages).toHaveLength(2000);
    expect(file.pages[1999].text).toBe(`Statement page 2000\nInvoice 101999 total EUR 7396.30`);
    expect(file.pages.every((p) => p.text_source === "text_layer")).toBe(true);
    const growthMb = (peak - before) / 1e6;
    console.log(
      `2,000-page PDF: ${seconds.toFixed(1)} s, ${(2000 / seconds).toFixed(0)} pages/s, RSS growth ${growthMb.toFixed(0)} MB (peak ${(peak / 1e6).toFixed(0)} MB)`,
    );
    expect(growthMb).toBeLessThan(1000);
  }, 90_000);
});
