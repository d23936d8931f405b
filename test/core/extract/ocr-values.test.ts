/**
 * Values as OCR misreads them, by failure class: IBANs with misread or extra characters (repaired by the
 * country's account format and the checksum, never invented), cents read apart from their amount, a receipt total
 * lost while cash and change stay readable, names with specks around them.
 */
import { describe, expect, test } from "bun:test";
import { ibanRead } from "../../../src/core/extract/compact-values";
import { isValidIban } from "../../../src/core/extract/iban-check";
import { joinedCents } from "../../../src/core/extract/values";
import { withoutSpecks } from "../../../src/core/extract/specks";
import type { Page, Word } from "../../../src/core/model";
import { defaultProject } from "../../../src/core/project";
import { extractFields } from "../../../src/core/stages/extract";
import { Rng } from "../../../fixtures/varied/generator/random";

/** A valid IBAN of `country` with a random account part of `bban` characters (letters where `letters` says). */
function randomIban(r: Rng, country: string, bban: string): string {
  const body = [...bban].map((k) => (k === "a" ? r.letters(1) : String(r.int(0, 9)))).join("");
  for (let check = 2; check <= 98; check++) {
    const iban = `${country}${String(check).padStart(2, "0")}${body}`;
    if (isValidIban(iban)) return iban;
  }
  throw new Error("no check digits");
}

const FORMATS: Array<[string, string]> = [
  ["DE", "n".repeat(18)],
  ["NL", `aaaa${"n".repeat(10)}`],
  ["GB", `aaaa${"n".repeat(14)}`],
  ["FR", "n".repeat(23)],
  ["ES", "n".repeat(20)],
  ["IT", `a${"n".repeat(22)}`],
];
const grouped = (iban: string) => iban.replace(/(.{4})(?=.)/g, "$1 ");
const AS_LETTER: Record<string, string> = { "0": "O", "1": "I", "5": "S", "8": "B" };

describe("IBANs misread by OCR", () => {
  const r = new Rng(32);
  const cases = FORMATS.flatMap(([country, bban]) => Array.from({ length: 6 }, () => randomIban(r, country, bban)));

  test("a digit read as a letter in the account part, a check digit read as a letter, a trailing dot", () => {
    for (const iban of cases) {
      const at = 4 + [...iban.slice(4)].findIndex((c) => AS_LETTER[c]);
      if (at >= 4) {
        const misread = iban.slice(0, at) + AS_LETTER[iban[at]!]! + iban.slice(at + 1);
        expect(ibanRead(grouped(misread), true).value).toBe(iban);
      }
      expect(ibanRead(`${grouped(iban)}.`, true).value).toBe(iban);
      expect(ibanRead(grouped(`${iban.slice(0, 2)}X${iban.slice(3)}`), true).value).toBe(iban);
    }
  });

  test("a speck read as an extra character is dropped when exactly one choice passes the checksum", () => {
    let repaired = 0;
    for (const [i, iban] of cases.entries()) {
      const at = 6 + (i % (iban.length - 7));
      const read = ibanRead(grouped(iban.slice(0, at) + "O" + iban.slice(at)), true).value;
      // Never a different IBAN: either the printed one or none.
      expect([iban, null]).toContain(read);
      if (read) repaired++;
    }
    expect(repaired).toBeGreaterThanOrEqual(cases.length * 0.8);
  });

  test("an address or a number that is no IBAN stays none, on a text layer no repair at all", () => {
    for (const text of [
      "22 · 3511 LK Utrecht",
      "DE12 3456 7890",
      "NL 1012 AB Amsterdam 020 555 0101",
      "FR 87 325 472 309",
    ])
      expect(ibanRead(text, true).value).toBeNull();
    expect(ibanRead("NL50INGBO0683251309", false).value).toBeNull();
    expect(ibanRead("NL50INGBO0683251309", true).value).toBe("NL50INGB0683251309");
  });
});

