/**
 * Regenerates the sample inbox `fixtures/inbox/` from the MIT-licensed invoice2data corpus
 * (fixtures/corpora/invoice2data). Run: `npx bun scripts/make-fixtures.ts`. Deterministic: the noise comes from a
 * seeded generator, so a re-run produces the same pixels (encoders permitting).
 *
 * Each derived file imitates a real-world input the pipeline must handle: a scanned PDF (image only, 300 DPI, noise,
 * a slight skew), a phone photo (low contrast, shadow, perspective-like shear, background), a scan fed in sideways
 * (90°), and a multi-page bilevel fax-style TIFF.
 */
import { copyFile, mkdir, stat } from "node:fs/promises";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import * as pdfjs from "pdfjs-dist/legacy/build/pdf.mjs";
import sharp from "sharp";
import { Rng } from "../fixtures/varied/generator/random";

const CORPUS = path.resolve(import.meta.dir, "../fixtures/corpora/invoice2data");
const INBOX = path.resolve(import.meta.dir, "../fixtures/inbox");

sharp.cache(false);

interface Gray {
  data: Uint8Array;
  width: number;
  height: number;
}

/** Renders one PDF page to 8-bit grey (or RGB) raw pixels at the given DPI with pdf.js. */
async function renderPage(
  file: string,
  pageNumber: number,
  dpi: number,
): Promise<{ png: Buffer; width: number; height: number; points: [number, number] }> {
  const data = new Uint8Array(await Bun.file(path.join(CORPUS, file)).arrayBuffer());
  // isEvalSupported: no eval of font programs (dropped from the typings in pdf.js 6, still honoured).
  const task = pdfjs.getDocument({ data, isEvalSupported: false, verbosity: 0 } as Parameters<
    typeof pdfjs.getDocument
  >[0]);
  const doc = await task.promise;
  try {
    const page = await doc.getPage(pageNumber);
    const base = page.getViewport({ scale: 1 });
    const vp = page.getViewport({ scale: dpi / 72 });
    const factory = (
      doc as unknown as { canvasFactory: { create(w: number, h: number): { canvas: any; context: any } } }
    ).canvasFactory;
    const { canvas, context } = factory.create(Math.round(vp.width), Math.round(vp.height));
    context.fillStyle = "white";
    context.fillRect(0, 0, canvas.width, canvas.height);
    await page.render({ canvasContext: context, viewport: vp, canvas } as never).promise;
    return {
      png: await canvas.encode("png"),
      width: canvas.width,
      height: canvas.height,
      points: [base.width, base.height],
    };
  } finally {
    await task.destroy();
  }
}

/** Scanner noise: mild grain everywhere, plus sparse dark specks (dust) and a few bright dropouts on ink. */
function addScanNoise(img: Gray, seed: number, grain = 14): Gray {
  const rng = new Rng(seed);
  const rand = () => rng.next();
  const out = new Uint8Array(img.data.length);
  for (let i = 0; i < img.data.length; i++) {
    let v = img.data[i]! + (rand() + rand() + rand() - 1.5) * grain;
    const r = rand();
    if (r < 0.0004)
      v = 40 + rand() * 60; // dust speck
    else if (r < 0.0008 && v < 128) v = 200; // toner dropout
    out[i] = Math.max(0, Math.min(255, Math.round(v)));
  }
  return { ...img, data: out };
}

async function toGray(png: Buffer): Promise<Gray> {
  const { data, info } = await sharp(png, { limitInputPixels: 1e8 })
    .flatten({ background: "white" })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height };
}

function fromGray(img: Gray) {
  return sharp(Buffer.from(img.data), {
    raw: { width: img.width, height: img.height, channels: 1 },
    limitInputPixels: 1e8,
  });
}

/** An image-only PDF, like a scanner's output: the page keeps the original size in points. */
async function scannedPdf(): Promise<Uint8Array> {
  const page = await renderPage("AmazonWebServices.pdf", 1, 300);
  const grayPng: Buffer = await fromGray(await toGray(page.png))
    .png()
    .toBuffer();
  const skewed = await sharp(grayPng)
    .rotate(0.7, { background: "white" })
    .extract({ left: 20, top: 20, width: page.width, height: page.height })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const noisy = addScanNoise(
    { data: new Uint8Array(skewed.data), width: skewed.info.width, height: skewed.info.height },
    7,
  );
  const jpeg = await fromGray(noisy).blur(0.6).jpeg({ quality: 50, mozjpeg: true }).toBuffer();
  const pdf = await PDFDocument.create();
  pdf.setProducer("docproc scripts/make-fixtures.ts");
  pdf.setCreator("simulated 300 DPI scanner");
  // Fixed dates: pdf-lib stamps "now" otherwise, and the file would change on every run.
  pdf.setCreationDate(new Date("2024-01-01T00:00:00Z"));
  pdf.setModificationDate(new Date("2024-01-01T00:00:00Z"));
  const image = await pdf.embedJpg(jpeg);
  const [w, h] = page.points;
  pdf.addPage([w, h]).drawImage(image, { x: 0, y: 0, width: w, height: h });
  return pdf.save();
}

