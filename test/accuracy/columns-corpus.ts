/**
 * The reading-order corpus of the accuracy gate (ocr-text/columns): generated pages of known reading order
 * (layout-pages.ts) in several layouts, each scanned (scans.ts: greyscale, 200 or 300 DPI, grain, JPEG) at a skew
 * between -4° and +4° or turned a quarter or half, so that what is measured is the order of blocks on pages that
 * lie any way, not one page's luck. The character error rate is against the true text in reading order: a page whose
 * words are all read right but whose columns interleave scores about 0.3-0.6.
 */
import { symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Corpus } from "./corpora";
import { layoutPage, type PageLayout } from "./layout-pages";
import { scanOf, type ScanVariant } from "./scans";

export const LAYOUTS: Record<string, PageLayout> = {
  /** Two justified columns, narrow gutter, a picture with its caption, a full-width note, a page number. */
  "two-narrow": { columns: 2, gutter: 12, justified: true, figure: true, note: true, pageNumber: true },
  /** Two ragged columns, wide gutter, running header with the page number, a full-width note. */
  "two-wide-ragged": { columns: 2, gutter: 36, justified: false, header: true, note: true },
  /** Three justified columns, a picture, a page number. */
  three: { columns: 3, gutter: 14, justified: true, figure: true, pageNumber: true },
  /** Two sans columns with a table-like block, running header. */
  "two-table": { columns: 2, gutter: 20, justified: true, sans: true, table: true, header: true },
  /** Three ragged columns, narrow gutter, header, note. */
  "three-ragged": { columns: 3, gutter: 10, justified: false, header: true, note: true, table: true },
  /** One column with a table and a picture: the order must stay as it is. */
  single: { columns: 1, gutter: 0, justified: true, table: true, figure: true, pageNumber: true },
};

const SEEDS: Record<string, number> = {
  "two-narrow": 31,
  "two-wide-ragged": 42,
  three: 53,
  "two-table": 64,
  "three-ragged": 75,
  single: 86,
};

/** The pages of the corpus: each layout at two of the skews and turns a scanner or a careless hand gives. */
export const COLUMN_PAGES: Array<{ layout: string; variant: ScanVariant }> = [
  { layout: "two-narrow", variant: { dpi: 300, angle: -4, quality: 75 } },
  { layout: "two-narrow", variant: { dpi: 200, angle: 90, quality: 60 } },
  { layout: "two-wide-ragged", variant: { dpi: 200, angle: 3, quality: 60 } },
  { layout: "two-wide-ragged", variant: { dpi: 300, angle: 270, quality: 75 } },
  { layout: "three", variant: { dpi: 300, angle: 2.5, quality: 75 } },
  { layout: "three", variant: { dpi: 300, angle: 180, quality: 75 } },
  { layout: "two-table", variant: { dpi: 300, angle: -1, quality: 75 } },
  { layout: "two-table", variant: { dpi: 200, angle: 4, quality: 60 } },
  { layout: "three-ragged", variant: { dpi: 300, angle: -3, quality: 75 } },
  { layout: "three-ragged", variant: { dpi: 300, angle: 90, quality: 75 } },
  { layout: "single", variant: { dpi: 200, angle: -2, quality: 60 } },
  { layout: "single", variant: { dpi: 300, angle: 180, quality: 75 } },
];

const writeJson = (file: string, v: unknown) => writeFileSync(file, JSON.stringify(v, null, 2) + "\n");

/** The page of `layout` scanned in `variant`, as an eval file: the scan's path and the true text. */
export async function columnScan(
  layout: string,
  variant: ScanVariant,
): Promise<{ name: string; scan: string; text: string }> {
  const page = await layoutPage(LAYOUTS[layout]!, SEEDS[layout]!);
  const name = `${layout}-${variant.dpi}-${String(variant.angle).replace("-", "m")}`;
  return { name, scan: await scanOf(page.pdf, `${name}.pdf`, variant), text: page.text };
}

export const columnsCorpus: Corpus = {
  id: "ocr-text/columns",
  about: `${COLUMN_PAGES.length} generated pages (one to three columns, gutters, picture, table, header, note) scanned at 200/300 DPI, skewed -4°…+4° or turned 90/180/270°`,
  async build(dir) {
    for (const { layout, variant } of COLUMN_PAGES) {
      const { name, scan, text } = await columnScan(layout, variant);
      symlinkSync(scan, path.join(dir, `${name}.pdf`));
      writeJson(path.join(dir, `${name}.json`), { text });
    }
  },
};