describe("amounts and names as OCR misreads them", () => {
  test("cents read apart from their amount are joined, offsets kept; dates and lists untouched", () => {
    expect(joinedCents("TOTAL RM95. 7 5")).toBe("TOTAL RM95.75  ");
    expect(joinedCents("SUMME 380, 00 EUR")).toBe("SUMME 380,00  EUR");
    for (const t of ["10. 12 2024", "12.50 13.00", "Qty 2. 3 items", "05. 03. 2024"]) expect(joinedCents(t)).toBe(t);
  });

  test("specks around a name are no part of it; brackets and a legal form's dots are", () => {
    expect(withoutSpecks("- KINGS DELI")).toBe("KINGS DELI");
    expect(withoutSpecks("‘Bridor Servicios S.L.")).toBe("Bridor Servicios S.L.");
    expect(withoutSpecks("Pixsie Print LLC .")).toBe("Pixsie Print LLC");
    expect(withoutSpecks("ACME (Europe) Ltd.")).toBe("ACME (Europe) Ltd.");
  });
});

/** A till receipt as OCR gives it: lines top to bottom, one block each. */
function receipt(lines: string[]): Page {
  const words: Word[] = [];
  lines.forEach((text, line) => {
    let x = 40;
    for (const part of text.split(/ +/)) {
      words.push({
        text: part,
        confidence: 0.9,
        bounding_box: [x, 60 + line * 40, x + part.length * 18, 88 + line * 40],
        line,
      });
      x += part.length * 18 + 18;
    }
  });
  return {
    page_number: 1,
    source_file_index: 0,
    source_filename: "receipt.jpg",
    source_file_page_number: 1,
    image_transform: {
      rasterized_width: 900,
      rasterized_height: 1400,
      source_width: 900,
      source_height: 1400,
      source_unit: "pixel",
      render_scale: 1,
      effective_dpi: 230,
      coordinate_system: "top-left-origin",
      rotation: 0,
    },
    text_source: "ocr",
    words,
    text: lines.join("\n"),
    ocr_confidence: 0.9,
  };
}

describe("a receipt whose total OCR lost: cash tendered minus change", () => {
  for (const [cash, change, label, total] of [
    ["110.00", "28.30", "CHANGE", 81.7],
    ["140,00", "9,95", "RÜCKGELD", 130.05],
    ["50.00", "0.25", "CHANGE DUE", 49.75],
  ] as const) {
    test(`${label} ${change} from ${cash}`, () => {
      const page = receipt([
        "RIVERSIDE BAKERY",
        "12 MAIN ST",
        "14/07/2023 10:02",
        "BREAD WHITE 3.49",
        "GRAND TOTAL",
        `CASH ${cash}`,
        `${label} ${change}`,
        "THANK YOU",
      ]);
      const f = extractFields([page], "receipt", defaultProject);
      expect(f.total_amount!.value).toBe(total);
      expect(f.total_amount!.reasoning).toContain("minus change");
    });
  }

  test("a total read next to its label stands, whatever cash and change say", () => {
    const page = receipt(["RIVERSIDE BAKERY", "14/07/2023 10:02", "TOTAL 81.70", "CASH 100.00", "CHANGE 18.30"]);
    expect(extractFields([page], "receipt", defaultProject).total_amount!.value).toBe(81.7);
  });
});

describe("OCR-lost marks read back by arithmetic and position", () => {
  test("a total read without its decimal mark is subtotal + tax when its digits are the sum's", () => {
    const page = receipt([
      "Orasie Tipografia S.r.l.",
      "Fattura n. F-2024-117",
      "Data 12/03/2024",
      "Imponibile 315,66",
      "IVA 22% 69,45",
      "Totale . 38511",
    ]);
    const f = extractFields([page], "invoice", defaultProject);
    expect(f.total_amount!.value).toBe(385.11);
    expect(f.total_amount!.reasoning).toContain("without its decimal mark");
  });

  test("an integer that is not the sum's digits is left as read", () => {
    const page = receipt(["Orasie S.r.l.", "Imponibile 315,66", "IVA 22% 69,45", "Totale 38500"]);
    expect(extractFields([page], "invoice", defaultProject).total_amount!.value).not.toBe(385.11);
  });

  test("a speck between a month's name and the day ('Jan'1, 2022') is read as the space it was", () => {
    const page = receipt(["Sammy Maystone", "Invoice # 17", "Date: Jan'1, 2022", "Total 127.50"]);
    expect(extractFields([page], "invoice", defaultProject).invoice_date!.value).toBe("2022-01-01");
  });
});
