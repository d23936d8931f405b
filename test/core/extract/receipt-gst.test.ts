/**
 * Failure classes of real Malaysian GST till receipts read by OCR (measured on a local development set of public
 * receipt transcriptions, never committed), each on generated receipts through the extract stage: the merchant past
 * a reference mark above it, an address line or a registration number never the merchant, a legal form printed on
 * the line below the name, a customer company below the title; the total past a net total, a subtotal, the tax's
 * own total and the GST summary's total row (with the label and its amount read as separate OCR lines, as on a till
 * roll); the date past a promotion's dates and a reference number read as a date.
 */
import { describe, expect, test } from "bun:test";
import { Rng } from "../../../fixtures/varied/generator/random";
import type { Page, Word } from "../../../src/core/model";
import { photoPage } from "./ocr-photo-page";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";

/**
 * An OCR page: each row is a text at the left and, optionally, an amount at the right edge that OCR read as a line
 * of its own (its own line number), as tesseract reads a till roll's label and amount far apart.
 */
function ocrPage(rows: Array<string | [string, string]>): Page {
  const words: Word[] = [];
  let y = 40;
  let line = 0;
  const put = (text: string, x0: number, right: boolean) => {
    line++;
    const width = 10 * text.length;
    let x = right ? 660 - width : x0;
    for (const t of text.split(" ")) {
      words.push({ text: t, bounding_box: [x, y, x + 10 * t.length, y + 20], confidence: 0.9, line });
      x += 10 * (t.length + 1);
    }
  };
  for (const row of rows) {
    const [left, right] = typeof row === "string" ? [row, undefined] : row;
    if (left) put(left, 30, false);
    if (right) put(right, 0, true);
    y += 32;
  }
  return photoPage(words, rows.map((r) => (typeof r === "string" ? r : r.join(" "))).join("\n"), y + 40);
}

const read = (rows: Array<string | [string, string]>) => {
  const f = extractFields([ocrPage(rows)], "receipt", defaultProject);
  return { vendor: f.vendor_name?.value, total: f.total_amount?.value, date: f.invoice_date?.value };
};
const money = (cents: number) => (cents / 100).toFixed(2);
const CASES = 8;
const NAMES = ["KEDAI RUNCIT SRI MAJU", "SYARIKAT PERNIAGAAN TAN", "RESTORAN SELERA KITA", "ANEKA HARDWARE TRADING"];
const FORMS = ["SDN BHD", "SDN. BHD.", "ENTERPRISE", "TRADING"];

/** A generated Malaysian till receipt: head, items, sums as the till prints them (see `sums`). */
function receipt(r: Rng, head: string[], sums: (net: number, gst: number) => Array<string | [string, string]>) {
  const items = Array.from({ length: r.int(1, 3) }, () => r.int(150, 9000));
  const gross = items.reduce((a, b) => a + b, 0);
  const gst = Math.round(gross - gross / 1.06);
  const rows: Array<string | [string, string]> = [
    ...head,
    "SIMPLIFIED TAX INVOICE",
    `Doc No. : CS${r.digits(8)}`,
    `Date: ${String(r.int(1, 28)).padStart(2, "0")}/0${r.int(1, 9)}/2018`,
    ...items.flatMap((c, i) => [[`${r.int(1000, 9999)} 1 ${money(c)}`, money(c)] as [string, string], `ITEM ${i + 1}`]),
    ...sums(gross - gst, gst),
    "GOODS SOLD ARE NOT RETURNABLE, THANK YOU.",
  ];
  return { rows, gross };
}

const address = (r: Rng) => [
  `NO.${r.int(1, 90)}, JALAN ${r.pick(["MAWAR", "PERMAS", "BESAR"])} ${r.int(1, 12)}/${r.int(1, 9)},`,
  `TAMAN ${r.pick(["SRI GOMBAK", "DESA", "MELATI"])},`,
  `${r.int(40, 81)}${r.digits(3)} ${r.pick(["KUALA LUMPUR", "JOHOR BAHRU", "SHAH ALAM"])}.`,
];

