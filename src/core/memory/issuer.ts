/**
 * Who issued a confirmed document, as memory recognises the issuer again: VAT id, IBAN, name, the web domains and
 * layout fingerprint of the first page, where the name stood, and the printed words around the values.
 */
import type { FieldValue } from "../model";
import { uprightSize, type Line } from "../extract/lines";
import { normalizeVatId } from "../extract/normalize";
import { anchorsOf, layoutOf, namePlaceOf } from "./evidence";
import { compact } from "./text-forms";
import type { Issuer } from "../project/memory";

const DOMAIN_RE = /(?:@|\bwww\.|https?:\/\/)([a-z0-9-]+(?:\.[a-z0-9-]+)+)/gi;

export function domainsOf(text: string): string[] {
  return [...new Set([...text.matchAll(DOMAIN_RE)].map((m) => m[1]!.toLowerCase().replace(/^www\./, "")))];
}

/**
 * Layout fingerprint: the letter words of the first page's upper half, each with its cell on a coarse grid
 * (10 columns, 20 rows). Same template → mostly the same cells, whatever the values.
 */
export function fingerprint(lines: Line[]): string[] {
  const first = lines.filter((l) => l.page === lines[0]?.page);
  if (!first.length) return [];
  const [W, H] = uprightSize(first[0]!.page);
  const cells = new Set<string>();
  for (const l of first) {
    for (const w of l.words) {
      if (w.box[1] / H > 0.5 || !/^\p{L}{3,}[:.]?$/u.test(w.word.text)) continue;
      cells.add(`${compact(w.word.text)}@${Math.floor((10 * w.box[0]) / W)},${Math.floor((20 * w.box[1]) / H)}`);
    }
  }
  return [...cells].sort().slice(0, 200);
}

/** The issuer of a document with these lines and confirmed values (`printed`: the values as text, for anchors). */
export function issuerOf(lines: Line[], values: Record<string, FieldValue>, printed: string[]): Issuer {
  const vat = values.vendor_vat_id ? normalizeVatId(String(values.vendor_vat_id)) : null;
  const iban = values.iban ? String(values.iban).replace(/\s+/g, "").toUpperCase() : null;
  const vendor = values.vendor_name ? String(values.vendor_name) : null;
  const namePlace = vendor ? namePlaceOf(lines, vendor) : null;
  return {
    vat_ids: vat ? [vat] : [],
    ibans: iban ? [iban] : [],
    name: vendor ? compact(vendor) || null : null,
    domains: domainsOf(
      lines
        .filter((l) => l.page === lines[0]?.page)
        .map((l) => l.text)
        .join("\n"),
    ),
    fingerprint: fingerprint(lines),
    names: vendor ? [vendor] : [],
    name_places: namePlace ? [namePlace] : [],
    anchors: anchorsOf(lines, printed),
    layouts: lines.length ? [layoutOf(lines)] : [],
  };
}
