/**
 * Till receipts classified as receipts (classify/structure.ts): a short receipt photographed or scanned is as wide
 * as it is long, yet no line of it is long; month-name dates with a time of day; what tills print around the sale.
 * And a page of ordinary width with long lines is no till roll.
 */
import { describe, expect, test } from "bun:test";
import { structureBonus } from "../../../src/core/classify/structure";
import type { Page } from "../../../src/core/model";
import { wordsOfLines } from "../extract/ocr-photo-page";

/** An image page whose lines are `lines`, each 10 px of width per character, 30 px apart. */
function imagePage(lines: string[], dpi: number | null = null): Page {
  const words = wordsOfLines(lines, 40);
  const [w, h] = [600, 80 + lines.length * 30];
  return {
    page_number: 1,
    source_file_index: 0,
    source_filename: "x.jpg",
    source_file_page_number: 1,
    image_transform: {
      rasterized_width: w,
      rasterized_height: h,
      source_width: w,
      source_height: h,
      source_unit: "pixel",
      render_scale: 1,
      effective_dpi: dpi,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
    text_source: "ocr",
    words,
    text: lines.join("\n"),
    ocr_confidence: 0.9,
  };
}

const receiptPoints = (p: Page) =>
  structureBonus([p]).find((b) => b.class_id === "receipt" && b.why.startsWith("till"));

const SHORT_RECEIPT = [
  "GREEN LEAF CONVENIENCE PTY LTD",
  "871 RUE DE LA GARE",
  "TEL 676 997 6445",
  "24 SEP 2025 10:02 #8311",
  "MILK 2% GAL 24.70",
  "DISH SOAP 20.46",
  "4 @ 4.21 16.84",
  "COFFEE GROUND 6.90",
  "AMOUNT DUE 68.90",
  "CASH 70.00",
];

describe("till-receipt traits", () => {
  test("a short receipt read from a photo is narrow (no long line), with a month-name date and time", () => {
    const bonus = receiptPoints(imagePage(SHORT_RECEIPT));
    expect(bonus?.why).toContain("narrow till-roll layout");
    expect(bonus?.why).toContain("time of day with the date");
  });

  test("the merchant's greeting, store number and item count are till vocabulary", () => {
    const lines = ["KINGS DELI", "STORE #8702", "TOTAL 9.90", "CASH 10.00", "ITEMS 3", "THANK YOU FOR SHOPPING"];
    expect(receiptPoints(imagePage(lines))?.why).toContain("till vocabulary");
  });

  test("at a known resolution, ink under 3.6 inches wide is a till roll", () => {
    const lines = SHORT_RECEIPT.slice(0, 6).concat(["CASH 70.00", "CHANGE 1.10"]);
    expect(receiptPoints(imagePage(lines, 200))?.why).toContain("narrow till-roll layout");
    expect(receiptPoints(imagePage(lines, 50))?.why ?? "").not.toContain("narrow till-roll layout");
  });

  test("a page with long lines is not till-roll shaped", () => {
    const invoice = [
      "ACME Consulting GmbH, Hauptstrasse 1, 10115 Berlin, Germany, VAT DE123456789",
      ...SHORT_RECEIPT.slice(1),
      "Payment terms: 14 days net, bank transfer to IBAN DE89 3704 0044 0532 0130 00",
    ];
    expect(receiptPoints(imagePage(invoice))?.why ?? "").not.toContain("narrow till-roll layout");
  });
});

test("a fuel station's card receipt (no cash, no change) is a receipt by the fuel pumped at a price per unit", () => {
  for (const [volume, unit] of [
    ["61.25 GAL @ 1.937 /GAL", "118.64"],
    ["19,05 L @ 1.597 EUR/l", "30,42"],
    ["32.45 L x 1.789", "58.05"],
  ])
    expect(
      receiptPoints(
        imagePage([
          "QUICK STOP FUEL",
          "9478 MARKET ST",
          "PUMP 10 PREMIUM 91",
          `${volume} ${unit}`,
          `MASTERCARD ${unit}`,
        ]),
      )?.why,
    ).toContain("fuel pumped");
  expect(receiptPoints(imagePage(["ACME FUEL SUPPLY", "Diesel delivery 12000 L", "MASTERCARD 30.42"]))).toBeUndefined();
});

test("a French or German till's receipt number ('BON 4761') is till print: with a narrow layout, a receipt", () => {
  const lines = ["SUPERETTE DU PORT", "48 AVENUE JEAN JAURES", "88489 LILLE", "BEURRE DOUX", "POMMES GOLDEN"];
  const more = ["EAU GAZEUSE", "NET A PAYER", "CB", "TVA 20,00%", "36,80", "36,80", "BON 4761", "DE VOTRE VISITE"];
  expect(receiptPoints(imagePage([...lines, ...more]))?.why).toContain("till vocabulary");
  expect(receiptPoints(imagePage([...lines, ...more.slice(0, -2)]))).toBeUndefined();
});

test("a poorly read photo of a receipt: a total with its amount on a till roll is a second trait, on a page no trait", () => {
  // What OCR keeps of a shadowed, faded photo (receipts-hard/photo-real): the shop, garbled items, the total line;
  // the payment lines, the date and the greeting lost.
  const lines = ["MINIMARKET BERKAH", "JL. Mi THAMPIN BO, &6", "BANTATIG 35508", "oy poToL 24,500", "9 60.000"];
  const more = ["26.000", "LNDOMIE GORENG 22.%00", "SUBTOTAL 146.000", "pp 11% 16.060", "TOTAL Rp 162.060", "200.600"];
  expect(receiptPoints(imagePage([...lines, ...more]))?.why).toBe(
    "till-receipt traits: narrow till-roll layout, a total with its amount on a till roll",
  );
  expect(receiptPoints(imagePage([...lines, ...more.filter((l) => !/TOTAL/.test(l))]))).toBeUndefined();
  // The same lines on a page with long lines: no till roll, so the total is no trait of one either.
  const page = [...lines, ...more, "Payment terms: 14 days net, bank transfer to IBAN DE89 3704 0044 0532 0130 00"];
  expect(receiptPoints(imagePage(page))).toBeUndefined();
  // A scan whose ink is wider than a roll, or an A4 page whose lines are mostly short (an invoice read column by
  // column) but with a long one: no total trait.
  expect(receiptPoints(imagePage([...lines, ...more], 200))?.why).toContain("a total with its amount on a till roll");
  expect(receiptPoints(imagePage([...lines, ...more], 50))?.why ?? "").not.toContain("a total with its amount");
  const a4 = [
    ...lines,
    ...more,
    ...lines,
    ...more,
    ...lines,
    ...more,
    "Virement BRED - IBAN : FR76 1010 7002 4500 6170 5231 739",
  ];
  expect(receiptPoints(imagePage(a4))?.why ?? "").not.toContain("a total with its amount");
});

test("an image of unknown resolution: a page whose columns OCR read apart is no till roll, however short its lines", () => {
  // A PNG invoice without DPI (the roles scans): every OCR line short, the seller's block left and the ship-to block
  // right, so the ink spans ~100 characters of its own type where a roll prints 32-48.
  const lines = ["MINIMARKET BERKAH", "JL. Mi THAMPIN BO, &6", "BANTATIG 35508", "oy poToL 24,500", "9 60.000"];
  const more = ["26.000", "LNDOMIE GORENG 22.%00", "SUBTOTAL 146.000", "pp 11% 16.060", "TOTAL Rp 162.060", "200.600"];
  const roll = imagePage([...lines, ...more]);
  expect(receiptPoints(roll)?.why).toContain("a total with its amount on a till roll");
  const page = imagePage([...lines, ...more]);
  page.words = page.words.map((w, i) =>
    i % 2
      ? { ...w, bounding_box: [w.bounding_box[0] + 800, w.bounding_box[1], w.bounding_box[2] + 800, w.bounding_box[3]] }
      : w,
  );
  expect(receiptPoints(page)?.why ?? "").not.toContain("a total with its amount");
});

test("a faint photo whose total and payment words OCR garbled: four priced lines on a till roll are a second trait", () => {
  // What OCR kept of a shadowed, faded German till receipt (receipts-hard/photo-real): the shop and the priced lines,
  // "SUMME", "Bar" and "Rückgeld" misread, so no total, cash or change is found.
  const lines = ["FRISCHMARKT", "RMahnholutry., 2)", "19969 ¥hin", "Use 1dMNy DETR IND90HN", "Roguenbr ot 4,"];
  const priced = ["PorakAae 1,08", "SUMML EUR 5.40", "Mai 10.00", "nickgeld '1.60", "Mwlit A 190 4.8 0.48"];
  const foot = ["11.06,2021 14418 HON S604", "Vislen in tan Einkaur"];
  expect(receiptPoints(imagePage([...lines, ...priced, ...foot]))?.why).toBe(
    "till-receipt traits: narrow till-roll layout, priced lines on a till roll",
  );
  // Three priced lines are an invoice's totals block as much as a till's: no trait.
  expect(receiptPoints(imagePage([...lines, ...priced.slice(0, 3), ...foot]))).toBeUndefined();
  // The same lines on a page with a long line, or in ink wider than a roll at a known resolution: no till roll.
  const long = "Payment terms: 14 days net, bank transfer to IBAN DE89 3704 0044 0532 0130 00";
  expect(receiptPoints(imagePage([...lines, ...priced, ...foot, long]))).toBeUndefined();
  expect(receiptPoints(imagePage([...lines, ...priced, ...foot], 50))).toBeUndefined();
});

test("a text layer's A4 page is no till roll however short its lines; a till slip saved on an A4 page still is", () => {
  // An online shop's invoice as a text PDF: its lines cut at every column (so most are short), a masked card and an
  // order time (weak traits), its text block as slender as a roll's. Ink measured in points: ~6.5 inches wide.
  const lines = [
    "Order confirmation",
    "Invoice 2024-1187",
    "Date 12.03.2024 14:32",
    "Bill to",
    "Jane Miller",
    "12 High Street",
    "Item Qty Price",
    "USB cable 2 9.98",
    "Subtotal 9.98",
    "VAT 20% 2.00",
    "Total 11.98",
    "Paid by VISA **** **** **** 4242",
  ];
  const textLayerPage = (x0: number, columnGap: number): Page => {
    const page = imagePage(lines);
    page.text_source = "text_layer";
    // Pixel space at render scale 2 of an A4 page (595 × 842 pt); every other line's words moved right by the gap.
    page.image_transform = {
      ...page.image_transform,
      rasterized_width: 1190,
      rasterized_height: 1684,
      source_width: 595,
      source_height: 842,
      source_unit: "point",
      render_scale: 2,
    };
    page.words = wordsOfLines(lines, x0, 120).map((w) =>
      w.line! % 2
        ? w
        : {
            ...w,
            bounding_box: [
              w.bounding_box[0] + columnGap,
              w.bounding_box[1],
              w.bounding_box[2] + columnGap,
              w.bounding_box[3],
            ],
          },
    );
    return page;
  };
  expect(receiptPoints(textLayerPage(100, 600))).toBeUndefined();
  // The same slip printed 3 inches wide in the middle of an A4 page keeps its till-roll shape.
  expect(receiptPoints(textLayerPage(400, 0))?.why).toContain("narrow till-roll layout");
});
