/**
 * Real PDF shapes (issue 34): the same invoice pages (fixtures/corpora/invoice2data, 13 pages in 11 files) made into
 * one PDF the ways real files are made, each timed through the installed `docproc process` next to pdftotext in the
 * same run, and peak RSS at 1,000 and 2,000 pages. Cost and memory SHOULD follow the text, not how the file was
 * put together.
 *
 * Shapes, built deterministically into bench/.cache/shapes from the corpus (the tools are Debian's: poppler-utils,
 * qpdf, ghostscript, libtiff-tools; a shape whose tool is missing becomes a row saying so):
 * - pdf-lib: each source copied once, its fonts shared by all its copies (the bench's historical shape);
 * - pdfunite: every copy keeps its own fonts (~2.2 font objects a page);
 * - qpdf --pages: qpdf's page assembly; qpdf-linearized and qpdf-object-streams: the pdfunite file rewritten;
 * - ghostscript: the pdfunite file re-distilled by pdfwrite (fonts re-subset and merged);
 * - incremental: the pdfunite file with an appended update (a new Info dictionary, xref section with /Prev);
 * - type3: a page drawn with a Type3 font (OCRmyPDF's test file), each copy its own font;
 * - cid: pages whose text uses CID (Type0) fonts, each copy its own fonts;
 * - scans as JPEG images and as CCITT G4 images (20 pages, OCR): timed against OCRmyPDF where installed.
 * `bun bench/shapes.ts [pages]` prints the table, worst ratio first.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import type { BenchRow } from "./index";
import { docprocTextOf, pdftotextOf, wordF1 } from "./scan-accuracy";
import { jbig2FromCcitt } from "./scans";
import { docproc, interleaved, measure, pairRows, QUICK_ROUNDS, realPagesPdf, type Run } from "./job";

const ROOT = path.resolve(import.meta.dir, "..");
const CACHE = path.resolve(import.meta.dir, ".cache", "shapes");
const CORPUS = path.join(ROOT, "fixtures/corpora/invoice2data");
const ROBUST = path.join(ROOT, "fixtures/corpora/pdf-robustness");

interface Shape {
  name: string;
  tools: string[];
  /** Builds (or finds in the cache) the shape with `pages` pages. */
  build(pages: number): Promise<string>;
}

async function run(cmd: string[]): Promise<void> {
  const proc = Bun.spawn(cmd, { stdout: "ignore", stderr: "pipe" });
  const [err, code] = await Promise.all([new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0 && !(cmd[0] === "qpdf" && code === 3))
    throw new Error(`${cmd[0]} exited with ${code}: ${err.slice(-300)}`); // qpdf 3: warnings
}

const invoicePdfs = () =>
  readdirSync(CORPUS)
    .filter((f) => f.endsWith(".pdf"))
    .sort()
    .map((f) => path.join(CORPUS, f));

/** Corpus files cycled until `pages` pages (files whole: the last may end a little short of it). */
async function cycledFiles(pages: number): Promise<string[]> {
  const counts = await Promise.all(
    invoicePdfs().map(
      async (f) => [f, (await PDFDocument.load(readFileSync(f), { ignoreEncryption: true })).getPageCount()] as const,
    ),
  );
  const out: string[] = [];
  for (let n = 0; ; ) {
    for (const [f, c] of counts) {
      if (n + c > pages) return out;
      out.push(f);
      n += c;
    }
  }
}

/** `pages` copies of `source`'s first page, each copied on its own (its own font objects each time). */
async function repeatedPage(source: string, pages: number, file: string): Promise<string> {
  const out = await PDFDocument.create();
  const bytes = readFileSync(source);
  for (let i = 0; i < pages; i++) {
    const src = await PDFDocument.load(bytes, { ignoreEncryption: true });
    const [page] = await out.copyPages(src, [0]);
    out.addPage(page!);
  }
  writeFileSync(file, await out.save({ useObjectStreams: false }));
  return file;
}

function cached(name: string, pages: number, ext = "pdf"): { file: string; fresh: boolean } {
  mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, `${name}-${pages}.${ext}`);
  return { file, fresh: !existsSync(file) };
}