/** A phone photo of a printed page: warm tint, low contrast, a shadow, a sheared (perspective-like) page on a desk. */
async function phonePhoto(): Promise<Buffer> {
  const page = await renderPage("coolblue1.pdf", 1, 150);
  const { width, height } = page;
  const shadow = Buffer.from(
    `<svg width="${width}" height="${height}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="0.6">` +
      `<stop offset="0" stop-color="#6b6b6b"/><stop offset="0.45" stop-color="#d8d8d8"/><stop offset="1" stop-color="#ffffff"/>` +
      `</linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/></svg>`,
  );
  const shaded = await sharp(page.png)
    .flatten({ background: "white" })
    .linear(0.72, 38) // washed-out print under room light
    .composite([{ input: shadow, blend: "multiply" }])
    .tint({ r: 255, g: 236, b: 205 })
    .png()
    .toBuffer();
  const sheared = await sharp(shaded)
    .affine(
      [
        [1, -0.06],
        [0.025, 0.96],
      ],
      { background: "#3a3430", interpolator: "bilinear" },
    )
    .rotate(-3.5, { background: "#3a3430" })
    .png()
    .toBuffer();
  const meta = await sharp(sheared).metadata();
  const pad = 60;
  return sharp(sheared)
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: "#3a3430" })
    .resize({ width: Math.round((meta.width! + 2 * pad) * 0.9) })
    .blur(0.8)
    .jpeg({ quality: 72, mozjpeg: true })
    .toBuffer();
}

/**
 * A page scanned sideways: 200 DPI grey, rotated 90° clockwise, dust specks, as a 16-grey PNG (grain is left out:
 * it would make the lossless file ten times larger).
 */
async function rotatedScan(): Promise<Buffer> {
  const page = await renderPage("NetpresseInvoice.pdf", 1, 200);
  const gray = addScanNoise(await toGray(page.png), 11, 0);
  const rotated = await fromGray(gray).rotate(90).png().toBuffer();
  return sharp(rotated).png({ palette: true, colours: 16, compressionLevel: 9 }).toBuffer();
}

/** A two-page bilevel fax-style TIFF (CCITT G4, 200 DPI), the pages of one two-page invoice. */
async function multiPageTiff(): Promise<Buffer> {
  const pages = [];
  for (const n of [1, 2]) {
    const page = await renderPage("QualityHosting.pdf", n, 200);
    pages.push(
      await fromGray(addScanNoise(await toGray(page.png), 20 + n, 10))
        .png()
        .toBuffer(),
    );
  }
  return sharp(pages, { join: { animated: true } })
    .threshold(160)
    .toColourspace("b-w")
    .tiff({ compression: "ccittfax4", bitdepth: 1, xres: 200 / 25.4, yres: 200 / 25.4, resolutionUnit: "inch" })
    .toBuffer();
}

async function main() {
  await mkdir(INBOX, { recursive: true });
  const outputs: Array<[string, () => Promise<Uint8Array | Buffer | null>]> = [
    [
      "born-digital-invoice.pdf",
      async () => (
        await copyFile(path.join(CORPUS, "AzureInterior.pdf"), path.join(INBOX, "born-digital-invoice.pdf")), null
      ),
    ],
    ["scanned-invoice.pdf", scannedPdf],
    ["phone-photo.jpg", phonePhoto],
    ["rotated-scan-90.png", rotatedScan],
    ["multi-page-fax.tif", multiPageTiff],
  ];
  let total = 0;
  for (const [name, make] of outputs) {
    const bytes = await make();
    if (bytes) await Bun.write(path.join(INBOX, name), bytes);
    const size = (await stat(path.join(INBOX, name))).size;
    total += size;
    console.log(`${name.padEnd(28)} ${(size / 1024).toFixed(0).padStart(6)} KiB`);
  }
  console.log(`${"total".padEnd(28)} ${(total / 1024).toFixed(0).padStart(6)} KiB`);
  if (total > 2 * 1024 * 1024) throw new Error("sample inbox exceeds 2 MB: lower the JPEG qualities");
}

await main();
