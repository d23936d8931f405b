/**
 * The failure classes the receipts-hard corpus showed (fixtures/varied/generator/hard-receipts.ts), each on
 * generated receipts through the extract stage on OCR pages: a company name ends at its legal form (the
 * registration number in brackets after it is no part of it), an address line with a postcode is no merchant, a
 * merchant named only in the footer or by its web address, a total before rounding gives way to the rounded total
 * printed below it, and the amount paid, printed as a total, beats a total that a tax summary's net amount
 * satisfied.
 */
import { describe, expect, test } from "bun:test";
import { Rng } from "../../../fixtures/varied/generator/random";
import type { Page, Word } from "../../../src/core/model";
import { photoPage } from "./ocr-photo-page";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { endAtLegalForm, isPostcodeLine } from "../../../src/core/extract/receipt-merchant";

/** An OCR page of `lines`; a line given as [text, height] is set in type that tall (default 20 px). */
function ocrPage(lines: Array<string | [string, number]>): Page {
  const words: Word[] = [];
  let y = 40;
  lines.forEach((entry, i) => {
    const [text, h] = typeof entry === "string" ? [entry, 20] : entry;
    let x = 30;
    for (const t of text.split(" ")) {
      words.push({ text: t, bounding_box: [x, y, x + (h / 2) * t.length, y + h], confidence: 0.9, line: i + 1 });
      x += (h / 2) * (t.length + 1);
    }
    y += h + 12;
  });
  return photoPage(words, lines.map((l) => (typeof l === "string" ? l : l[0])).join("\n"), y + 40);
}

const read = (lines: Array<string | [string, number]>) => {
  const f = extractFields([ocrPage(lines)], "receipt", defaultProject);
  return { vendor: f.vendor_name?.value, total: f.total_amount?.value, date: f.invoice_date?.value };
};
const money = (cents: number) => (cents / 100).toFixed(2);
const CASES = 8;

