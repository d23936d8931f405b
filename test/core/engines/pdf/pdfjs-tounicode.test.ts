/**
 * The ToUnicode speed patch (src/core/engines/pdf/pdfjs-font-patches.ts, TO_UNICODE) reads every mapping as stock
 * pdf.js does, edge cases included: bfranges whose low byte carries past 0xFF (and whose high byte then does too),
 * ranges running into surrogate code units, surrogate pairs, one- and four-byte destinations. A PDF showing each code
 * is read by stock and by patched pdf.js (test/core/engines/pdf/pdfjs-text-dump.ts) and the text content compared.
 */
import { expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PDFDocument, PDFName } from "pdf-lib";

const TO_UNICODE = `/CIDInit /ProcSet findresource begin
12 dict begin
begincmap
/CMapName /Edge def
/CMapType 2 def
1 begincodespacerange
<00> <ff>
endcodespacerange
5 beginbfrange
<20> <2f> <00fa>
<30> <3f> <d7f8>
<40> <4f> <fffa>
<50> <5f> <0041>
<60> <63> <20ac0041>
endbfrange
3 beginbfchar
<70> <d83dde00>
<71> <42>
<72> <dc00>
endbfchar
endcmap
CMapName currentdict /CMap defineresource pop
end
end`;

async function edgePdf(): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const page = pdf.addPage([595, 842]);
  const toUnicode = pdf.context.register(pdf.context.flateStream(TO_UNICODE));
  const font = pdf.context.register(
    pdf.context.obj({ Type: "Font", Subtype: "Type1", BaseFont: "Helvetica", ToUnicode: toUnicode }),
  );
  page.node.setFontDictionary(PDFName.of("F1"), font);
  const codes = [...Array.from({ length: 0x44 }, (_, i) => 0x20 + i), 0x70, 0x71, 0x72];
  const hex = codes.map((c) => c.toString(16).padStart(2, "0")).join("");
  page.node.addContentStream(pdf.context.register(pdf.context.flateStream(`BT /F1 12 Tf 20 700 Td <${hex}> Tj ET`)));
  return pdf.save();
}

test("ToUnicode bfranges and bfchars read the same with the speed patch, carries and surrogates included", async () => {
  const file = path.join(mkdtempSync(path.join(tmpdir(), "docproc-tounicode-")), "edge.pdf");
  writeFileSync(file, await edgePdf());
  const dump = async (mode: string) => {
    const proc = Bun.spawn([process.execPath, path.join(import.meta.dir, "pdfjs-text-dump.ts"), mode, file], {
      stdout: "pipe",
      stderr: "inherit",
    });
    const [text, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    expect(code).toBe(0);
    return JSON.parse(text) as Array<{ content?: { items: Array<{ str: string }> } }>;
  };
  const [stock, speed] = await Promise.all([dump("stock"), dump("speed")]);
  const text = stock.flatMap((p) => p.content?.items.map((i) => i.str) ?? []).join("");
  // The carry cases are really there: 0x00FF then 0x0100, and 0xFFFF followed by what its carry makes.
  expect(text).toContain("\u00ff\u0100");
  expect(text).toContain("\ud83d\ude00");
  expect(text.length).toBeGreaterThan(60);
  expect(speed).toEqual(stock);
});
