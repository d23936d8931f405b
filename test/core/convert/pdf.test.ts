/** PDF conversion: text layers with word boxes, coordinates, render(), page_limit, attachments, time bounds. */
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readdirSync } from "node:fs";
import path from "node:path";
import { PDFDocument, PDFName, type PDFRef, StandardFonts, degrees } from "pdf-lib";
import { DocprocError } from "../../../src/core/errors.ts";
import type { Page } from "../../../src/core/model.ts";
import { convertSource, renderPageToRaster } from "../../../src/core/stages/convert/index.ts";

const CORPORA = path.resolve(import.meta.dir, "../../../fixtures/corpora");
const INVOICES = path.join(CORPORA, "invoice2data");
const ROBUSTNESS = path.join(CORPORA, "pdf-robustness");
const hasPdftotext = Bun.which("pdftotext") !== null;

// Several tests start pdf.js workers or wait out a timeout: seconds each on a loaded machine, not bun's default 5 s.
setDefaultTimeout(30_000);

async function convertBytes(data: Uint8Array, opts: Partial<Parameters<typeof convertSource>[1]> = {}) {
  return convertSource(
    { index: 0, filename: "t.pdf", data, split_policy: "inherit" },
    { firstPageNumber: 1, maxPages: null, ...opts },
  );
}

const readBytes = async (file: string) => new Uint8Array(await Bun.file(file).arrayBuffer());

interface RefWord {
  text: string;
  box: [number, number, number, number];
}

/** Words with their boxes in PDF points (top-left origin of the displayed page) from poppler's `pdftotext -bbox`. */
function popplerWords(file: string): RefWord[][] {
  const html = Bun.spawnSync(["pdftotext", "-bbox", file, "-"]).stdout.toString();
  const unescape = (s: string) =>
    s
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, "&");
  return html
    .split("<page ")
    .slice(1)
    .map((page) =>
      [...page.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map(
        (m) => ({
          text: unescape(m[5]),
          box: [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] as [number, number, number, number],
        }),
      ),
    );
}

/**
 * Matches reference words to ours by text (nearest unused candidate) and returns the largest deviations in points:
 * along the text (both ends) and across it (box centre; tools differ in the ascent/descent they assume).
 */
function compareWithReference(page: Page, reference: RefWord[], vertical = false) {
  const scale = page.image_transform.render_scale;
  const used = new Set<number>();
  let matched = 0,
    alongMax = 0,
    acrossMax = 0;
  for (const ref of reference) {
    let best = -1,
      bestDistance = Infinity;
    page.words.forEach((w, i) => {
      if (used.has(i) || w.text !== ref.text) return;
      const d = Math.hypot(w.bounding_box[0] / scale - ref.box[0], w.bounding_box[1] / scale - ref.box[1]);
      if (d < bestDistance) [best, bestDistance] = [i, d];
    });
    if (best < 0) continue;
    used.add(best);
    matched++;
    const [x1, y1, x2, y2] = page.words[best].bounding_box.map((v) => v / scale);
    const [rx1, ry1, rx2, ry2] = ref.box;
    const along = vertical ? [Math.abs(y1 - ry1), Math.abs(y2 - ry2)] : [Math.abs(x1 - rx1), Math.abs(x2 - rx2)];
    const across = vertical ? Math.abs((x1 + x2) / 2 - (rx1 + rx2) / 2) : Math.abs((y1 + y2) / 2 - (ry1 + ry2) / 2);
    alongMax = Math.max(alongMax, ...along);
    acrossMax = Math.max(acrossMax, across);
  }
  return { matched, alongMax, acrossMax };
}

