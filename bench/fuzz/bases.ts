/**
 * The files fuzz inputs are mutated from, in a fixed order: the sample inbox, every PDF and image of the shared
 * corpora up to 1 MB (larger ones cost time per input without adding new structure), and the hostile inputs of
 * test/support/hostile.ts. The same checkout always yields the same list, so a seed means the same inputs.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { multiPageTiff, pdfClaimingPages, pdfWithObjectStreamCount } from "../../test/support/hostile";

const ROOT = path.resolve(import.meta.dir, "../..");
const CORPORA = path.resolve(ROOT, "fixtures/corpora");
const EXTENSIONS = /\.(pdf|png|jpe?g|tiff?|webp|gif|bmp)$/i;
const MAX_BASE_BYTES = 1024 * 1024;

export interface Base {
  name: string;
  data: Uint8Array;
}

function walk(dir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return entries.flatMap((name) => {
    const full = path.join(dir, name);
    const info = statSync(full);
    if (info.isDirectory()) return walk(full);
    return info.isFile() && EXTENSIONS.test(name) && info.size > 0 && info.size <= MAX_BASE_BYTES ? [full] : [];
  });
}

export async function loadBases(corpora = CORPORA): Promise<Base[]> {
  const files = [...walk(path.join(ROOT, "fixtures/inbox")), ...walk(corpora)];
  const bases: Base[] = [];
  for (const file of files) bases.push({ name: path.basename(file), data: await Bun.file(file).bytes() });
  bases.push({ name: "objstm.pdf", data: pdfWithObjectStreamCount(2) });
  bases.push({ name: "claims-pages.pdf", data: pdfClaimingPages(3) });
  bases.push({ name: "pages.tif", data: multiPageTiff(40) });
  return bases;
}
