/**
 * The line-item rules on hand-made pages (words with boxes, as OCR or a text layer gives them): rows grouped on a
 * sloped baseline, cells mended by quantity × unit price = amount, group headings whose indented rows break their
 * amount down, a table continued on a page that does not repeat its header, carried-forward totals, totals-block
 * lines, and the check of the items against the document's sums.
 */
import { describe, expect, test } from "bun:test";
import type { Page, Word } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";

type Cell = [text: string, x: number];

/**
 * A page from rows of [y, cells]: 10 px per character, 20 px high words. `slope` lifts each word by slope × x (a
 * tilted photo); on an OCR page every cell is its own OCR line, as tesseract returns column blocks.
 */
function page(rows: Array<[number, Cell[]]>, opts: { ocr?: boolean; slope?: number; number?: number } = {}): Page {
  const words: Word[] = [];
  let block = 0;
  rows.forEach(([y, cells], row) => {
    for (const [text, x] of cells) {
      let offset = 0;
      for (const part of text.split(" ")) {
        const x1 = x + offset * 10;
        const dy = (opts.slope ?? 0) * x1;
        if (part)
          words.push({
            text: part,
            confidence: opts.ocr ? 0.9 : 1,
            bounding_box: [x1, y + dy, x1 + part.length * 10, y + dy + 20],
            line: opts.ocr ? block : row,
          });
        offset += part.length + 1;
      }
      block++;
    }
  });
  const n = opts.number ?? 1;
  return {
    page_number: n,
    source_file_index: 0,
    source_filename: opts.ocr ? "scan.png" : "t.pdf",
    source_file_page_number: n,
    image_transform: {
      rasterized_width: 2000,
      rasterized_height: 3000,
      source_width: 1000,
      source_height: 1500,
      source_unit: "point",
      render_scale: 2,
      effective_dpi: 144,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
    text_source: opts.ocr ? "ocr" : "text_layer",
    words,
    text: rows.map(([, cells]) => cells.map(([t]) => t).join(" ")).join("\n"),
    ocr_confidence: opts.ocr ? 0.9 : 1,
  };
}

const items = (pages: Page[]) => extractFields(pages, "invoice", defaultProject).line_items!;

describe("line items on OCR pages", () => {
  test("a tilted photo: each row's description and amounts joined on the sloped baseline, damaged cells mended", () => {
    // Text runs up to the right by 3 px in 100; the description sits 30 px below its amounts 1000 px to the right.
    const p = page(
      [
        [100, [["Bakery Norte B.V. Factuur", 100]]],
        [130, [["geleverd aan Hoofdstraat 1 Utrecht", 100]]],
        [160, [["betaling binnen dertig dagen graag", 100]]],
        [
          200,
          [
            ["Artikel", 100],
            ["Aantal", 800],
            ["Prijs", 1000],
            ["Bedrag", 1300],
          ],
        ],
        [
          240,
          [
            ["Volkorenbrood groot", 100],
            ["2", 830],
            ["€3,45", 1000],
            ["€6,90", 1300],
          ],
        ],
        [
          280,
          [
            ["Appeltaart heel", 100],
            ["1", 830],
            ["€14,99", 1000],
            ["€1499", 1300],
          ],
        ],
        [
          320,
          [
            ["Koffie bonen 1 kg", 100],
            ["€4499", 1000],
            ["€4499", 1300],
          ],
        ],
        [
          400,
          [
            ["Totaal", 1000],
            ["€66,88", 1300],
          ],
        ],
      ],
      { ocr: true, slope: -0.03 },
    );
    const t = items([p]);
    expect(t.value).toEqual([
      { description: "Volkorenbrood groot", quantity: 2, unit_price: 3.45, amount: 6.9 },
      { description: "Appeltaart heel", quantity: 1, unit_price: 14.99, amount: 14.99 },
      { description: "Koffie bonen 1 kg", quantity: 1, unit_price: 44.99, amount: 44.99 },
    ]);
    expect(t.reasoning).toContain("mended by quantity × unit price = amount");
    expect(t.reasoning).toContain("add up to the document's sums");
  });

  test("group headings carry the items; the indented charges and VAT under each break their amount down", () => {
    const p = page(
      [
        [100, [["Skyhook Hosting Invoice", 100]]],
        [140, [["Total amount due $9.50", 100]]],
        [200, [["Detail", 100]]],
        [
          240,
          [
            ["Object Storage", 120],
            ["$6.00", 1500],
          ],
        ],
        [
          270,
          [
            ["Charges", 160],
            ["$5.00", 1510],
          ],
        ],
        [
          300,
          [
            ["VAT", 160],
            ["$1.00", 1510],
          ],
        ],
        [
          330,
          [
            ["Data Transfer", 120],
            ["$3.50", 1500],
          ],
        ],
        [
          360,
          [
            ["Charges", 160],
            ["$3.50", 1510],
          ],
        ],
        [
          390,
          [
            ["VAT", 160],
            ["$0.00", 1510],
          ],
        ],
      ],
      { ocr: true },
    );
    const t = items([p]);
    expect(t.value).toEqual([
      { description: "Object Storage", quantity: null, unit_price: null, amount: 6 },
      { description: "Data Transfer", quantity: null, unit_price: null, amount: 3.5 },
    ]);
    expect(t.reasoning).toContain("group headings");
  });
});

describe("line items across pages and around the totals", () => {
  const header: Cell[] = [
    ["Description", 100],
    ["Qty", 900],
    ["Unit price", 1100],
    ["Amount", 1500],
  ];
  const row = (y: number, name: string, qty: number, unit: string, amount: string): [number, Cell[]] => [
    y,
    [
      [name, 100],
      [String(qty), 920],
      [unit, 1100],
      [amount, 1500],
    ],
  ];

  test("a table continues on the next page without a repeated header; a carried-forward total there is no item", () => {
    const first = page([
      [100, [["Ostrava Tools s.r.o. Invoice 2024-118", 100]]],
      [200, header],
      row(240, "Drill set", 2, "10.00", "20.00"),
      [270, [["serial DX-2210", 120]]],
      row(300, "Hammer", 1, "15.50", "15.50"),
      [2900, [["Page 1 of 2", 1500]]],
    ]);
    const second = page(
      [
        [100, [["Ostrava Tools s.r.o. · Invoice 2024-118", 100]]],
        [
          160,
          [
            ["Carried forward", 100],
            ["35.50", 1500],
          ],
        ],
        row(200, "Saw blade", 3, "4.00", "12.00"),
        [
          300,
          [
            ["Subtotal", 1100],
            ["47.50", 1500],
          ],
        ],
        [
          330,
          [
            ["VAT 20%", 1100],
            ["9.50", 1500],
          ],
        ],
        [
          360,
          [
            ["Total", 1100],
            ["57.00", 1500],
          ],
        ],
        [
          390,
          [
            ["Amount paid", 1100],
            ["57.00", 1500],
          ],
        ],
      ],
      { number: 2 },
    );
    const t = items([first, second]);
    expect(t.value).toEqual([
      { description: "Drill set\nserial DX-2210", quantity: 2, unit_price: 10, amount: 20 },
      { description: "Hammer", quantity: 1, unit_price: 15.5, amount: 15.5 },
      { description: "Saw blade", quantity: 3, unit_price: 4, amount: 12 },
    ]);
    expect(t.bounding_boxes.map((b) => b.page_index)).toEqual([1, 2]);
  });

  test("a header cell of several words is one column; spaced thousands and bracketed negatives are one number", () => {
    const p = page([
      [100, [["Nota de abono 12", 100]]],
      [
        200,
        [
          ["Descripción", 100],
          ["Cantidad", 800],
          ["Precio unitario", 1000],
          ["Importe", 1500],
        ],
      ],
      [
        240,
        [
          ["Silla de oficina", 100],
          ["2", 880],
          ["(1 250,00)", 1060],
          ["(2 500,00)", 1480],
        ],
      ],
      [
        300,
        [
          ["Base imponible", 1100],
          ["(2 500,00)", 1480],
        ],
      ],
    ]);
    expect(items([p]).value).toEqual([
      { description: "Silla de oficina", quantity: 2, unit_price: -1250, amount: -2500 },
    ]);
  });

  test("items that add up to none of the sums are sent to review, and the reasoning says so", () => {
    const p = page([
      [100, [["Ostrava Tools s.r.o. Invoice 2024-119", 100]]],
      [200, header],
      row(240, "Drill set", 2, "10.00", "20.00"),
      [
        300,
        [
          ["Subtotal", 1100],
          ["47.50", 1500],
        ],
      ],
      [
        330,
        [
          ["VAT 20%", 1100],
          ["9.50", 1500],
        ],
      ],
      [
        360,
        [
          ["Total", 1100],
          ["57.00", 1500],
        ],
      ],
    ]);
    const t = items([p]);
    expect(t.value).toEqual([{ description: "Drill set", quantity: 2, unit_price: 10, amount: 20 }]);
    expect(t.review_required).toBe(true);
    expect(t.reasoning).toContain("add up to 20, none of the document's sums");
  });
});