describe("GST till receipts read by OCR: the merchant", () => {
  test("a reference mark or the date above or under the name, an address or a registration number: the name", () => {
    const r = new Rng(11);
    for (let i = 0; i < CASES; i++) {
      const name = `${r.pick(NAMES)} ${r.pick(["SDN BHD", "ENTERPRISE"])}`;
      const mark = r.pick([`A0${r.digits(4)}`, `3180${r.digits(4)}`, ""]);
      const reg = r.pick([
        `(${r.letters(2).toUpperCase()}0${r.digits(6)}-${r.letters(1).toUpperCase()})`,
        `(CO NO. SA0${r.digits(6)}-K)`,
      ]);
      const head = [mark, name, r.chance(0.5) ? `0${r.int(1, 9)} Mar 2018 18:${r.int(10, 59)}` : reg, ...address(r)];
      const { rows } = receipt(r, head.filter(Boolean), (net, gst) => [["Total :", money(net + gst)]]);
      expect(read(rows).vendor).toBe(name);
    }
  });

  test("the name's legal form printed on the line below is part of it; a customer company below the title is not", () => {
    const r = new Rng(12);
    for (let i = 0; i < CASES; i++) {
      const name = r.pick(NAMES);
      const form = r.pick(["SDN BHD", "SDN. BHD."]);
      const customer = `${r.pick(["MEGAH", "CAHAYA", "BINTANG"])} ENGINEERING (M) SDN BHD`;
      const head = [name, form, `BR No.: (${r.digits(6)}-${r.letters(1).toUpperCase()})`, ...address(r)];
      const { rows } = receipt(r, head, (net, gst) => [["Total :", money(net + gst)]]);
      if (i % 2) rows.splice(rows.indexOf("SIMPLIFIED TAX INVOICE") + 1, 0, customer);
      expect(read(rows).vendor).toBe(`${name} ${form}`);
    }
  });
});

describe("GST till receipts read by OCR: OCR's confusions in the name", () => {
  test('"!" read for I after a capital, the legal form read "SON BHD", "S0N BHD", "SDN 8HD", "SDN BHO"', () => {
    const r = new Rng(16);
    for (let i = 0; i < CASES; i++) {
      const base = r.pick(["ALI MAJU TRADING", "RESTORAN NASI KANDAR ALI", "BINTANG IKHLAS HARDWARE"]);
      const misread = base.replace(/(?<=[A-Z])I/, "!");
      const form = r.pick(["SON BHD", "S0N BHD", "SDN 8HD", "SDN BHO"]);
      const head = [`${misread} ${form} (${r.digits(6)}-${r.letters(1).toUpperCase()})`, ...address(r)];
      const { rows } = receipt(r, head, (net, gst) => [["Total :", money(net + gst)]]);
      expect(read(rows).vendor).toBe(`${base} SDN BHD`);
    }
  });
});

