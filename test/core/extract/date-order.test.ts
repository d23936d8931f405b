/**
 * The numeric date order is inferred from the document before any default: generated receipts and invoices from
 * day-first countries (Malaysia, Singapore, Australia, India, the UK, Germany, France, the Netherlands) and from the
 * US, each printing only ambiguous dates ("06/03/2018"), read through the real extraction. Singapore and Australia
 * print "$" with English words, which alone reads as American: their country cues must outweigh it.
 */
import { describe, expect, test } from "bun:test";
import { convertText } from "../../../src/core/convert/supplied";
import { countryEvidence } from "../../../src/core/extract/date-order";
import { inferDateOrder } from "../../../src/core/extract/normalize";
import { defaultProject } from "../../../src/core/project";
import { classifyDocument } from "../../../src/core/stages/classify";
import { extractFields } from "../../../src/core/stages/extract";

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}
const pick = <T>(r: () => number, xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
const pad = (n: number) => String(n).padStart(2, "0");

interface Country {
  id: string;
  order: "dmy" | "mdy";
  sep: string;
  lines: (r: () => number) => string[];
  total: (amount: string) => string;
  dateLabel: string;
}

const COUNTRIES: Country[] = [
  {
    id: "MY",
    order: "dmy",
    sep: "/",
    dateLabel: "DATE",
    total: (a) => `TOTAL (RM) ${a}`,
    lines: (r) => [
      pick(r, ["KEDAI RUNCIT ABC SDN BHD", "SYARIKAT MAJU ENTERPRISE", "99 SPEEDMART SDN. BHD."]),
      "NO 12, JALAN MAJU, 47500 SUBANG JAYA, SELANGOR",
      pick(r, ["TEL: 03-5631 2345", "TEL: +60 3-5631 2345"]),
      pick(r, ["GST ID: 001234567890", "SST NO: B16-1808-31000123"]),
      "TAX INVOICE",
      pick(r, ["CASHIER: AMY", "TERIMA KASIH"]),
    ],
  },
  {
    id: "SG",
    order: "dmy",
    sep: "/",
    dateLabel: "Date",
    total: (a) => `TOTAL $${a}`,
    lines: (r) => [
      pick(r, ["FAIRPRICE FINEST PTE LTD", "KOPI HOUSE PTE. LTD."]),
      "1 Orchard Road, Singapore 238801",
      "Tel: +65 6123 4567",
      "GST Reg No: 201234567K",
      "Thank you for your purchase, please come again",
      "Cashier: 02",
    ],
  },
  {
    id: "AU",
    order: "dmy",
    sep: "/",
    dateLabel: "Date",
    total: (a) => `Total incl. GST $${a}`,
    lines: (r) => [
      pick(r, ["Harbour Cafe Pty Ltd", "Bondi Hardware Pty. Ltd."]),
      "ABN 51 824 753 556",
      "12 George St, Sydney NSW 2000",
      "Ph: +61 2 9123 4567",
      "Tax Invoice",
      "Thank you for your business",
    ],
  },
  {
    id: "IN",
    order: "dmy",
    sep: "-",
    dateLabel: "Invoice Date",
    total: (a) => `Grand Total Rs. ${a}`,
    lines: (r) => [
      pick(r, ["Sharma Traders Pvt Ltd", "Mumbai Electronics Pvt. Ltd."]),
      "GSTIN: 27AAPFU0939F1ZV",
      "Andheri East, Mumbai, Maharashtra 400069, India",
      "Phone: +91 22 1234 5678",
      "Tax Invoice",
    ],
  },
  {
    id: "UK",
    order: "dmy",
    sep: "/",
    dateLabel: "Invoice date",
    total: (a) => `Total £${a}`,
    lines: (r) => [
      pick(r, ["Brighton Supplies Ltd", "Camden Print Limited"]),
      "14 High Street, London NW1 8AB, United Kingdom",
      "VAT Reg No: GB123456789",
      "Invoice",
      "Tel: +44 20 7946 0000",
    ],
  },
  {
    id: "DE",
    order: "dmy",
    sep: ".",
    dateLabel: "Rechnungsdatum",
    total: (a) => `Gesamtbetrag ${a} EUR`,
    lines: (r) => [
      pick(r, ["Muster GmbH", "Beispiel AG"]),
      "Hauptstraße 1, 10115 Berlin",
      "Rechnung",
      "USt-IdNr.: DE123456789",
      "Vielen Dank für die Bestellung und die Zusammenarbeit",
    ],
  },
  {
    id: "FR",
    order: "dmy",
    sep: "/",
    dateLabel: "Date de facture",
    total: (a) => `Total TTC ${a} €`,
    lines: (r) => [
      pick(r, ["Dupont SARL", "Martin SAS"]),
      "12 rue de la Paix, 75002 Paris, France",
      "Facture",
      "N° TVA : FR12345678901",
      "Merci pour votre confiance et le paiement des factures",
    ],
  },
  {
    id: "NL",
    order: "dmy",
    sep: "-",
    dateLabel: "Factuurdatum",
    total: (a) => `Totaal € ${a}`,
    lines: (r) => [
      pick(r, ["Jansen B.V.", "De Vries Handel B.V."]),
      "Damrak 1, 1012 LG Amsterdam",
      "Factuur",
      "BTW-nummer: NL123456789B01",
      "Het bedrag van de factuur graag binnen 14 dagen",
    ],
  },
  {
    id: "US",
    order: "mdy",
    sep: "/",
    dateLabel: "Invoice Date",
    total: (a) => `Total $${a}`,
    lines: (r) => [
      pick(r, ["Acme Supply Inc.", "Lone Star Tools LLC"]),
      pick(r, ["500 Congress Ave, Austin, TX 78701", "Phone: (512) 555-0100"]),
      "Invoice",
      "Thank you for your business. Please pay the amount due by the due date.",
      "Sales tax 8.25%",
    ],
  },
];

function document(c: Country, seed: number): { text: string; day: number; month: number; year: number } {
  const r = rng(seed * 31 + c.id.charCodeAt(0));
  const day = 1 + Math.floor(r() * 12);
  let month = 1 + Math.floor(r() * 12);
  if (month === day) month = (month % 12) + 1;
  const year = 2016 + Math.floor(r() * 8);
  const [a, b] = c.order === "dmy" ? [day, month] : [month, day];
  const amount = (5 + r() * 200).toFixed(2);
  const printed = c.id === "DE" || c.id === "NL" || c.id === "FR" ? amount.replace(".", ",") : amount;
  const lines = c.lines(r);
  const at = 2 + Math.floor(r() * (lines.length - 2));
  lines.splice(at, 0, `${c.dateLabel}: ${pad(a)}${c.sep}${pad(b)}${c.sep}${year}${r() < 0.5 ? " 14:22" : ""}`);
  return { text: [...lines, "Item 1 x " + printed, c.total(printed)].join("\n"), day, month, year };
}

describe("date order from the document", () => {
  for (const c of COUNTRIES) {
    test(`${c.id}: 12 generated documents with only ambiguous dates read ${c.order === "dmy" ? "day" : "month"} first`, () => {
      const wrong: string[] = [];
      for (let seed = 1; seed <= 12; seed++) {
        const doc = document(c, seed);
        const pages = convertText(doc.text, 1, { filename: `${c.id}-${seed}.txt` }).pages;
        const cls = classifyDocument(pages, defaultProject);
        const got = extractFields(pages, cls.class_id, defaultProject).invoice_date?.value;
        const want = `${doc.year}-${pad(doc.month)}-${pad(doc.day)}`;
        if (got !== want) wrong.push(`${want} read ${got} from:\n${doc.text}`);
      }
      expect(wrong).toEqual([]);
    });
  }

  test("dates printed unambiguously still decide: a month-first date outweighs a day-first country, and the reverse", () => {
    const text =
      "Harbour Cafe Pty Ltd\nABN 51 824 753 556\nSydney, Australia\nOrder 03/15/2018\nInvoice date 06/03/2018";
    expect(inferDateOrder([text], "auto", false)).toBe("mdy");
    // …and one day-first date on a US invoice wins over its dollars.
    expect(
      inferDateOrder(["Acme Inc.\nAustin, TX 78701\nTotal $10.00\nDate 25/03/2018 and 06/03/2018"], "auto", true),
    ).toBe("dmy");
  });

  test("a project locale replaces the country evidence, not the printed dates", () => {
    const my = "KEDAI ABC SDN BHD\nTEL: +60 3-5631 2345\nDate 06/03/2018\nTOTAL RM 5.00";
    expect(inferDateOrder([my], "en-US", false)).toBe("mdy");
    expect(inferDateOrder([my + "\nPrinted 25/03/2018"], "en-US", false)).toBe("dmy");
    expect(inferDateOrder([my], "auto", false)).toBe("dmy");
  });

  test("the evidence names its cues; a text without any has none", () => {
    const e = countryEvidence("KEDAI ABC SDN BHD\nTEL: +60 3-5631 2345\nGST ID: 0012\nTOTAL RM 5.00\nMalaysia");
    expect(e.dmy).toBeGreaterThanOrEqual(6);
    expect(e.cues.join("; ")).toMatch(/currency "RM".*phone country code "\+60"/);
    expect(countryEvidence("Item 1 5.00\nTotal 5.00")).toEqual({ dmy: 0, mdy: 0, cues: [] });
  });
});