/** An incremental update appended to a classic-xref PDF: a new Info dictionary, found through /Prev. */
function appendUpdate(pdf: Uint8Array): Uint8Array {
  const text = new TextDecoder("latin1").decode(pdf.subarray(Math.max(0, pdf.length - 4096)));
  const prev = Number(/startxref\s+(\d+)/.exec(text.slice(text.lastIndexOf("startxref")))?.[1]);
  const trailer = text.slice(text.lastIndexOf("trailer"));
  // pdfunite writes a /Size below its highest object number: the new object takes the next free number.
  let size = Number(/\/Size\s+(\d+)/.exec(trailer)?.[1]);
  for (const m of new TextDecoder("latin1").decode(pdf).matchAll(/(\d+) 0 obj\b/g))
    size = Math.max(size, Number(m[1]) + 1);
  const root = /\/Root\s+(\d+\s+\d+\s+R)/.exec(trailer)?.[1];
  if (!Number.isFinite(prev) || !Number.isFinite(size) || !root) throw new Error("no classic trailer to update");
  const body = `\n${size} 0 obj\n<< /Title (docproc bench: incremental update) /Producer (bench/shapes.ts) >>\nendobj\n`;
  const xrefAt = pdf.length + body.length;
  const tail = `xref\n${size} 1\n${String(pdf.length + 1).padStart(10, "0")} 00000 n \ntrailer\n<< /Size ${size + 1} /Root ${root} /Info ${size} 0 R /Prev ${prev} >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return Buffer.concat([pdf, Buffer.from(body + tail, "latin1")]);
}

/** The first CID-font page of the robustness corpus (pdffonts says "CID"), or null. */
function cidSource(): string | null {
  const files = readdirSync(ROBUST, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name.endsWith(".pdf"))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  for (const f of files) {
    const fonts = Bun.spawnSync(["pdffonts", "-l", "1", f]).stdout.toString();
    if (
      /\bCID (TrueType|Type 0C?)\b/.test(fonts) &&
      Bun.spawnSync(["pdftotext", "-l", "1", f, "-"]).stdout.toString().trim().length > 200
    )
      return f;
  }
  return null;
}

export const SHAPES: Shape[] = [
  { name: "pdf-lib (fonts shared)", tools: [], build: (n) => realPagesPdf(n) },
  {
    name: "pdfunite (fonts per copy)",
    tools: ["pdfunite"],
    async build(n) {
      const { file, fresh } = cached("pdfunite", n);
      if (fresh) await run(["pdfunite", ...(await cycledFiles(n)), file]);
      return file;
    },
  },
  {
    name: "qpdf --pages",
    tools: ["qpdf"],
    async build(n) {
      const { file, fresh } = cached("qpdf-pages", n);
      if (fresh) await run(["qpdf", "--empty", "--pages", ...(await cycledFiles(n)), "--", file]);
      return file;
    },
  },
  ...(["linearized", "object-streams"] as const).map((kind) => ({
    name: `qpdf ${kind} (of the pdfunite file)`,
    tools: ["qpdf", "pdfunite"],
    async build(n: number) {
      const { file, fresh } = cached(`qpdf-${kind}`, n);
      if (fresh)
        await run([
          "qpdf",
          kind === "linearized" ? "--linearize" : "--object-streams=generate",
          await SHAPES[1]!.build(n),
          file,
        ]);
      return file;
    },
  })),
  {
    name: "ghostscript pdfwrite (of the pdfunite file)",
    tools: ["gs", "pdfunite"],
    async build(n) {
      const { file, fresh } = cached("ghostscript", n);
      if (fresh)
        await run([
          "gs",
          "-q",
          "-dNOPAUSE",
          "-dBATCH",
          "-dSAFER",
          "-sDEVICE=pdfwrite",
          `-sOutputFile=${file}`,
          await SHAPES[1]!.build(n),
        ]);
      return file;
    },
  },
  {
    name: "incremental update (of the pdfunite file)",
    tools: ["pdfunite"],
    async build(n) {
      const { file, fresh } = cached("incremental", n);
      if (fresh) writeFileSync(file, appendUpdate(readFileSync(await SHAPES[1]!.build(n))));
      return file;
    },
  },
  {
    name: "Type3 font page, each copy its own font",
    tools: [],
    async build(n) {
      const { file, fresh } = cached("type3", n);
      return fresh ? repeatedPage(path.join(ROBUST, "ocrmypdf/type3_font_nomapping.pdf"), n, file) : file;
    },
  },
  {
    name: "CID (Type0) font page, each copy its own fonts",
    tools: ["pdffonts", "pdftotext"],
    async build(n) {
      const { file, fresh } = cached("cid", n);
      if (!fresh) return file;
      const source = cidSource();
      if (!source) throw new Error("no CID-font page with text in the robustness corpus");
      return repeatedPage(source, n, file);
    },
  },
];

const SCAN_PAGES = 20;

/**
 * Image-only scanner PDFs of the first SCAN_PAGES invoice pages at 200 DPI: JPEG (pdf-lib), CCITT G4 (tiff2pdf) and
 * JBIG2 (the G4 pages' own bits as MMR-coded JBIG2, bench/scans.ts).
 */
export const SCAN_SHAPES: Shape[] = [
  {
    name: "scanner PDF, JPEG pages (200 DPI grey)",
    tools: ["pdftoppm"],
    async build() {
      const { file, fresh } = cached("scan-jpeg", SCAN_PAGES);
      if (!fresh) return file;
      const dir = path.join(CACHE, "scan-jpeg-pages");
      mkdirSync(dir, { recursive: true });
      await run([
        "pdftoppm",
        "-gray",
        "-r",
        "200",
        "-jpeg",
        "-jpegopt",
        "quality=80",
        "-l",
        String(SCAN_PAGES),
        await SHAPES[0]!.build(SCAN_PAGES),
        path.join(dir, "p"),
      ]);
      const out = await PDFDocument.create();
      for (const f of readdirSync(dir).sort()) {
        const img = await out.embedJpg(readFileSync(path.join(dir, f)));
        out
          .addPage([img.width * 0.36, img.height * 0.36])
          .drawImage(img, { x: 0, y: 0, width: img.width * 0.36, height: img.height * 0.36 });
      }
      writeFileSync(file, await out.save());
      rmSync(dir, { recursive: true, force: true });
      return file;
    },
  },
  {
    name: "scanner PDF, CCITT G4 pages (200 DPI bilevel)",
    tools: ["pdftoppm", "tiffcp", "tiff2pdf"],
    async build() {
      const { file, fresh } = cached("scan-ccitt", SCAN_PAGES);
      if (!fresh) return file;
      const dir = path.join(CACHE, "scan-ccitt-pages");
      mkdirSync(dir, { recursive: true });
      await run([
        "pdftoppm",
        "-mono",
        "-r",
        "200",
        "-tiff",
        "-l",
        String(SCAN_PAGES),
        await SHAPES[0]!.build(SCAN_PAGES),
        path.join(dir, "p"),
      ]);
      const pages = readdirSync(dir)
        .sort()
        .map((f) => path.join(dir, f));
      const g4 = path.join(dir, "all.tiff");
      await run(["tiffcp", "-c", "g4", ...pages, g4]);
      await run(["tiff2pdf", "-o", file, g4]);
      rmSync(dir, { recursive: true, force: true });
      return file;
    },
  },
  {
    name: "scanner PDF, JBIG2 pages (200 DPI bilevel)",
    tools: ["pdftoppm", "tiffcp", "tiff2pdf"],
    async build() {
      const { file, fresh } = cached("scan-jbig2", SCAN_PAGES);
      if (fresh) await jbig2FromCcitt(await SCAN_SHAPES[1]!.build(SCAN_PAGES), file);
      return file;
    },
  },
];

const missingTool = (s: Shape) => s.tools.find((t) => !Bun.which(t));

/** BENCH_SHAPES=pdfunite,qpdf runs only the shapes whose name contains one of the words (all when unset). */
const picked = (s: Shape) => {
  const words = (process.env.BENCH_SHAPES ?? "")
    .split(",")
    .map((w) => w.trim().toLowerCase())
    .filter(Boolean);
  return words.length === 0 || words.some((w) => s.name.toLowerCase().includes(w));
};

export async function benchShapes(pages = Number(process.env.BENCH_SHAPE_PAGES) || 500): Promise<BenchRow[]> {
  const pdftotext = Bun.which("pdftotext");
  const rows: BenchRow[][] = [];
  for (const shape of SHAPES.filter(picked)) {
    const missing = missingTool(shape);
    if (missing) {
      rows.push([
        { metric: `${shape.name}: ${missing} not installed`, docproc: null, reference: null, target: "≥ 0.5×" },
      ]);
      continue;
    }
    const pdf = await shape.build(pages);
    const r = await interleaved(
      docproc(pdf),
      pdftotext ? () => measure([pdftotext, pdf, path.join(CACHE, "out.txt")]) : null,
      QUICK_ROUNDS,
    );
    const rss: Run[] = [];
    for (const n of [1000, 2000]) rss.push(await docproc(await shape.build(n))());
    const pair = pairRows({
      metric: `${shape.name}, ${pages} pages, fresh process (load ${loadavg()[0]!.toFixed(1)})`,
      units: pages,
      unit: "pages/s",
      docproc: r.a,
      reference: r.b,
      refName: "pdftotext",
      target: "≥ 0.5×",
    });
    pair.push({
      metric: `  same shape, peak RSS at 1,000 / 2,000 pages (growth ${((rss[1]!.rssMB / rss[0]!.rssMB - 1) * 100).toFixed(0)}%)`,
      docproc: `${rss[0]!.rssMB.toFixed(0)} / ${rss[1]!.rssMB.toFixed(0)}`,
      reference: null,
      ratio: null,
      unit: "MB",
      target: "< 600 MB, growth < 10%",
    });
    rows.push(pair);
  }
  for (const shape of SCAN_SHAPES.filter(picked)) {
    const missing = missingTool(shape);
    if (missing) {
      rows.push([
        {
          metric: `${shape.name}: ${missing} not installed`,
          docproc: null,
          reference: null,
          target: "≥ 1.5× OCRmyPDF",
        },
      ]);
      continue;
    }
    const pdf = await shape.build(SCAN_PAGES);
    const ocrmypdf = Bun.which("ocrmypdf");
    const out = path.join(CACHE, "ocrmypdf-out.pdf");
    const ref = ocrmypdf
      ? () =>
          measure([
            ocrmypdf,
            "-q",
            "-j",
            "2",
            "--force-ocr",
            "--output-type",
            "pdf",
            "--sidecar",
            path.join(CACHE, "sidecar.txt"),
            pdf,
            out,
          ])
      : null;
    const r = await interleaved(docproc(pdf), ref);
    const pair = pairRows({
      metric: `${shape.name}, ${SCAN_PAGES} pages (load ${loadavg()[0]!.toFixed(1)})`,
      units: SCAN_PAGES,
      unit: "pages/s",
      docproc: r.a,
      reference: r.b,
      refName: "OCRmyPDF -j 2",
      target: "≥ 1.5×",
    });
    // Accuracy beside speed: word F1 against the born-digital pages the scans were rendered from.
    const truth = pdftotextOf(await SHAPES[0]!.build(SCAN_PAGES));
    const sidecar = path.join(CACHE, "sidecar.txt");
    pair.push({
      metric: "  same, word F1 against the true text",
      docproc: Number(wordF1(truth, await docprocTextOf(pdf)).toFixed(3)),
      reference:
        ocrmypdf && existsSync(sidecar) ? Number(wordF1(truth, readFileSync(sidecar, "utf8")).toFixed(3)) : null,
      unit: "",
      target: "not lower than the reference",
    });
    rows.push(pair);
  }
  // Worst ratio first: the shape that needs work leads the table.
  const ratioOf = (group: BenchRow[]) =>
    typeof group[0]!.reference === "number" && typeof group[0]!.docproc === "number"
      ? group[0]!.docproc / group[0]!.reference
      : Infinity;
  return rows.sort((a, b) => ratioOf(a) - ratioOf(b)).flat();
}

if (import.meta.main) {
  const { renderBenchTable } = await import("./index");
  const rows = await benchShapes(Number(process.argv[2]) || undefined);
  process.stdout.write(renderBenchTable(rows));
}
