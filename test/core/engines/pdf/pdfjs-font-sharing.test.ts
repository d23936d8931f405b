/**
 * Identical fonts shared across a document (src/core/engines/pdf/pdfjs-font-sharing.ts) also when Ghostscript's
 * pdfwrite made the file: it names each copy's ToUnicode CMap after its object number (`/CMapName/R6243 def`), the
 * one difference between copies of a font. The text stays exactly what stock pdf.js reads.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { classicPdf } from "../../../support/hostile.ts";

setDefaultTimeout(180_000);

const CORPUS = path.resolve(import.meta.dir, "../../../../fixtures/corpora/invoice2data");

async function run(cmd: string[]): Promise<string> {
  const proc = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (code !== 0) throw new Error(`${cmd[0]} exited with ${code}: ${err.slice(-300)}`);
  return out;
}

test("copies of fonts re-distilled by Ghostscript are translated once, and read as stock pdf.js reads them", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "docproc-gs-fonts-"));
  try {
    const sources = readdirSync(CORPUS)
      .filter((f) => f.endsWith(".pdf"))
      .sort()
      .slice(0, 6)
      .map((f) => path.join(CORPUS, f));
    const joined = path.join(dir, "joined.pdf");
    const distilled = path.join(dir, "gs.pdf");
    await run(["pdfunite", ...sources, ...sources, ...sources, joined]); // three copies of each file's fonts
    await run([
      "gs",
      "-q",
      "-dNOPAUSE",
      "-dBATCH",
      "-dSAFER",
      "-sDEVICE=pdfwrite",
      `-sOutputFile=${distilled}`,
      joined,
    ]);
    const dump = async (mode: string) => {
      const script = path.join(import.meta.dir, "pdfjs-text-dump.ts");
      const out = await run([process.execPath, script, mode, distilled, "--pages", "100", "--count-shared"]);
      const pages = JSON.parse(out) as Array<{ sharedFonts?: number; content?: { items: unknown[] } }>;
      return { pages: pages.slice(0, -1), shared: pages.at(-1)!.sharedFonts! };
    };
    const [stock, speed] = await Promise.all([dump("stock"), dump("speed")]);
    expect(stock.pages.reduce((n, p) => n + (p.content?.items.length ?? 0), 0)).toBeGreaterThan(500);
    expect(speed.pages).toEqual(stock.pages);
    // Keyed by raw bytes, 10 of these fonts were shared; with the CMap's name left out of the key, 16.
    expect(speed.shared).toBeGreaterThanOrEqual(16);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/**
 * Fonts that share one FontDescriptor object (DEFERRED_ALIAS_HASH): pdf.js gives a font with the same descriptor and
 * the same alias hash as an earlier one that font's id and translation, and one with another hash an id of its own.
 * The hash of a descriptor's first font is worked out only when a second one comes; ids and aliases stay stock's,
 * also when a font's ToUnicode sits on two filters (its hash then depends on decoding state and is taken at once).
 */
