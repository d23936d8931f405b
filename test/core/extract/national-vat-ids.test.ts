/**
 * The seller's VAT ID is its VAT registration: printed without a country code after its label ("NIP: 774-00-01-454")
 * it is read as digits; a tax number beside it ("Steuernummer 123/456/78901") is no VAT ID; the buyer's number
 * printed under the seller's does not replace it. Generated case by case, text layer and OCR lines.
 */
import { expect, test } from "bun:test";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { Rng } from "../../../fixtures/varied/generator/random";
import { type Cell, page } from "./page-rows";

const FORMS: Array<[label: string, group: (d: string) => string]> = [
  ["NIP:", (d) => `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5, 7)}-${d.slice(7)}`],
  ["NIP", (d) => d],
  ["BTW nr.", (d) => `${d.slice(0, 4)}.${d.slice(4, 6)}.${d.slice(6)}`],
  ["Partita IVA:", (d) => `${d}0`],
];

for (const ocr of [false, true])
  test(`${ocr ? "OCR lines" : "text layer"}: a national VAT number after its label, the buyer's under it`, () => {
    const r = new Rng(77);
    for (const [label, group] of FORMS) {
      const seller = r.digits(10);
      const buyer = r.digits(10);
      const rows: Array<[number, Cell[]]> = [
        [60, [["Polski Koncern Naftowy S.A.", 100, 30]]],
        [
          110,
          [
            [label, 100],
            [group(seller), 400],
          ],
        ],
        [140, [["Steuernummer 123/456/78901", 100]]],
        [300, [["Nabywca: Główny Urząd Statystyczny", 100]]],
        [
          330,
          [
            [label, 100],
            [group(buyer), 400],
          ],
        ],
        [
          600,
          [
            ["Razem", 1200],
            ["316,83", 1600],
          ],
        ],
      ];
      const f = extractFields([page(rows, ocr)], "invoice", defaultProject);
      const want = label.startsWith("Partita") ? `${seller}0` : seller;
      expect({ label, vat: f.vendor_vat_id?.value }).toEqual({ label, vat: want });
    }
  });

test("a German tax number (slashes) is no VAT ID; the USt-IdNr. is", () => {
  const rows: Array<[number, Cell[]]> = [
    [60, [["Hartmann Metallbau GmbH", 100, 30]]],
    [110, [["Steuernummer: 123/456/78901", 100]]],
    [140, [["USt-IdNr.: DE123456789", 100]]],
  ];
  expect(extractFields([page(rows, false)], "invoice", defaultProject).vendor_vat_id?.value).toBe("DE123456789");
  const noVat = rows.slice(0, 2);
  expect(extractFields([page(noVat, false)], "invoice", defaultProject).vendor_vat_id?.value ?? null).toBeNull();
});