describe("receipts-hard failure classes: the merchant", () => {
  const names = ["KEDAI RUNCIT MAJU", "GARDEN FRESH MART", "SYARIKAT PERNIAGAAN LEE", "UNIHAKKA INTERNATIONAL"];
  const forms = ["SDN BHD", "PTE LTD", "BHD", "LTD", "GMBH"];
  test("a company name ends at its legal form: its registration number (or OCR's junk) after it is dropped", () => {
    const r = new Rng(7);
    for (let i = 0; i < CASES; i++) {
      const name = `${r.pick(names)} ${r.pick(forms)}`;
      const tail = r.pick([
        `(${r.digits(6)}-${r.letters(1)})`,
        `(${r.digits(7)}-${r.letters(1).toLowerCase()})`,
        "ERIE",
      ]);
      const got = read([`${name} ${tail}`, "NO 12, JALAN PUDU", "GST ID : 000123456789", "TOTAL 12.50"]).vendor;
      expect(got).toBe(name);
    }
    expect(endAtLegalForm("PT SUMBER ALFARIA TRIJAYA TBK")).toBe("PT SUMBER ALFARIA TRIJAYA TBK");
    expect(endAtLegalForm("ACME GMBH & CO KG (HRB 1234)")).toBe("ACME GMBH & CO KG");
    expect(endAtLegalForm("99 SPEED MART S/B (519537-X)")).toBe("99 SPEED MART S/B");
    expect(endAtLegalForm("KEDAI PAPAN YEW CHUAN (0005583085-K)")).toBe("KEDAI PAPAN YEW CHUAN");
    expect(endAtLegalForm("BOOK TA .K (TAMAN DAYA) SDN BHD")).toBe("BOOK TA .K (TAMAN DAYA) SDN BHD");
    expect(endAtLegalForm("STORE 12345")).toBe("STORE 12345");
  });

  test("a logo's brand over the registered company's name: the registered name (less its number)", () => {
    const r = new Rng(13);
    for (let i = 0; i < CASES; i++) {
      const brand = r.pick(names);
      const name = `${brand} ${r.pick(forms)}`;
      const reg = `(${r.digits(7)}-${r.letters(1)})`;
      const head: Array<string | [string, number]> = r.chance(0.5)
        ? [[brand, 34], `${name} ${reg}`]
        : [[brand, 34], name, reg];
      const got = read([...head, "NO 12, JALAN PUDU", "GST ID : 000123456789", "06/03/2018 13:45", "TOTAL 12.50"]);
      expect(got.vendor).toBe(name);
    }
  });

  test("postcode-and-city lines are addresses, amounts and dates are not", () => {
    for (const a of ["DENVER, CO 54545", "39969 Köln", "LEEDS LS1 4SW", "SINGAPORE 625285", "9585 PN Utrecht"])
      expect(isPostcodeLine(a)).toBe(true);
    for (const n of ["GARDEN FRESH MART", "TOTAL 1234.50", "05/06/2025 12:55", "MILO 1KG"])
      expect(isPostcodeLine(n)).toBe(false);
  });

  test("a German or Dutch compound street before its house number is an address, never the merchant", () => {
    const streets = ["Hauptstraße 27", "Bahnhofstr. 4a", "Lindenweg 112", "Kalverstraat 12", "Marktplatz 3"];
    for (const street of streets) {
      // The street line set larger than the name (as when the name's word was read with a speck and low confidence).
      const got = read([
        ".FRISCHMARKT",
        [street, 26],
        "10115 Berlin",
        "12.03.2024 14:22",
        "BROT 2,49",
        "SUMME EUR 2,49",
      ]);
      expect(got.vendor).toBe("FRISCHMARKT");
    }
  });

  test("a receipt headed only RECEIPT: the merchant from the footer's thanks or its web address, not the address", () => {
    const r = new Rng(11);
    const stores = ["VALLEY FOODS", "PINE CREEK MARKET", "HOMETOWN GROCERS", "SUNNY SIDE GROCERY"];
    for (let i = 0; i < CASES; i++) {
      const store = r.pick(stores);
      const domain = `www.${store.toLowerCase().replace(/ /g, "")}.com`;
      const thanks = r.chance(0.5);
      const got = read([
        ["RECEIPT", 28],
        `${r.int(100, 9999)} MAIN ST`,
        `${r.pick(["DENVER, CO", "AUSTIN, TX", "SALEM, OR"])} ${r.digits(5)}`,
        `${r.int(1, 12)}/${r.int(10, 28)}/23 7:58 AM`,
        "MILK 3.49",
        "BREAD 2.99",
        "TOTAL 6.48",
        "YOU SAVED $1.50 TODAY!",
        thanks
          ? `THANK YOU FOR SHOPPING AT ${store}${r.pick(["", "!", ". SEE YOU SOON"])}`
          : "THANK YOU FOR SHOPPING WITH US",
        domain,
      ]).vendor;
      expect(String(got).replace(/\s/g, "")).toBe(store.replace(/\s/g, ""));
    }
  });

  test("as a faint photo reads it: the thanks without its 'for', the ZIP code's last digit a letter", () => {
    const r = new Rng(13);
    const stores = ["VALLEY FOODS", "PINE CREEK MARKET", "HOMETOWN GROCERS", "SUNNY SIDE GROCERY"];
    for (let i = 0; i < CASES; i++) {
      const store = r.pick(stores);
      const got = read([
        ["RECEIPT", 28],
        `${r.int(100, 9999)} MAIN ST`,
        `${r.pick(["DENVER, CO", "AUSTIN, TX", "SALEM, OR"])} ${r.digits(4)}${r.pick(["s", "S", "l", "O"])}`,
        `(${r.digits(3)}) ${r.digits(3)}-${r.digits(4)}`,
        `THU ${r.int(1, 12)}/${r.int(10, 28)}/23 7:58 AM`,
        "MILK 3.49",
        "BREAD 2.99",
        "TOTAL 6.48",
        `THANK YOU ${r.pick(["SHOPPING", "shopping"])} AT ${store}`,
      ]).vendor;
      expect(got).toBe(store);
    }
    // A merchant's own line with a comma is no city line: it needs the state's capitals and a ZIP code after them.
    expect(isPostcodeLine("SMITH, JONES & CO")).toBe(false);
    expect(isPostcodeLine("DENVER, CO 5454s")).toBe(true);
  });
});