describe("text layer and coordinates", () => {
  test.skipIf(!hasPdftotext)(
    "born-digital invoices are not OCR'd and word boxes / render_scale land within 2 pt of pdftotext -bbox",
    async () => {
      const files = readdirSync(INVOICES).filter((f) => f.endsWith(".pdf"));
      expect(files.length).toBeGreaterThanOrEqual(5);
      let total = 0;
      for (const name of files) {
        const file = path.join(INVOICES, name);
        const reference = popplerWords(file);
        const converted = await convertBytes(await readBytes(file));
        try {
          expect(converted.page_count).toBe(reference.length);
          converted.pages.forEach((page, i) => {
            if (reference[i].length === 0) return;
            expect(page.text_source).toBe("text_layer");
            const { matched, alongMax, acrossMax } = compareWithReference(page, reference[i]);
            expect(matched / reference[i].length).toBeGreaterThan(0.9); // same words found
            expect(alongMax).toBeLessThanOrEqual(2);
            expect(acrossMax).toBeLessThanOrEqual(2);
            total += matched;
          });
        } finally {
          await converted.close();
        }
      }
      expect(total).toBeGreaterThan(2000);
    },
  );

  test.skipIf(!hasPdftotext)(
    "rotated pages (/Rotate 0/90/180/270) with a MediaBox not at the origin match pdftotext -bbox",
    async () => {
      const bytes = await rotatedPdf();
      const file = path.join(process.env.TMPDIR ?? "/tmp", `docproc-rotated-${process.pid}.pdf`);
      await Bun.write(file, bytes);
      const reference = popplerWords(file);
      const converted = await convertBytes(bytes);
      try {
        [0, 90, 180, 270].forEach((rotation, i) => {
          const page = converted.pages[i];
          const turned = rotation % 180 !== 0;
          expect([page.image_transform.source_width, page.image_transform.source_height]).toEqual(
            turned ? [792, 612] : [612, 792],
          );
          const { matched, alongMax, acrossMax } = compareWithReference(page, reference[i], turned);
          expect(matched).toBe(reference[i].length);
          expect(alongMax).toBeLessThanOrEqual(2);
          expect(acrossMax).toBeLessThanOrEqual(2);
        });
      } finally {
        await converted.close();
      }
    },
  );

  test("word boxes match the positions pdf-lib wrote (independent of poppler)", async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    const page = pdf.addPage([595.28, 841.89]);
    const line = "Total amount due 1,234.56 EUR";
    page.drawText(line, { x: 72, y: 700, size: 12, font });
    const converted = await convertBytes(await pdf.save());
    const [p] = converted.pages;
    await converted.close();
    const scale = p.image_transform.render_scale;
    // drawText writes no kerning, so a word is as wide as the sum of its glyph advances.
    const advance = (text: string) => Array.from(text).reduce((sum, ch) => sum + font.widthOfTextAtSize(ch, 12), 0);
    let x = 72;
    for (const word of line.split(" ")) {
      const ours = p.words.find((w) => w.text === word)!;
      const width = advance(word);
      expect(Math.abs(ours.bounding_box[0] / scale - x)).toBeLessThan(0.05);
      expect(Math.abs(ours.bounding_box[2] / scale - (x + width))).toBeLessThan(0.05);
      // The baseline (841.89 - 700 from the top) lies inside the box.
      expect(ours.bounding_box[1] / scale).toBeLessThan(841.89 - 700);
      expect(ours.bounding_box[3] / scale).toBeGreaterThan(841.89 - 700);
      x += width + advance(" ");
    }
    expect(p.text).toBe(line);
    expect(p.words.every((w) => w.line === 1 && w.confidence === 1)).toBe(true);
  });

  test("image_transform of an A4 page: 300 DPI, source in points, original = rasterized / render_scale", async () => {
    const pdf = await PDFDocument.create();
    pdf.addPage([595.28, 841.89]).drawText("A4 page", { x: 50, y: 50, size: 10 });
    const converted = await convertBytes(await pdf.save());
    await converted.close();
    expect(converted.pages[0].image_transform).toEqual({
      rasterized_width: 2480,
      rasterized_height: 3508,
      source_width: 595.28,
      source_height: 841.89,
      source_unit: "point",
      render_scale: 300 / 72,
      effective_dpi: 300,
      coordinate_system: "top-left-origin",
      rotation: 0,
    });
  });

  test("a huge page is rendered below 10000 px a side and 40 MP, with the scale reported", async () => {
    const converted = await convertBytes(await readBytes(path.join(ROBUSTNESS, "ocrmypdf/enormous.pdf")));
    await converted.close();
    const t = converted.pages[0].image_transform;
    expect(Math.max(t.rasterized_width, t.rasterized_height)).toBeLessThanOrEqual(10_000);
    expect(t.rasterized_width * t.rasterized_height).toBeLessThanOrEqual(40_000_000);
    expect(t.render_scale).toBeLessThan(300 / 72);
    expect(t.effective_dpi).toBeCloseTo(t.render_scale * 72, 2);
    expect(Math.abs(t.rasterized_width / t.render_scale - t.source_width)).toBeLessThan(1);
  });

  test("fonts without a Unicode map give an unusable text layer: the page goes to OCR", async () => {
    for (const name of [
      "ocrmypdf/type3_font_nomapping.pdf",
      "ocrmypdf/truetype_font_nomapping.pdf",
      "ocrmypdf/vector.pdf",
    ]) {
      const converted = await convertBytes(await readBytes(path.join(ROBUSTNESS, name)));
      await converted.close();
      expect(converted.pages[0].text_source).toBe("none");
      expect(converted.pages[0].words).toEqual([]);
    }
  });
});