test("fonts sharing a descriptor get stock pdf.js's font ids and aliases, the alias hash worked out late", async () => {
  const hex = (s: string) => [...s].map((c) => c.charCodeAt(0).toString(16).padStart(2, "0")).join("") + ">";
  const cmap = [
    "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /T def /CMapType 2 def",
    "1 begincodespacerange <00> <ff> endcodespacerange",
    "3 beginbfchar <41> <0058> <42> <0059> <43> <005A> endbfchar",
    "endcmap CMapName currentdict /CMap defineresource pop end end",
  ].join("\n");
  const twice = hex(hex(cmap));
  const font = (widths: string, descriptor: number, extra = "") =>
    `<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /FirstChar 65 /LastChar 70 /Widths [${widths}] /FontDescriptor ${descriptor} 0 R ${extra}>>`;
  const wide = "667 667 722 722 667 611";
  const narrow = "600 600 600 600 600 600";
  const descriptor = (name: string) =>
    `<< /Type /FontDescriptor /FontName /${name} /Flags 32 /FontBBox [-166 -225 1000 931] /ItalicAngle 0 /Ascent 718 /Descent -207 /CapHeight 718 /StemV 88 >>`;
  const text = (fonts: string[]) =>
    `BT 72 720 Td ${fonts.map((f, i) => `/${f} 12 Tf 0 -20 Td (ABC${i}) Tj`).join(" ")} ET`;
  const page1 = text(["F1", "F2", "F3", "F4", "F6", "F7"]);
  const page2 = text(["F5", "F3", "F1"]);
  const resources =
    "/Resources << /Font << /F1 7 0 R /F2 8 0 R /F3 9 0 R /F4 10 0 R /F5 11 0 R /F6 12 0 R /F7 13 0 R >> >>";
  const pdf = classicPdf([
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R 5 0 R] /Count 2 >>",
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ${resources} /Contents 4 0 R >>`,
    `<< /Length ${page1.length} >>\nstream\n${page1}\nendstream`,
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] ${resources} /Contents 6 0 R >>`,
    `<< /Length ${page2.length} >>\nstream\n${page2}\nendstream`,
    font(wide, 14), // F1: the descriptor's first font
    font(wide, 14), // F2: same hash as F1, so pdf.js reads it as F1
    font(narrow, 14), // F3: another hash, an id of its own
    font(wide, 14, "/ToUnicode 16 0 R "), // F4: ToUnicode on two filters, hashed at once (as F1: see below)
    font(wide, 14), // F5 (page 2): F1's alias again
    font(wide, 15, "/ToUnicode 16 0 R "), // F6: the first font of the second descriptor, hashed at once
    font(wide, 15, "/ToUnicode 17 0 R "), // F7: deferrable, but its descriptor already has aliases
    descriptor("Helvetica"),
    descriptor("Helvetica"),
    `<< /Filter [/ASCIIHexDecode /ASCIIHexDecode] /Length ${twice.length} >>\nstream\n${twice}\nendstream`,
    `<< /Length ${cmap.length} >>\nstream\n${cmap}\nendstream`,
  ]);
  const dir = mkdtempSync(path.join(tmpdir(), "docproc-font-alias-"));
  try {
    const file = path.join(dir, "aliases.pdf");
    writeFileSync(file, pdf);
    const dump = async (mode: string) => {
      const script = path.join(import.meta.dir, "pdfjs-text-dump.ts");
      return JSON.parse(await run([process.execPath, script, mode, file, "--ops"])) as Array<{
        content: { items: Array<{ str: string; fontName: string }> };
      }>;
    };
    const [stock, speed] = await Promise.all([dump("stock"), dump("speed")]);
    expect(speed).toEqual(stock);
    const fontOf = (page: number, str: string) => stock[page]!.content.items.find((i) => i.str === str)!.fontName;
    expect(fontOf(0, "ABC1")).toBe(fontOf(0, "ABC0")); // F2 aliased to F1
    expect(fontOf(1, "ABC0")).toBe(fontOf(0, "ABC0")); // F5 too
    expect(fontOf(0, "ABC2")).not.toBe(fontOf(0, "ABC0")); // F3 has a hash of its own
    // F4: pdf.js hashed its ToUnicode's inner stream before anything was decoded (no bytes), so F4 reads as F1.
    expect(fontOf(0, "ABC3")).toBe(fontOf(0, "ABC0"));
    expect(fontOf(0, "XYZ4")).not.toBe(fontOf(0, "ABC0")); // F6, its descriptor's first font, read its ToUnicode
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the font-sharing and deferred alias hash patches apply to the installed pdf.js (a missing anchor drops a group)", async () => {
  const { applyPatches } = await import("../../../../src/core/engines/pdf/pdfjs-speed-patches.ts");
  const { DEFERRED_ALIAS_HASH, SHARED_FONTS } = await import("../../../../src/core/engines/pdf/pdfjs-font-sharing.ts");
  const source = await Bun.file(Bun.resolveSync("pdfjs-dist/legacy/build/pdf.worker.mjs", import.meta.dir)).text();
  for (const group of [SHARED_FONTS, DEFERRED_ALIAS_HASH]) expect(applyPatches(source, [], [group])).not.toBe(source);
});
