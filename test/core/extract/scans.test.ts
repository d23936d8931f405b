/**
 * Reading OCR text of scans, by failure class: pages built as OCR gives them (each text block a line of its own,
 * boxes on the page as scanned, so a skew tilts every row), generated for several skews and layouts.
 * - a value far right of its label sits in another OCR block, a line higher or lower on a skewed page;
 * - one printed line cut into pieces by OCR ("Tengal" | "Druckerei AG", "Grand" | "Total");
 * - specks OCR reads before a value ("'RE-51435", "~ FA-95120");
 * - a party heading's partner far right is the other party's heading, never the name.
 */
import { describe, expect, test } from "bun:test";
import type { Page, Word } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";

const [W, H] = [2500, 3500];

/** One OCR block (line) of words at (x, y) on the straight page: 14 px per character, 28 px high. */
interface Block {
  text: string;
  x: number;
  y: number;
  size?: number;
}

/** An OCR page of `blocks`, turned by `skew` degrees about its centre; `measured`: the skew OCR reports. */
function ocrPage(blocks: Block[], skew: number, measured = skew): Page {
  const a = (skew * Math.PI) / 180;
  const turn = (x: number, y: number): [number, number] => [
    W / 2 + (x - W / 2) * Math.cos(a) - (y - H / 2) * Math.sin(a),
    H / 2 + (x - W / 2) * Math.sin(a) + (y - H / 2) * Math.cos(a),
  ];
  const words: Word[] = [];
  blocks.forEach((b, line) => {
    const scale = (b.size ?? 28) / 28;
    let x = b.x;
    for (const part of b.text.split(" ")) {
      const w = part.length * 14 * scale;
      const [cx, cy] = turn(x + w / 2, b.y + 14 * scale);
      words.push({
        text: part,
        confidence: 0.9,
        bounding_box: [cx - w / 2, cy - 14 * scale, cx + w / 2, cy + 14 * scale],
        line,
      });
      x += w + 14 * scale;
    }
  });
  return {
    page_number: 1,
    source_file_index: 0,
    source_filename: "scan.pdf",
    source_file_page_number: 1,
    image_transform: {
      rasterized_width: W,
      rasterized_height: H,
      source_width: 600,
      source_height: 840,
      source_unit: "point",
      render_scale: 200 / 72,
      effective_dpi: 200,
      coordinate_system: "top-left-origin",
      rotation: 0,
      skew_degrees: measured,
    },
    text_source: "ocr",
    words,
    text: blocks.map((b) => b.text).join("\n"),
    ocr_confidence: 0.9,
  };
}

/** An invoice laid out as two-column pages print it: labels far left, values far right, each a block of its own. */
function keyValueInvoice(number: string): Block[] {
  return [
    { text: "INVOICE", x: 200, y: 150, size: 60 },
    { text: "Seller", x: 200, y: 320 },
    { text: "Norten Supplies Limited", x: 200, y: 370 },
    { text: "High Street 66, M1 1AE Manchester, United Kingdom", x: 200, y: 420 },
    { text: "Buyer", x: 1300, y: 320 },
    { text: "Marco Rossi", x: 1300, y: 370 },
    { text: "Station Road 113, SW1A 1AA London", x: 1300, y: 420 },
    { text: "Invoice No.", x: 200, y: 650 },
    { text: "Invoice Date", x: 200, y: 710 },
    { text: "Payment due", x: 200, y: 770 },
    { text: number, x: 2150, y: 650 },
    { text: "26-Jun-2023", x: 2140, y: 710 },
    { text: "26-Jul-2023", x: 2140, y: 770 },
    { text: "Description Qty Unit Price Amount", x: 200, y: 870 },
    { text: "Cable set 5m 1 450.62 450.62", x: 200, y: 930 },
    { text: "Subtotal", x: 200, y: 1030 },
    { text: "VAT 20%", x: 200, y: 1090 },
    { text: "Total due", x: 200, y: 1150 },
    { text: "450.62 GBP", x: 2100, y: 1030 },
    { text: "90.12 GBP", x: 2110, y: 1090 },
    { text: "540.74 GBP", x: 2100, y: 1150 },
    { text: "Thank you for your business, we look forward to working with you again.", x: 200, y: 1250 },
    { text: "IBAN GB35 RDGX 3283 7922 7756 92 VAT No. GB 140 7939 02", x: 900, y: 3300 },
  ];
}