describe("render, page_limit, attachments", () => {
  test("render() draws the page at its rasterized size, RGB or grey, with ink inside the word boxes", async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.HelveticaBold);
    pdf.addPage([300, 200]).drawText("INK", { x: 40, y: 100, size: 40, font });
    const converted = await convertBytes(await pdf.save());
    try {
      const page = converted.pages[0];
      const rgb = await renderPageToRaster(page);
      expect([rgb.width, rgb.height, rgb.channels]).toEqual([
        page.image_transform.rasterized_width,
        page.image_transform.rasterized_height,
        3,
      ]);
      expect(rgb.data.length).toBe(rgb.width * rgb.height * 3);
      const grey = await renderPageToRaster(page, { grayscale: true });
      expect(grey.channels).toBe(1);
      const [x1, y1, x2, y2] = page.words[0].bounding_box.map(Math.round);
      const darkInside = countDark(grey.data, grey.width, [x1, y1, x2, y2]);
      expect(darkInside / ((x2 - x1) * (y2 - y1))).toBeGreaterThan(0.15);
      expect(countDark(grey.data, grey.width, [0, 0, grey.width, Math.max(1, y1 - 5)])).toBe(0); // white above the text
    } finally {
      await converted.close();
    }
    await expect(converted.pages[0].render!()).rejects.toBeInstanceOf(DocprocError); // closed
  });

  test("page_limit returns the first N pages, numbered from firstPageNumber, and the real page_count", async () => {
    const data = await readBytes(
      path.join(ROBUSTNESS, "py-pdf-sample-files/004-pdflatex-4-pages/pdflatex-4-pages.pdf"),
    );
    const converted = await convertBytes(data, { maxPages: 2, firstPageNumber: 5 });
    await converted.close();
    expect(converted.page_count).toBe(4);
    expect(converted.pages.map((p) => [p.page_number, p.source_file_page_number])).toEqual([
      [5, 1],
      [6, 2],
    ]);
  });

  test("PDF attachments (as used by ZUGFeRD/Factur-X) are returned with their bytes", async () => {
    const converted = await convertBytes(
      await readBytes(path.join(ROBUSTNESS, "py-pdf-sample-files/025-attachment/with-attachment.pdf")),
    );
    await converted.close();
    expect(converted.attachments?.map((a) => a.filename)).toEqual(["image.png"]);
    expect(Array.from(converted.attachments![0].data.subarray(0, 4))).toEqual([0x89, 0x50, 0x4e, 0x47]);
  });

  test("a PDF that pdf.js does not answer in time fails with `timeout` promptly, and the next file converts normally", async () => {
    // No xref and 100,000 objects: pdf.js indexes the whole file before giving up (about 3 s of busy parsing).
    const parts = ["%PDF-1.4\n"];
    for (let i = 1; i <= 100_000; i++)
      parts.push(`${i} 0 obj\n<< /Type /Annot /Rect [0 0 ${i} ${i}] /Contents (object ${i}) >>\nendobj\n`);
    const started = performance.now();
    const err = await convertBytes(new TextEncoder().encode(parts.join("")), { limits: { openTimeoutMs: 150 } }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(DocprocError);
    expect(err.code).toBe("timeout");
    expect(performance.now() - started).toBeLessThan(1_500); // the worker was terminated, not waited for
    const data = await readBytes(
      path.join(ROBUSTNESS, "py-pdf-sample-files/004-pdflatex-4-pages/pdflatex-4-pages.pdf"),
    );
    const converted = await convertBytes(data);
    await converted.close();
    expect(converted.page_count).toBe(4);
  });
});