describe("receipts-hard failure classes: the total", () => {
  test("the total before rounding gives way to the rounded total printed below it (rounding line read or not)", () => {
    const r = new Rng(5);
    for (let i = 0; i < 2 * CASES; i++) {
      const items = [r.int(150, 9000), r.int(150, 9000), r.int(150, 9000)];
      const gross = items.reduce((a, b) => a + b, 0);
      const total = Math.round(gross / 5) * 5;
      if (total === gross) continue;
      const cash = Math.ceil(total / 5000) * 5000;
      const got = read([
        ["KEDAI MAJU SDN BHD", 28],
        "GST ID : 000123456789",
        "06/03/2018 13:45",
        ...items.map((c, k) => `ITEM ${k + 1} ${money(c)}`),
        `TOTAL INCL. GST ${money(gross)}`,
        // As printed, with its minus sign read as "=", or not read at all.
        ...r.pick([[`ROUNDING ${money(total - gross)}`], [`RND ADJ =${money(Math.abs(total - gross))}`], []]),
        `${r.pick(["TOTAL ROUNDED", "NETT TOTAL", "TOTAL", "—FOTAL-ROUNDED eo"])} RM${money(total)}`,
        ...(r.chance(0.5) ? [`CASH ${money(cash)}`, `CHANGE DUE ${money(cash - total)}`] : ["CASH", "CHANGE DUE"]),
      ]);
      expect(got.total).toBe(total / 100);
    }
  });

  test("the rounded total wins when OCR read the labels and the amounts as blocks of their own (GST summary below)", () => {
    const r = new Rng(11);
    for (let i = 0; i < CASES; i++) {
      const net = r.int(5000, 40000);
      const tax = Math.round(net * 0.06);
      const gross = net + tax;
      const total = Math.round(gross / 5) * 5;
      if (total === gross) continue;
      const rows: Array<[string, string]> = [
        [`TOTAL INCL. GST`, money(gross)],
        [`GST @6%`, money(tax)],
        [`RND ADJ`, money(Math.abs(total - gross))],
        [`TOTAL ROUNDED`, `RM${money(total)}`],
        ["CASH", ""],
        ["CHANGE DUE", ""],
        ["GST SUMMARY AMOUNT", "TAX"],
        ["SR @ 6%", `${money(net)} ${money(tax)}`],
        ["TOTAL :", `${money(net)} ${money(tax)}`],
      ];
      const head = [
        "SYARIKAT PERNIAGAAN LEE SDN BHD",
        "GST ID : 000123456789",
        "DATE: 08-04-20",
        `ITEM A ${money(gross)}`,
      ];
      const page = ocrPage([...head, ...rows.map(([label]) => label)]);
      // The amounts as tesseract gives them for a till: a block of their own at the right, one line each.
      rows.forEach(([, amount], k) => {
        const y = 40 + (head.length + k) * 32;
        let x = 420;
        for (const t of amount.split(" ").filter(Boolean)) {
          page.words.push({ text: t, bounding_box: [x, y, x + 10 * t.length, y + 20], confidence: 0.9, line: 100 + k });
          x += 10 * (t.length + 1);
        }
      });
      page.text = [...head, ...rows.map(([label]) => label), ...rows.map(([, amount]) => amount)].join("\n");
      const got = extractFields([page], "receipt", defaultProject).total_amount?.value;
      expect(got).toBe(total / 100);
    }
  });

  test("the amount paid, printed as a total, beats a total that the GST summary's net and a misread tax add up to", () => {
    const r = new Rng(9);
    for (let i = 0; i < CASES; i++) {
      const gross = r.int(2000, 90000) * 5;
      const gst = Math.round(gross - gross / 1.06);
      const cash = Math.ceil(gross / 5000) * 5000 + 5000;
      const got = read([
        ["GARDEN FRESH MART PTE LTD", 28],
        "GST REG NO: M9-3480678-3",
        "05/06/2025 12:55:22",
        `ITEM A ${money(gross)}`,
        `TOTAL (INCL GST) ${money(gross)}`,
        // A dash OCR read before the tax (a rule's end): the tax reads as negative, the net as a total.
        `GST @6% - ${money(gst)}`,
        "ROUNDING ADJ 0.00",
        `NETT TOTAL S$${money(gross)}`,
        `CASH ${money(cash)}`,
        `CHANGE ${money(cash - gross)}`,
        "GST SUMMARY AMOUNT TAX",
        `SR @ 6% ${money(gross - gst)} ${money(gst)}`,
      ]);
      expect(got.total).toBe(gross / 100);
    }
  });
});

test("a restaurant bill's total read without its cents is the subtotal and the charges below it added up", () => {
  const r = new Rng(19);
  for (let i = 0; i < CASES; i++) {
    const dishes = [r.int(350, 3200), r.int(350, 3200), r.int(350, 3200)];
    const sub = dishes.reduce((a, b) => a + b, 0);
    const service = Math.round(sub * 0.1);
    const sst = Math.round((sub + service) * 0.06);
    const exact = sub + service + sst;
    const total = Math.round(exact / 5) * 5;
    const roundingRead = r.chance(0.5);
    const got = read([
      ["RESTORAN SRI MELAKA", 30],
      "NO 71, JALAN BUNUS",
      "12-10-21 9:20 AM",
      ...dishes.map((c, k) => `1 DISH ${k + 1} ${money(c)}`),
      `SUBTOTAL ${money(sub)}`,
      `SERVICE CHARGE 10% ${money(service)}`,
      `SST 6% ${money(sst)}`,
      roundingRead ? `ROUNDING ${money(total - exact)}` : "ROUNDING Eee)",
      `GRAND TOTAL re RM${Math.trunc(total / 100)} 8g`,
    ]);
    expect(got.total).toBe(total / 100);
  }
});

