/**
 * Embeds a font program for the standard sans-serif fonts a source PDF references without embedding them
 * (Helvetica, Arial and their bold/oblique styles), so the Factur-X PDF built from its pages can be PDF/A-3b: the
 * Liberation Sans fonts pdfjs-dist ships (GPL-2 with the font exception, which allows embedding in documents) are
 * metric-compatible with Helvetica/Arial, so the text keeps its place. Only simple fonts with WinAnsiEncoding are
 * changed (codes map to Unicode, then through the font's cmap): a font with another encoding, a serif or monospace
 * font is left as it is, and pdfa-check.ts reports it.
 */
import { PDFDict, PDFName, PDFNumber, type PDFDocument, type PDFRef } from "pdf-lib";
import regular from "pdfjs-dist/standard_fonts/LiberationSans-Regular.ttf" with { type: "file" };
import bold from "pdfjs-dist/standard_fonts/LiberationSans-Bold.ttf" with { type: "file" };
import italic from "pdfjs-dist/standard_fonts/LiberationSans-Italic.ttf" with { type: "file" };
import boldItalic from "pdfjs-dist/standard_fonts/LiberationSans-BoldItalic.ttf" with { type: "file" };
import { readTtf } from "./ttf";

const FILES = { regular, bold, italic, boldItalic };
type Style = keyof typeof FILES;
const POSTSCRIPT: Record<Style, string> = {
  regular: "LiberationSans",
  bold: "LiberationSans-Bold",
  italic: "LiberationSans-Italic",
  boldItalic: "LiberationSans-BoldItalic",
};

/** The Liberation Sans style standing in for a standard font name; undefined for any other font. */
export function sansStyle(baseFont: string): Style | undefined {
  const name = baseFont.replace(/^\/?([A-Z]{6}\+)?/, "");
  if (!/^(Helvetica|Arial(MT)?)([-,].*)?$/.test(name)) return undefined;
  // Narrow, light and black cuts have other widths than Liberation Sans: leave them (reported, not misplaced).
  if (/Narrow|Condensed|Compressed|Light|Black|Heavy/i.test(name)) return undefined;
  const b = /Bold/i.test(name);
  const i = /Oblique|Italic/i.test(name);
  return b && i ? "boldItalic" : b ? "bold" : i ? "italic" : "regular";
}

const cp1252 = new TextDecoder("windows-1252");

/** Embeds Liberation Sans for every non-embedded Helvetica/Arial WinAnsi font; returns the font names it replaced. */
export async function embedStandardSansFonts(pdf: PDFDocument): Promise<string[]> {
  const ctx = pdf.context;
  const programs = new Map<Style, { ref: PDFRef; font: ReturnType<typeof readTtf>; bytes: Uint8Array }>();
  const done: string[] = [];
  for (const [, obj] of ctx.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict) || obj.get(PDFName.of("Type")) !== PDFName.of("Font")) continue;
    const subtype = obj.get(PDFName.of("Subtype"));
    if (subtype !== PDFName.of("Type1") && subtype !== PDFName.of("TrueType")) continue;
    const descriptor = obj.lookup(PDFName.of("FontDescriptor"));
    if (
      descriptor instanceof PDFDict &&
      ["FontFile", "FontFile2", "FontFile3"].some((k) => descriptor.has(PDFName.of(k)))
    )
      continue;
    if (obj.get(PDFName.of("Encoding")) !== PDFName.of("WinAnsiEncoding")) continue;
    const baseFont = String(obj.get(PDFName.of("BaseFont")) ?? "");
    const style = sansStyle(baseFont);
    if (!style) continue;
    let program = programs.get(style);
    if (!program) {
      const bytes = new Uint8Array(await Bun.file(FILES[style]).arrayBuffer());
      const ref = ctx.register(ctx.flateStream(bytes, { Length1: bytes.length }));
      program = { ref, font: readTtf(bytes), bytes };
      programs.set(style, program);
    }
    const { font } = program;
    const scale = (x: number) => Math.round((x * 1000) / font.unitsPerEm);
    const widths: number[] = [];
    for (let code = 32; code <= 255; code++)
      widths.push(scale(font.advance(cp1252.decode(new Uint8Array([code])).codePointAt(0)!)));
    const italicStyle = style === "italic" || style === "boldItalic";
    const fd = ctx.obj({
      Type: "FontDescriptor",
      FontName: POSTSCRIPT[style],
      Flags: 32 | (italicStyle ? 64 : 0),
      FontBBox: font.bbox.map(scale),
      ItalicAngle: font.italicAngle,
      Ascent: scale(font.ascent),
      Descent: scale(font.descent),
      CapHeight: scale(font.capHeight),
      StemV: style === "bold" || style === "boldItalic" ? 120 : 80,
      FontFile2: program.ref,
    });
    obj.set(PDFName.of("Subtype"), PDFName.of("TrueType"));
    obj.set(PDFName.of("BaseFont"), PDFName.of(POSTSCRIPT[style]));
    obj.set(PDFName.of("FirstChar"), PDFNumber.of(32));
    obj.set(PDFName.of("LastChar"), PDFNumber.of(255));
    obj.set(PDFName.of("Widths"), ctx.obj(widths));
    obj.set(PDFName.of("FontDescriptor"), ctx.register(fd));
    done.push(baseFont.replace(/^\//, ""));
  }
  return done;
}
