/**
 * Identical fonts shared across a document (src/core/engines/pdf/pdfjs-font-sharing.ts) also when Ghostscript's
 * pdfwrite made the file: it names each copy's ToUnicode CMap after its object number (`/CMapName/R6243 def`), the
 * one difference between copies of a font. The text stays exactly what stock pdf.js reads.
 */
import { expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

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