describe("page-level time bound", () => {
  test("a page pdf.js cannot parse in time becomes an empty page with a warning; the pages around it convert", async () => {
    const pdf = await PDFDocument.create();
    const font = await pdf.embedFont(StandardFonts.Helvetica);
    for (let i = 1; i <= 4; i++) {
      const page = pdf.addPage([595, 842]);
      page.drawText(`Page ${i} heading`, { x: 50, y: 780, size: 12, font });
      if (i === 2) addHeavyContent(pdf, page, font.ref);
    }
    const started = performance.now();
    const converted = await convertBytes(await pdf.save(), { limits: { pageTimeoutMs: 1_500 } });
    await converted.close();
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(converted.pages.map((p) => p.text)).toEqual(["Page 1 heading", "", "Page 3 heading", "Page 4 heading"]);
    expect(converted.pages[1].text_source).toBe("none");
    expect(converted.warnings).toHaveLength(1);
    expect(converted.warnings[0]).toContain("page 2");
  });
});

/**
 * Page content that takes pdf.js minutes: a form XObject of a million path operators (and one text show, so pdf.js
 * does not cache it as text-free) drawn 200 times. 60 KB on disk.
 */
function addHeavyContent(pdf: PDFDocument, page: ReturnType<PDFDocument["addPage"]>, fontRef: PDFRef): void {
  const form = pdf.context.flateStream("BT /F1 1 Tf 0 0 Td (.) Tj ET\n" + "1 1 m\n".repeat(1_000_000), {
    Type: "XObject",
    Subtype: "Form",
    BBox: [0, 0, 10, 10],
    Resources: { Font: { F1: fontRef } },
  });
  page.node.setXObject(PDFName.of("Heavy"), pdf.context.register(form));
  page.node.addContentStream(pdf.context.register(pdf.context.flateStream("q /Heavy Do Q\n".repeat(200))));
}

function countDark(data: Uint8Array, width: number, [x1, y1, x2, y2]: number[]): number {
  let dark = 0;
  for (let y = y1; y < y2; y++) for (let x = x1; x < x2; x++) if (data[y * width + x] < 128) dark++;
  return dark;
}

/** Four pages rotated 0/90/180/270 whose MediaBox starts at (100, 200). */
async function rotatedPdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const rotation of [0, 90, 180, 270]) {
    const page = pdf.addPage([612, 792]);
    page.setMediaBox(100, 200, 612, 792);
    page.setRotation(degrees(rotation));
    page.drawText(`Rotation ${rotation} Invoice Total 123.45`, { x: 150, y: 700, size: 14, font });
    page.drawText("Second line here", { x: 160, y: 300, size: 10, font });
  }
  return pdf.save();
}