describe("GST till receipts read by OCR: the total", () => {
  const head = (r: Rng) => [`${r.pick(NAMES)} ${r.pick(FORMS)}`, ...address(r), `GST ID : ${r.digits(12)}`];

  test("a net total, the tax's own total or the GST summary's total row read as the total: the total incl. GST", () => {
    const r = new Rng(13);
    for (let i = 0; i < CASES; i++) {
      const { rows, gross } = receipt(r, head(r), (net, gst) => [
        [r.pick(["Total Sales (Excluding GST) :", "SUB-TOTAL (EX) :", "Total Excluded Tax :"]), money(net)],
        ["Total GST :", money(gst)],
        r.pick([
          ["Total Sales (Inclusive of GST) :", money(net + gst)],
          ["TOTAL :", money(net + gst)],
        ]) as [string, string],
        ["CASH :", money(net + gst)],
        ["Change :", "0.00"],
        "GST SUMMARY",
        "Tax Code % Amt (RM) Tax (RM)",
        [`SR 6 ${money(net)}`, money(gst)],
        [`Total : ${money(net)}`, money(gst)],
      ]);
      expect(read(rows).total).toBe(gross / 100);
    }
  });

  test("the grand total taken over a net total is checked as any total: its currency sign read as a digit", () => {
    const r = new Rng(17);
    for (let i = 0; i < CASES; i++) {
      const { rows, gross } = receipt(r, head(r), (net, gst) => [
        ["TOTAL EXCL. GST", money(net)],
        ["TOTAL GST", money(gst)],
        ["TOTAL (INCL GST)", `${r.pick(["8", "5", "9"])}${money(net + gst)}`],
        `CASH ${money(net + gst + 5000)}`,
        "CHANGE 50.00",
        "GST SUMMARY",
        `TOTAL : ${money(net)} ${money(gst)}`,
      ]);
      expect(read(rows).total).toBe(gross / 100);
    }
  });

  test("a total printed inclusive of the tax ('Total RM inc.GST', 'Inclusive of GST', 'INCLUDES 6% GST') is no tax", () => {
    const r = new Rng(18);
    const labels = [
      "Total RM inc.GST:",
      "Total Inc. GST",
      "Total (Inclusive of GST):",
      "Total RM Incl. of GST",
      "TOTAL INCLUDES 6% GST",
      "Total Sales (Inclusive of GST) :",
    ];
    for (const label of labels) {
      let tax = 0;
      const { rows, gross } = receipt(
        r,
        [`KM ${r.int(100, 900)}.${r.int(1, 9)} ${r.pick(NAMES)}`, ...head(r)],
        (net, gst) => {
          tax = gst;
          return [["GST RM:", money(gst)], [label, money(net + gst)], "Thank you, please come again"];
        },
      );
      const f = extractFields([ocrPage(rows)], "receipt", defaultProject);
      expect([label, f.total_amount?.value, f.tax_amount?.value]).toEqual([label, gross / 100, tax / 100]);
    }
  });

  test("the total line's amount lost: cash tendered − change read on the rows below their labels", () => {
    const r = new Rng(14);
    for (let i = 0; i < CASES; i++) {
      const { rows, gross } = receipt(r, head(r), (net, gst) => [
        ["TOTAL TAX :", money(gst)],
        "TOTAL",
        "CASH",
        `: ${money(net + gst + 1000)}`,
        "CHANGE",
        ": 10.00",
        "GST SUMMARY",
        `TOTAL : ${money(net)} ${money(gst)}`,
      ]);
      expect(read(rows).total).toBe(gross / 100);
    }
  });
});

describe("GST till receipts read by OCR: the date", () => {
  test("a promotion's dates or a number read as a date give way to the till's timestamp or a glued Date label", () => {
    const r = new Rng(15);
    for (let i = 0; i < CASES; i++) {
      const [d, m] = [r.int(10, 28), r.int(1, 9)];
      const iso = `2018-0${m}-${d}`;
      const stamp = r.chance(0.5);
      const rows: Array<string | [string, string]> = [
        stamp ? `${r.int(1, 9)} ${r.pick(["OCT", "NOV"])} - ${r.int(10, 20)} ${r.pick(["OCT", "NOV"])} 2017` : "01011",
        `${r.pick(NAMES)} SDN BHD`,
        ...address(r),
        "TAX INVOICE",
        stamp ? `${d}/0${m}/18 12:${r.int(10, 59)} Slip No. : ${r.digits(10)}` : `ITEM ${r.digits(4)}`,
        ["TOTAL", money(r.int(100, 9000))],
        stamp ? "THANK YOU" : `INV NO: CS-${r.digits(4)}-${r.digits(5)}Date: ${d}/0${m}/2018`,
      ];
      expect(read(rows).date).toBe(iso);
    }
  });
});