describe("reading scans: values far right of their labels on skewed pages", () => {
  for (const [skew, measured] of [
    [0, 0],
    [0.8, 0.8],
    [-1.2, -1.2],
    [1.4, 1.4],
    // OCR corrects only skews it is sure of; the rest is left in the boxes unmeasured.
    [0.6, 0],
    [-0.5, 0],
  ] as const) {
    test(`skew ${skew}° (OCR measured ${measured}°)`, () => {
      const f = extractFields([ocrPage(keyValueInvoice("RE-51435"), skew, measured)], "invoice", defaultProject);
      expect(f.invoice_number!.value).toBe("RE-51435");
      expect(f.invoice_date!.value).toBe("2023-06-26");
      expect(f.due_date!.value).toBe("2023-07-26");
      expect(f.subtotal_amount!.value).toBe(450.62);
      expect(f.tax_amount!.value).toBe(90.12);
      expect(f.total_amount!.value).toBe(540.74);
      expect(f.customer_name!.value).toBe("Marco Rossi");
    });
  }
});

describe("reading scans: OCR specks and cut lines", () => {
  for (const [printed, speck] of [
    ["RE-51435", "'RE-51435"],
    ["FA-95120", "~ FA-95120"],
    ["INV-2024-17", "| INV-2024-17"],
    ["F2024-309", "‘F2024-309"],
  ]) {
    test(`an invoice number read as "${speck}" is ${printed}`, () => {
      const f = extractFields([ocrPage(keyValueInvoice(speck!), 0.7)], "invoice", defaultProject);
      expect(f.invoice_number!.value).toBe(printed!);
    });
  }

  test("a letterhead cut into two OCR lines is one company name", () => {
    const blocks: Block[] = [
      { text: "Tengal", x: 980, y: 170, size: 50 },
      { text: "Druckerei AG", x: 1170, y: 165, size: 60 },
      { text: "Bahnhofstraße 44 - 80331 München", x: 980, y: 260 },
      { text: "RECHNUNG", x: 200, y: 450, size: 50 },
      { text: "Rechnungsnr.: R-2024-0117", x: 200, y: 560 },
      { text: "Gesamtbetrag 1.190,00 EUR", x: 200, y: 900 },
    ];
    const f = extractFields([ocrPage(blocks, 0.5)], "invoice", defaultProject);
    expect(f.vendor_name!.value).toBe("Tengal Druckerei AG");
  });

  test("a label cut into two OCR lines still finds its value", () => {
    const blocks: Block[] = [
      { text: "WS Retail Services Pvt. Ltd.", x: 200, y: 150 },
      { text: "Invoice No: BLR-2015-982590", x: 200, y: 250 },
      { text: "Total 1 278.61 40.39", x: 1200, y: 1000 },
      { text: "Grand", x: 1600, y: 1140, size: 40 },
      { text: "Total", x: 1722, y: 1150, size: 30 },
      { text: "319.00", x: 2100, y: 1145, size: 36 },
    ];
    const f = extractFields([ocrPage(blocks, -0.6)], "invoice", defaultProject);
    expect(f.total_amount!.value).toBe(319);
  });

  test("a letterhead OCR read as one piece inside another ('Travel [Distribuciones] S.A.') is one name", () => {
    const blocks: Block[] = [
      { text: "Distribuciones", x: 1150, y: 172, size: 40 },
      { text: "Travel", x: 1032, y: 170, size: 40 },
      { text: "S.A.", x: 1448, y: 170, size: 40 },
      { text: "Calle Mayor 167 - 28013 Madrid", x: 1060, y: 260 },
      { text: "FACTURA", x: 200, y: 450, size: 50 },
      { text: "Total factura 1.190,00 EUR", x: 200, y: 900 },
    ];
    // "Travel" and "S.A." are one OCR line, "Distribuciones" another between them.
    const page = ocrPage(blocks, 0.4);
    for (const w of page.words) if (w.text === "S.A.") w.line = 1;
    expect(extractFields([page], "invoice", defaultProject).vendor_name!.value).toBe("Travel Distribuciones S.A.");
  });

  test("specks OCR read in the gap between a label and its far value are passed over", () => {
    const blocks = keyValueInvoice("FA-80553").filter((b) => !["Invoice No.", "FA-80553"].includes(b.text));
    const page = ocrPage([...blocks, { text: "Invoice no: ey : FA-80553-", x: 200, y: 650 }], 0);
    const line = page.words.filter((w) => w.line === blocks.length);
    // "ey" is grain OCR doubts; ":" a dot of dirt 2 px wide, spread across the gap.
    line.find((w) => w.text === "ey")!.confidence = 0.2;
    const dot = line.find((w) => w.text === ":" && w.bounding_box[0] > 400)!;
    dot.bounding_box = [1900, 665, 1903, 668];
    line.at(-1)!.bounding_box = [2150, 650, 2290, 678];
    expect(extractFields([page], "invoice", defaultProject).invoice_number!.value).toBe("FA-80553");
  });

  test("a label OCR glued to the number after it ('TVA8.1% 783.58') still reads", () => {
    const blocks: Block[] = [
      { text: "Pixquo Distribution SA", x: 200, y: 150 },
      { text: "FACTURE No. 2024/31667", x: 200, y: 300 },
      { text: "TVA8.1% 783.58 CHF", x: 1400, y: 1060 },
      { text: "Total TTC 10'457.38 CHF", x: 1400, y: 1120 },
    ];
    expect(extractFields([ocrPage(blocks, 0)], "invoice", defaultProject).tax_amount!.value).toBe(783.58);
  });

  test("a buyer heading with a speck before it ('~ Käufer') still marks the buyer's block", () => {
    const blocks: Block[] = [
      { text: "RECHNUNG", x: 200, y: 150, size: 60 },
      { text: "~ Käufer", x: 170, y: 320 },
      { text: "Marco Bianchi", x: 200, y: 370 },
      { text: "Bahnhofstraße 74, 80331 München", x: 200, y: 420 },
      { text: "USt-IdNr.: DE 830 917 635", x: 200, y: 470 },
      { text: "Re-Nr.: FA-95120", x: 200, y: 650 },
      { text: "Gesamtbetrag EUR 2.857,19", x: 1400, y: 1150 },
      { text: "Verkäufer", x: 1300, y: 320 },
      { text: "Rumvel Druckerei AG", x: 1300, y: 370 },
      { text: "Hauptstraße 110, 10115 Berlin", x: 1300, y: 420 },
      { text: "USt-IdNr.: DE529791594", x: 1300, y: 470 },
    ];
    const f = extractFields([ocrPage(blocks, 0.6)], "invoice", defaultProject);
    expect(f.customer_name!.value).toBe("Marco Bianchi");
    expect(f.vendor_vat_id!.value).toBe("DE529791594");
  });

  test("two headings side by side: the buyer is the name under its heading, not the seller's heading", () => {
    const f = extractFields([ocrPage(keyValueInvoice("RE-1"), 0)], "invoice", defaultProject);
    expect(f.customer_name!.value).toBe("Marco Rossi");
    expect(f.vendor_name!.value).toBe("Norten Supplies Limited");
  });
});