test("a points or savings line's amount is never the total: what was paid is (the total's own amount lost)", () => {
  const r = new Rng(31);
  for (let i = 0; i < CASES; i++) {
    const items = [r.int(99, 1299), r.int(99, 1299), r.int(99, 1299)];
    const saved = r.int(50, 400);
    const sub = items.reduce((a, b) => a + b, 0) - saved;
    const tax = Math.round(sub * 0.0825);
    const total = sub + tax;
    const cash = Math.ceil(total / 2000) * 2000;
    const got = read([
      ["HOMETOWN GROCERS", 30],
      "DAYTON, OH 95441",
      "01/26/16 7:38 AM",
      ...items.map((c, k) => `ITEM ${k + 1} ${money(c)}`),
      `MEMBER SAVINGS -${money(saved)}`,
      `SUBTOTAL ${money(sub)}`,
      `TAX ${money(tax)}`,
      "BALANCE DUE",
      ...(r.chance(0.5) ? [`CASH ${money(cash)}`, `CHANGE DUE ${money(cash - total)}`] : [`VISA ${money(total)}`]),
      `YOU SAVED $${money(saved)}`,
      `POINTS BALANCE ${money(r.int(5000, 90000))}`,
    ]);
    expect(got.total).toBe(total / 100);
  }
});

describe("receipts-hard failure classes: the date OCR misread", () => {
  test("a date at the foot with a dot read as a comma, or with its slashes read as 7 or 1 beside its time", () => {
    const r = new Rng(17);
    for (let i = 0; i < CASES; i++) {
      const [y, m, d] = [r.int(2016, 2025), r.int(1, 12), r.int(1, 28)];
      const p2 = (n: number) => String(n).padStart(2, "0");
      const us = r.chance(0.5);
      const slash = r.pick(["7", "1"]);
      const printed = us
        ? `${p2(m)}${slash}${p2(d)}${slash}${p2(y % 100)} 7:38:24 AM`
        : r.chance(0.5)
          ? `${p2(d)}.${p2(m)},${y} 14:18 BON 6694`
          : `${p2(d)}${slash}${p2(m)}${slash}${p2(y % 100)} 10:55`;
      const got = read([
        [us ? "HOMETOWN GROCERS" : "FRISCHMARKT", 30],
        us ? "DAYTON, OH 95441" : "39969 Köln",
        us ? "(473) 970-3601" : "USt-IdNr. DE762189998",
        us ? "MILK 3.49" : "Roggenbrot 4,35",
        us ? "TOTAL $3.49" : "SUMME EUR 4,35",
        printed,
      ]);
      expect(got.date).toBe(`${y}-${p2(m)}-${p2(d)}`);
    }
  });
});

test("a total read without its decimal point, on a receipt that prints cents, is its digits with the point put back", () => {
  // What a faint photo of a restaurant bill leaves (receipts-hard/photo-real): the subtotal's amount lost, the
  // service charge misread, so no sum confirms the total; "£135.30" read "£13530".
  const r = new Rng(23);
  for (let i = 0; i < CASES; i++) {
    const dishes = [r.int(350, 3200), r.int(350, 3200), r.int(350, 3200)];
    const total = dishes.reduce((a, b) => a + b, 0) + r.int(100, 900);
    const got = read([
      ["HARBOUR FISH BAR", 30],
      "14 CHURCH LANE",
      "LEEDS LS1 4SW",
      "06/12/20 12:41:48",
      ...dishes.map((c, k) => `1 DISH ${k + 1} ${money(c)}`),
      "SUSTOTAL",
      "SERVICR CHARGE 12.5% 1S. 23",
      `GRAND TOT/ AL £${total}`,
    ]);
    expect(got.total).toBe(total / 100);
  }
  // Rupiah prints whole amounts: a whole total there is the total as read.
  const rp = read([
    ["TOKO SINAR JAYA", 30],
    "SURABAYA 60111",
    "16-05-18 10:12",
    "ROTI TAWAR 16.000",
    "NASI GORENG 2 x 14.000 28.000",
    "SUBTOTAL 44.000",
    "PPN 11% 4.840",
    "TOTAL Rp 48840",
  ]);
  expect(rp.total).toBe(48840);
});
